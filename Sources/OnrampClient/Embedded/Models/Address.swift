/// A postal address for KYC.
public struct Address: Sendable, Equatable {
    /// Street line 1.
    public var line1: String
    /// Street line 2.
    public var line2: String?
    /// City.
    public var city: String
    /// State or region (two letters in the US).
    public var state: String
    /// Postal code.
    public var postalCode: String
    /// ISO 3166-1 country.
    public var country: String

    /// Creates an address.
    public init(line1: String, line2: String? = nil, city: String, state: String, postalCode: String, country: String) {
        self.line1 = line1
        self.line2 = line2
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.country = country
    }

    var formFields: [(String, String)] {
        [("line1", line1)] + (line2.map { [("line2", $0)] } ?? []) + [
            ("city", city), ("state", state), ("zip", postalCode), ("country", country),
        ]
    }
}
