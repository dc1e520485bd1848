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
