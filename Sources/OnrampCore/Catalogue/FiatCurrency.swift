/// A fiat currency that purchases are paid in.
public struct FiatCurrency: Sendable, Hashable, Codable {
    /// The ISO 4217 code, upper case (`USD`).
    public var code: String
    /// The English name.
    public var name: String
    /// The minor-unit places amounts are rounded to (2 for USD, EUR, GBP).
    public var decimals: Int

    /// Creates a fiat currency.
    public init(code: String, name: String, decimals: Int) {
        self.code = code
        self.name = name
        self.decimals = decimals
    }
}
