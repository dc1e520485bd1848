import Foundation

/// Everything that can be bought, on which networks, with which money and at which price and fees.
///
/// A catalogue is plain data: ``standard`` is deterministic (tests rely on its prices and fees), and
/// an operator can load another from JSON with ``init(jsonData:)``.
public struct Catalogue: Sendable, Hashable, Codable {
    /// Fiat currencies purchases are paid in.
    public var fiatCurrencies: [FiatCurrency]
    /// Networks assets are delivered on.
    public var networks: [Network]
    /// Assets that can be purchased.
    public var assets: [Asset]
    /// Payment methods with their limits.
    public var paymentMethods: [PaymentMethod]
    /// Countries with their subdivisions and payment methods.
    public var countries: [Country]
    /// Asset prices in fiat.
    public var prices: PriceTable
    /// Processing and network fees.
    public var fees: FeeSchedule

    /// Creates a catalogue and checks that it is consistent.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/invalidCatalogue``.
    public init(
        fiatCurrencies: [FiatCurrency], networks: [Network], assets: [Asset],
        paymentMethods: [PaymentMethod], countries: [Country], prices: PriceTable, fees: FeeSchedule
    ) throws {
        self.fiatCurrencies = fiatCurrencies
        self.networks = networks
        self.assets = assets
        self.paymentMethods = paymentMethods
        self.countries = countries
        self.prices = prices
        self.fees = fees
        try validate()
    }

    /// Decodes a catalogue from JSON (the encoding of this type; amounts are decimal strings) and
    /// checks that it is consistent.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/invalidCatalogue``.
    public init(jsonData: Data) throws {
        do {
            self = try JSONDecoder().decode(Catalogue.self, from: jsonData)
        } catch {
            throw OnrampError(
                code: .invalidCatalogue, userMessage: "The service is misconfigured.",
                developerMessage: "The catalogue JSON could not be decoded: \(error).")
        }
        try validate()
    }

    /// Checks that every reference resolves and every number is sensible.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/invalidCatalogue``.
    public func validate() throws {
        func failure(_ message: String) -> OnrampError {
            OnrampError(
                code: .invalidCatalogue, userMessage: "The service is misconfigured.",
                developerMessage: "Inconsistent catalogue: \(message).")
        }
        let networkNames = networks.flatMap { [$0.id] + $0.aliases }
        guard Set(networkNames).count == networkNames.count else { throw failure("duplicate network name") }
        let tickers = assets.flatMap { [$0.symbol, $0.id] + $0.aliases }
        guard Set(tickers).count == tickers.count else { throw failure("duplicate asset ticker or id") }
        let fiatCodes = Set(fiatCurrencies.map(\.code))
        guard fiatCodes.count == fiatCurrencies.count else { throw failure("duplicate fiat currency") }
        for currency in fiatCurrencies where !(0...8).contains(currency.decimals) {
            throw failure("fiat \(currency.code) has \(currency.decimals) decimals")
        }
        for asset in assets {
            guard (0...18).contains(asset.decimals) else { throw failure("asset \(asset.symbol) decimals") }
            for deployment in asset.deployments where !networks.contains(where: { $0.id == deployment.network }) {
                throw failure("asset \(asset.symbol) names unknown network \(deployment.network)")
            }
        }
        for method in paymentMethods {
            for limit in method.limits {
                guard fiatCodes.contains(limit.currency) else {
                    throw failure("\(method.type.rawValue) limit in unknown currency \(limit.currency)")
                }
                guard !limit.minimum.isNegative, limit.minimum <= limit.maximum else {
                    throw failure("\(method.type.rawValue) limit for \(limit.currency) is not a range")
                }
            }
        }
        for entry in prices.entries {
            guard assets.contains(where: { $0.symbol == entry.asset }), fiatCodes.contains(entry.currency),
                entry.price.isPositive
            else { throw failure("price of \(entry.asset) in \(entry.currency)") }
            // Transactions report their total in USD too, converted through the asset's USD price.
            guard prices.entries.contains(where: { $0.asset == entry.asset && $0.currency == "USD" }) else {
                throw failure(
                    "\(entry.asset) has a \(entry.currency) price but no USD price (transactions report their total in USD)"
                )
            }
        }
        for fee in fees.paymentMethodFees where fee.percentage.isNegative || fee.fixed.isNegative {
            throw failure("negative fee for \(fee.method.rawValue)")
        }
        for fee in fees.networkFees where fee.amount.isNegative {
            throw failure("negative network fee for \(fee.network)")
        }
    }

    /// The JSON encoding of the catalogue, with sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }
}
