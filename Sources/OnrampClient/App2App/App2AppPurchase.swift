/// The purchase fields of a challenge request (seed step 2). Give exactly one of ``paymentAmount`` (fiat,
/// fee-inclusive) or ``purchaseAmount`` (crypto, fee-exclusive), as decimal strings.
public struct App2AppPurchase: Sendable, Encodable, Equatable {
    /// A Coinbase ticker (`USDC`) or asset id.
    public var purchaseCurrency: String
    /// A network name (`solana`, `base`).
    public var destinationNetwork: String
    /// The wallet that receives the crypto.
    public var destinationAddress: String
    /// An absolute `https` URL on the project's domain allowlist.
    public var redirectUrl: String
    /// Fiat the user spends, fee-inclusive (`"25.00"`).
    public var paymentAmount: String?
    /// Crypto the user receives, fee-exclusive.
    public var purchaseAmount: String?
    /// A prefill hint for the fiat currency.
    public var paymentCurrency: String?
    /// `CARD`, `ACH`, `APPLE_PAY`, `FIAT_WALLET` or `CRYPTO_WALLET`.
    public var paymentMethod: String?
    /// Your user id (max 50 characters); required to confirm settlement. `sandbox-…` makes a dry run.
    public var partnerUserRef: String?
    /// ISO 3166-1 country.
    public var country: String?
    /// ISO 3166-2 subdivision.
    public var subdivision: String?

    /// Creates a purchase.
    public init(
        purchaseCurrency: String, destinationNetwork: String, destinationAddress: String, redirectUrl: String,
        paymentAmount: String? = nil, purchaseAmount: String? = nil, paymentCurrency: String? = nil,
        paymentMethod: String? = nil, partnerUserRef: String? = nil, country: String? = nil, subdivision: String? = nil
    ) {
        self.purchaseCurrency = purchaseCurrency
        self.destinationNetwork = destinationNetwork
        self.destinationAddress = destinationAddress
        self.redirectUrl = redirectUrl
        self.paymentAmount = paymentAmount
        self.purchaseAmount = purchaseAmount
        self.paymentCurrency = paymentCurrency
        self.paymentMethod = paymentMethod
        self.partnerUserRef = partnerUserRef
        self.country = country
        self.subdivision = subdivision
    }
}
