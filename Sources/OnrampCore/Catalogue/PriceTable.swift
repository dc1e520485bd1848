/// Prices of assets in fiat currencies: how much fiat one whole unit of an asset costs.
public struct PriceTable: Sendable, Hashable, Codable {
    /// One price.
    public struct Entry: Sendable, Hashable, Codable {
        /// The asset ticker.
        public var asset: String
        /// The fiat currency code.
        public var currency: String
        /// Fiat per one unit of the asset.
        public var price: DecimalAmount

        /// Creates a price entry.
        public init(asset: String, currency: String, price: DecimalAmount) {
            self.asset = asset
            self.currency = currency
            self.price = price
        }
    }

    /// The prices.
    public var entries: [Entry]

    /// Creates a price table.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The price of one `asset` (ticker) in `currency`.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/priceUnavailable``.
    public func price(of asset: String, in currency: String) throws -> DecimalAmount {
        guard let entry = entries.first(where: { $0.asset == asset && $0.currency == currency }),
            entry.price.isPositive
        else {
            throw OnrampError(
                code: .priceUnavailable, userMessage: "This purchase is not available right now.",
                developerMessage: "No price for \(asset) in \(currency).")
        }
        return entry.price
    }
}
