/// The App2App Sell Config answer, in Buy Config's shape: every country, with the cash-out methods a sell may
/// use as its `payment_methods` (Coinbase's demo application `app/api/sell-config/route.ts` at 114d1e1c).
public typealias SellConfig = BuyConfig

/// The App2App Sell Options answer: the cash-out currencies with each cash-out method's limits, and the assets a
/// sell can receive with their networks (`cashout_currencies`, `sell_currencies`; Buy Options' entries).
public struct SellOptions: Sendable, Hashable, Codable {
    /// The fiat currencies a sell pays out in.
    public var cashoutCurrencies: [BuyOptions.PaymentCurrency]
    /// The assets a sell can receive.
    public var sellCurrencies: [BuyOptions.PurchaseCurrency]

    enum CodingKeys: String, CodingKey {
        case cashoutCurrencies = "cashout_currencies"
        case sellCurrencies = "sell_currencies"
    }
}

/// A method a sell pays out through, and the name the sell APIs give it (`FIAT_WALLET`, `ACH_BANK_ACCOUNT`, …).
public struct CashoutMethod: Sendable, Hashable {
    /// The name on the wire.
    public var name: String
    /// The catalogue's payment method whose limits and fees it has.
    public var type: PaymentMethodType

    /// A cash-out method.
    public init(name: String, type: PaymentMethodType) {
        self.name = name
        self.type = type
    }
}

extension Catalogue {
    /// The Sell Config: every country, each offering every one of `methods`.
    public func sellConfig(methods: [CashoutMethod]) -> SellConfig {
        SellConfig(
            countries: countries.map { country in
                SellConfig.CountryEntry(
                    id: country.id, subdivisions: country.subdivisions,
                    paymentMethods: methods.map { .init(id: $0.name) })
            })
    }

    /// The Sell Options: the limits of `methods` in each fiat currency, and the assets on the networks
    /// `receivable` keeps.
    public func sellOptions(methods: [CashoutMethod], receivable: (Network) -> Bool) -> SellOptions {
        let names = Dictionary(methods.map { ($0.type, $0.name) }) { first, _ in first }
        return SellOptions(
            cashoutCurrencies: currencyLimits(of: methods.map(\.type)) { names[$0] ?? $0.rawValue },
            sellCurrencies: assetNetworks(receivable))
    }
}
