/// The `crypto.onramp_session` object of the Embedded Components API, as stripe-node types it
/// (`src/resources/Crypto/OnrampSessions.ts`): every amount a decimal string (or `null`), times in
/// Unix seconds, the purchase under `transaction_details`.
public struct CryptoOnrampSession: WireObject, Codable, Equatable {
    /// Where the session stands.
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Created; something (KYC, a wallet) is still missing.
        case initialized
        /// Ready for checkout.
        case requiresPayment = "requires_payment"
        /// Paid; the crypto is being delivered.
        case fulfillmentProcessing = "fulfillment_processing"
        /// The crypto was delivered.
        case fulfillmentComplete = "fulfillment_complete"
        /// Blocked for good.
        case rejected
    }

    /// Why the session is not moving (`transaction_details.last_error`).
    public enum LastError: String, Codable, Sendable, CaseIterable {
        case actionRequired = "action_required"
        case missingKYC = "missing_kyc"
        case missingDocumentVerification = "missing_document_verification"
        case chargedWithExpiredQuote = "charged_with_expired_quote"
        case missingConsumerWallet = "missing_consumer_wallet"
        case transactionLimitReached = "transaction_limit_reached"
        case locationNotSupported = "location_not_supported"
        case transactionFailed = "transaction_failed"
    }

    /// How fast the crypto is delivered.
    public enum SettlementSpeed: String, Codable, Sendable, CaseIterable {
        case instant
        case standard
    }

    /// Where to send the user (the 3-D Secure page).
    public struct NextAction: Codable, Equatable, Sendable {
        /// The page.
        public struct RedirectToURL: Codable, Equatable, Sendable {
            /// Its URL.
            public var url: String
        }

        /// Always `redirect_to_url`.
        public var type: String
        /// The page to open.
        public var redirectToURL: RedirectToURL

        enum CodingKeys: String, CodingKey {
            case type
            case redirectToURL = "redirect_to_url"
        }

        /// Redirects the user to `url`.
        public init(redirectingTo url: String) {
            type = "redirect_to_url"
            redirectToURL = RedirectToURL(url: url)
        }

        /// The member as written on the wire.
        public var json: JSONValue {
            ["type": .string(type), "redirect_to_url": ["url": .string(redirectToURL.url)]]
        }

        /// What the member always holds.
        public static let schema = APISchema.object(
            ["type": .constant("redirect_to_url"), "redirect_to_url": .object(["url": .uri], required: ["url"])],
            required: ["type", "redirect_to_url"])
    }

    /// The fees of the quote, in the source currency.
    public struct Fees: Codable, Equatable, Sendable {
        /// The network's fee.
        public var networkFeeAmount: String?
        /// The onramp's fee.
        public var transactionFeeAmount: String?

        enum CodingKeys: String, CodingKey {
            case networkFeeAmount = "network_fee_amount"
            case transactionFeeAmount = "transaction_fee_amount"
        }

        /// Creates the fees.
        public init(networkFeeAmount: String?, transactionFeeAmount: String?) {
            self.networkFeeAmount = networkFeeAmount
            self.transactionFeeAmount = transactionFeeAmount
        }

        /// The member as written on the wire (both amounts always present, `null` when unknown).
        public var json: JSONValue {
            [
                "network_fee_amount": .optional(networkFeeAmount),
                "transaction_fee_amount": .optional(transactionFeeAmount),
            ]
        }

        /// What the member always holds.
        public static let schema = APISchema.object(
            ["network_fee_amount": amount, "transaction_fee_amount": amount],
            required: ["network_fee_amount", "transaction_fee_amount"])
    }

    /// The purchase: amounts, currencies, network, wallet and quote.
    public struct TransactionDetails: Codable, Equatable, Sendable {
        /// The crypto the user receives.
        public var destinationAmount: String?
        /// The asset (`usdc`).
        public var destinationCurrency: String?
        /// The network it is delivered on.
        public var destinationNetwork: String
        /// The assets the session may be switched to.
        public var destinationCurrencies: [String]?
        /// The networks the session may be switched to.
        public var destinationNetworks: [String]?
        /// The quote's fees.
        public var fees: Fees
        /// Why the session is not moving.
        public var lastError: LastError?
        /// Whether the wallet can still be changed (never, here).
        public var lockWalletAddress: Bool
        /// When the quote stops being honoured (Unix seconds).
        public var quoteExpiration: Int64
        /// How fast the crypto is delivered.
        public var settlementSpeed: SettlementSpeed
        /// The fiat that buys crypto, before fees.
        public var sourceAmount: String?
        /// The fiat currency (`usd`).
        public var sourceCurrency: String?
        /// What the user pays in total.
        public var sourceTotalAmount: String?
        /// The delivery's on-chain transaction, once there is one.
        public var transactionId: String?
        /// The wallet the crypto goes to.
        public var walletAddress: String?

        enum CodingKeys: String, CodingKey {
            case destinationAmount = "destination_amount"
            case destinationCurrency = "destination_currency"
            case destinationNetwork = "destination_network"
            case destinationCurrencies = "destination_currencies"
            case destinationNetworks = "destination_networks"
            case fees
            case lastError = "last_error"
            case lockWalletAddress = "lock_wallet_address"
            case quoteExpiration = "quote_expiration"
            case settlementSpeed = "settlement_speed"
            case sourceAmount = "source_amount"
            case sourceCurrency = "source_currency"
            case sourceTotalAmount = "source_total_amount"
            case transactionId = "transaction_id"
            case walletAddress = "wallet_address"
        }

        /// Creates the details.
        public init(
            destinationAmount: String?, destinationCurrency: String?, destinationNetwork: String,
            destinationCurrencies: [String]?, destinationNetworks: [String]?, fees: Fees, lastError: LastError?,
            quoteExpiration: Int64, settlementSpeed: SettlementSpeed, sourceAmount: String?, sourceCurrency: String?,
            sourceTotalAmount: String?, transactionId: String?, walletAddress: String?
        ) {
            self.destinationAmount = destinationAmount
            self.destinationCurrency = destinationCurrency
            self.destinationNetwork = destinationNetwork
            self.destinationCurrencies = destinationCurrencies
            self.destinationNetworks = destinationNetworks
            self.fees = fees
            self.lastError = lastError
            self.lockWalletAddress = true
            self.quoteExpiration = quoteExpiration
            self.settlementSpeed = settlementSpeed
            self.sourceAmount = sourceAmount
            self.sourceCurrency = sourceCurrency
            self.sourceTotalAmount = sourceTotalAmount
            self.transactionId = transactionId
            self.walletAddress = walletAddress
        }

        /// The `wallet_addresses` keys of stripe-node's `OnrampSession.TransactionDetails.WalletAddresses`:
        /// one per network, Base's spelled `base_network`.
        public static let walletAddressKeys = [
            "avalanche", "base_network", "bitcoin", "ethereum", "optimism", "polygon", "solana", "stellar", "sui",
            "worldchain",
        ]

        /// `wallet_addresses`: the wallet under its network's key, `null` under every other one.
        public var walletAddresses: JSONValue {
            let key = destinationNetwork == "base" ? "base_network" : destinationNetwork
            let wallet = JSONValue.optional(walletAddress)
            var members = Self.walletAddressKeys.map { ($0, $0 == key ? wallet : JSONValue.null) }
            if !Self.walletAddressKeys.contains(key) { members.append((key, wallet)) }
            return .object(members + [("destination_tags", .null)])
        }

        /// The member as written on the wire.
        public var json: JSONValue {
            [
                "destination_amount": .optional(destinationAmount),
                "destination_currency": .optional(destinationCurrency),
                "destination_network": .string(destinationNetwork),
                "destination_currencies": destinationCurrencies.map { .array($0.map(JSONValue.string)) } ?? .null,
                "destination_networks": destinationNetworks.map { .array($0.map(JSONValue.string)) } ?? .null,
                "fees": fees.json, "last_error": .optional(lastError?.rawValue),
                "lock_wallet_address": .bool(lockWalletAddress), "quote_expiration": .integer(quoteExpiration),
                "settlement_speed": .string(settlementSpeed.rawValue), "source_amount": .optional(sourceAmount),
                "source_currency": .optional(sourceCurrency), "source_total_amount": .optional(sourceTotalAmount),
                "transaction_id": .optional(transactionId), "wallet_address": .optional(walletAddress),
                "wallet_addresses": walletAddresses,
            ]
        }

        /// What the member always holds.
        public static let schema = APISchema.object(
            [
                "destination_amount": amount, "destination_currency": .string.nullable,
                "destination_network": .string, "destination_currencies": APISchema.array(.string).nullable,
                "destination_networks": APISchema.array(.string).nullable, "fees": Fees.schema,
                "last_error": APISchema.enumeration(LastError.allCases.map(\.rawValue)).nullable,
                "lock_wallet_address": .boolean, "quote_expiration": .integer,
                "settlement_speed": .enumeration(SettlementSpeed.allCases.map(\.rawValue)), "source_amount": amount,
                "source_currency": .string.nullable, "source_total_amount": amount,
                "transaction_id": .string.nullable, "wallet_address": .string.nullable,
                "wallet_addresses": .map(.string.nullable),
            ],
            required: [
                "destination_amount", "destination_currency", "destination_network", "destination_currencies",
                "destination_networks", "fees", "last_error", "lock_wallet_address", "quote_expiration",
                "settlement_speed", "source_amount", "source_currency", "source_total_amount", "transaction_id",
                "wallet_address", "wallet_addresses",
            ])
    }

    /// The session id (`cos_…`).
    public var id: String
    /// The secret the client SDK is given for this session.
    public var clientSecret: String
    /// When it was created (Unix seconds).
    public var created: Int64
    /// Whether it was made with a live key.
    public var livemode: Bool
    /// Where it stands.
    public var status: Status
    /// The customer buying.
    public var cryptoCustomerId: String
    /// The payment token charged at checkout.
    public var paymentToken: String?
    /// Where to send the user, when the payment needs them.
    public var nextAction: NextAction?
    /// Whether KYC details came with the session (never, here).
    public var kycDetailsProvided: Bool
    /// The partner's own keys and values.
    public var metadata: [String: String]?
    /// Where the hosted flow returns to (none: sessions here are headless).
    public var redirectURL: String?
    /// The purchase.
    public var transactionDetails: TransactionDetails

    enum CodingKeys: String, CodingKey {
        case id
        case clientSecret = "client_secret"
        case created, livemode, status
        case cryptoCustomerId = "crypto_customer_id"
        case paymentToken = "payment_token"
        case nextAction = "next_action"
        case kycDetailsProvided = "kyc_details_provided"
        case metadata
        case redirectURL = "redirect_url"
        case transactionDetails = "transaction_details"
    }

    /// Creates a session object.
    public init(
        id: String, clientSecret: String, created: Int64, livemode: Bool, status: Status, cryptoCustomerId: String,
        paymentToken: String?, nextAction: NextAction?, metadata: [String: String]?,
        transactionDetails: TransactionDetails
    ) {
        self.id = id
        self.clientSecret = clientSecret
        self.created = created
        self.livemode = livemode
        self.status = status
        self.cryptoCustomerId = cryptoCustomerId
        self.paymentToken = paymentToken
        self.nextAction = nextAction
        kycDetailsProvided = false
        self.metadata = metadata
        redirectURL = nil
        self.transactionDetails = transactionDetails
    }

    /// A decimal amount, or `null`.
    static let amount = APISchema.decimalString.nullable

    public var json: JSONValue {
        [
            "id": .string(id), "object": "crypto.onramp_session", "client_secret": .string(clientSecret),
            "created": .integer(created), "livemode": .bool(livemode), "status": .string(status.rawValue),
            "crypto_customer_id": .string(cryptoCustomerId), "payment_token": .optional(paymentToken),
            "ui_mode": "headless", "next_action": nextAction?.json ?? .null,
            "kyc_details_provided": .bool(kycDetailsProvided),
            "metadata": metadata.map { map in
                .object(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
            }
                ?? .null,
            "redirect_url": .optional(redirectURL), "transaction_details": transactionDetails.json,
        ]
    }

    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.onramp_session"), "client_secret": .string,
            "created": .integer, "livemode": .boolean, "status": .enumeration(Status.allCases.map(\.rawValue)),
            "crypto_customer_id": .string, "payment_token": .string.nullable, "ui_mode": .constant("headless"),
            "next_action": NextAction.schema.nullable, "kyc_details_provided": .boolean,
            "metadata": APISchema.map(.string).nullable, "redirect_url": APISchema.uri.nullable,
            "transaction_details": TransactionDetails.schema,
        ],
        required: [
            "id", "object", "client_secret", "created", "livemode", "status", "crypto_customer_id", "payment_token",
            "ui_mode", "next_action", "kyc_details_provided", "metadata", "redirect_url", "transaction_details",
        ])
}
