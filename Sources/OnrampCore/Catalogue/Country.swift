/// A country where purchases can be made, with its subdivisions and payment methods.
public struct Country: Sendable, Hashable, Codable {
    /// The ISO 3166-1 alpha-2 code (`US`).
    public var id: String
    /// The English name.
    public var name: String
    /// ISO 3166-2 subdivision codes without the country prefix (`CA`, `NY`).
    public var subdivisions: [String]
    /// The payment methods offered in the country.
    public var paymentMethods: [PaymentMethodType]

    /// Creates a country.
    public init(id: String, name: String, subdivisions: [String], paymentMethods: [PaymentMethodType]) {
        self.id = id
        self.name = name
        self.subdivisions = subdivisions
        self.paymentMethods = paymentMethods
    }
}
