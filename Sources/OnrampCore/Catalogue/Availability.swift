/// What the sandbox serves a buyer in one country and subdivision, as Coinbase's "Onramp Asset Availability"
/// tool answers it: the payment methods offered there with their limits in each fiat currency and the assets
/// with their networks (Coinbase's flows: App2App, the hosted onramp, Headless), and whether and on which
/// terms Stripe's Embedded onramp serves the region. Built from the catalogue the APIs use, so the page and
/// `onramp catalogue --country` cannot disagree with them.
public struct Availability: Sendable, Hashable, Encodable {
    /// The Embedded onramp's terms in a region, or why it serves none there.
    public struct EmbeddedTerms: Sendable, Hashable, Encodable {
        /// Whether purchases are served.
        public var available: Bool
        /// The currency they pay in (`usd`, `eur`), when available.
        public var currency: String?
        /// Whether only cards pay, when available.
        public var cardsOnly: Bool?
        /// Why not, when not available.
        public var reason: String?

        enum CodingKeys: String, CodingKey {
            case available, currency, reason
            case cardsOnly = "cards_only"
        }
    }

    /// The country (ISO 3166-1 alpha-2).
    public var country: String
    /// Its English name.
    public var countryName: String
    /// The subdivision asked about (ISO 3166-2 without the country prefix), if any.
    public var subdivision: String?
    /// The payment methods offered, by their transactions-API names.
    public var paymentMethods: [String]
    /// The Buy Options for the country: limits per fiat currency and the assets with their networks.
    public var options: BuyOptions
    /// Stripe's Embedded onramp there.
    public var embedded: EmbeddedTerms

    /// Snake case, as Buy Options is.
    enum CodingKeys: String, CodingKey {
        case country, subdivision, options, embedded
        case countryName = "country_name"
        case paymentMethods = "payment_methods"
    }
}

/// Why an availability lookup names nothing the catalogue serves.
public struct AvailabilityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the valid choices.
    public let description: String
}

extension Catalogue {
    /// What is served in `country` (any case) and `subdivision` (with or without the country prefix).
    public func availability(country code: String, subdivision: String? = nil) throws(AvailabilityError)
        -> Availability
    {
        guard let country = country(code.uppercased()) else {
            throw AvailabilityError(
                description:
                    "No purchases are served in \(code): the catalogue serves \(countries.map(\.id).joined(separator: ", "))."
            )
        }
        var region: String?
        if let subdivision, !subdivision.isEmpty {
            let bare =
                subdivision.uppercased().hasPrefix(country.id + "-")
                ? String(subdivision.uppercased().dropFirst(country.id.count + 1)) : subdivision.uppercased()
            guard country.subdivisions.isEmpty || country.subdivisions.contains(bare) else {
                throw AvailabilityError(
                    description:
                        "\(country.name) has no subdivision \(subdivision); its subdivisions are \(country.subdivisions.joined(separator: ", "))."
                )
            }
            region = bare
        }
        let refusal = KYCRegion.refusal(country: country.id, subdivision: region)
        let embedded: Availability.EmbeddedTerms =
            if refusal == nil, let terms = KYCRegion.of(country: country.id) {
                .init(available: true, currency: terms.currency, cardsOnly: terms.cardsOnly)
            } else {
                .init(available: false, reason: refusal)
            }
        return Availability(
            country: country.id, countryName: country.name, subdivision: region,
            paymentMethods: paymentMethods.map(\.type).filter(country.paymentMethods.contains).map(
                \.transactionsAPIValue),
            options: buyOptions(country: country.id), embedded: embedded)
    }
}
