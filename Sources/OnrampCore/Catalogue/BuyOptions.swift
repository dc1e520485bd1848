/// The App2App Buy Options answer: fiat currencies with limits per payment method, and assets
/// with their networks.
///
/// Encodes to the contract's JSON (`payment_currencies`, `purchase_currencies`, snake_case keys,
/// decimal strings).
public struct BuyOptions: Sendable, Hashable, Codable {
    /// A fiat currency with its limits.
    public struct PaymentCurrency: Sendable, Hashable, Codable {
        /// The currency code.
        public var id: String
        /// The limits per payment method.
        public var limits: [Limit]
    }

    /// The limit of one payment method.
    public struct Limit: Sendable, Hashable, Codable {
        /// The payment method in the transactions API spelling.
        public var id: String
        /// The minimum payment total.
        public var min: DecimalAmount
        /// The maximum payment total.
        public var max: DecimalAmount
    }

    /// An asset with its networks.
    public struct PurchaseCurrency: Sendable, Hashable, Codable {
        /// The asset id.
        public var id: String
        /// The asset name.
        public var name: String
        /// The ticker.
        public var symbol: String
        /// The networks it can be delivered on.
        public var networks: [NetworkEntry]
    }

    /// One network of an asset.
    public struct NetworkEntry: Sendable, Hashable, Codable {
        /// The network id.
        public var name: String
        /// The network's display name.
        public var displayName: String
        /// The chain id (empty for non-EVM networks).
        public var chainID: String
        /// The asset's contract on the network (empty for a native asset).
        public var contractAddress: String

        enum CodingKeys: String, CodingKey {
            case name
            case displayName = "display_name"
            case chainID = "chain_id"
            case contractAddress = "contract_address"
        }
    }

    /// The fiat currencies.
    public var paymentCurrencies: [PaymentCurrency]
    /// The assets.
    public var purchaseCurrencies: [PurchaseCurrency]

    enum CodingKeys: String, CodingKey {
        case paymentCurrencies = "payment_currencies"
        case purchaseCurrencies = "purchase_currencies"
    }
}

extension Catalogue {
    /// The Buy Options for `country` (payment methods offered there; all when `nil` or unlisted),
    /// restricted to `networks` (names or aliases) when given. Assets with no network left are
    /// omitted.
    public func buyOptions(country: String? = nil, networks filter: [String]? = nil) -> BuyOptions {
        let offered = country.flatMap { self.country($0) }?.paymentMethods ?? PaymentMethodType.allCases
        return BuyOptions(
            paymentCurrencies: currencyLimits(of: offered) { $0.transactionsAPIValue },
            purchaseCurrencies: assetNetworks { network in filter.map { $0.contains(where: network.isNamed) } ?? true })
    }

    /// Each fiat currency with the limits the payment methods of `types` have in it, each method named by `name`.
    func currencyLimits(of types: [PaymentMethodType], name: (PaymentMethodType) -> String)
        -> [BuyOptions.PaymentCurrency]
    {
        fiatCurrencies.map { currency in
            BuyOptions.PaymentCurrency(
                id: currency.code,
                limits: paymentMethods.filter { types.contains($0.type) }.compactMap { method in
                    method.limit(for: currency.code).map {
                        BuyOptions.Limit(id: name(method.type), min: $0.minimum, max: $0.maximum)
                    }
                })
        }
    }

    /// Each asset with the networks `includes` keeps; assets on none are left out.
    func assetNetworks(_ includes: (Network) -> Bool) -> [BuyOptions.PurchaseCurrency] {
        assets.compactMap { asset -> BuyOptions.PurchaseCurrency? in
            let entries = asset.deployments.compactMap { deployment -> BuyOptions.NetworkEntry? in
                guard let network = networks.first(where: { $0.id == deployment.network }), includes(network)
                else { return nil }
                return BuyOptions.NetworkEntry(
                    name: network.id, displayName: network.displayName, chainID: network.chainID,
                    contractAddress: deployment.contractAddress)
            }
            guard !entries.isEmpty else { return nil }
            return BuyOptions.PurchaseCurrency(id: asset.id, name: asset.name, symbol: asset.symbol, networks: entries)
        }
    }
}
