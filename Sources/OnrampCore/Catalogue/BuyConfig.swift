/// The App2App Buy Config answer: countries, their subdivisions and payment methods.
///
/// Encodes to the contract's JSON (`{countries:[{id, subdivisions, payment_methods:[{id}]}]}`).
public struct BuyConfig: Sendable, Hashable, Codable {
    /// One country.
    public struct CountryEntry: Sendable, Hashable, Codable {
        /// The ISO 3166-1 code.
        public var id: String
        /// Subdivision codes.
        public var subdivisions: [String]
        /// Payment method ids in the transactions API spelling.
        public var paymentMethods: [Identifier]

        enum CodingKeys: String, CodingKey {
            case id, subdivisions
            case paymentMethods = "payment_methods"
        }
    }

    /// An object holding only an id.
    public struct Identifier: Sendable, Hashable, Codable {
        /// The id.
        public var id: String
    }

    /// The countries.
    public var countries: [CountryEntry]
}

extension Catalogue {
    /// The Buy Config of this catalogue.
    public func buyConfig() -> BuyConfig {
        BuyConfig(
            countries: countries.map { country in
                BuyConfig.CountryEntry(
                    id: country.id, subdivisions: country.subdivisions,
                    paymentMethods: country.paymentMethods.map { .init(id: $0.transactionsAPIValue) })
            })
    }
}
