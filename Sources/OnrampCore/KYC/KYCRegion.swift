/// The regulatory region a customer transacts under.
public enum KYCRegion: String, Sendable, Hashable, Codable, CaseIterable {
    /// The United States, excluding New York: `usd`, any payment method.
    case us
    /// The European Union: `eur`, cards only.
    case eu

    /// The ISO 3166-1 alpha-2 codes of the EU member states.
    public static let euCountries: Set<String> = [
        "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV",
        "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
    ]

    /// The region of `country` (ISO 3166-1, any case), or `nil` when it has none.
    public static func of(country: String) -> KYCRegion? {
        let code = country.uppercased()
        if code == "US" { return .us }
        return euCountries.contains(code) ? .eu : nil
    }
}

extension KYCRegion {
    /// The currency purchases from the region pay in (`usd`, `eur`).
    public var currency: String { self == .us ? "usd" : "eur" }
    /// Whether only cards pay (the EU), rather than any payment method.
    public var cardsOnly: Bool { self == .eu }
    /// How the region is named in refusals (`US`, `EU`).
    public var displayName: String { rawValue.uppercased() }

    /// Why the Embedded onramp serves no purchase from `country` and `subdivision` (ISO 3166-2 without or
    /// with the country prefix); nil when it serves the region.
    public static func refusal(country: String, subdivision: String?) -> String? {
        switch of(country: country) {
        case .us:
            let code = subdivision?.uppercased()
            return code == "NY" || code == "US-NY" ? "Purchases from New York are not supported." : nil
        case .eu: return nil
        case nil: return "Country \(country) is not supported."
        }
    }
}
