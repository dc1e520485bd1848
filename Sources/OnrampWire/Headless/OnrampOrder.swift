/// cdp-sdk's `OnrampOrder` (`onramp_order.py`), a Headless guest checkout order: amounts as decimal strings,
/// the fees listed (`OnrampOrderFee`), the exchange rate as the crypto value of one unit of fiat. The server
/// writes it and `HeadlessOnrampClient` decodes it; what the API promises of it is the server's OpenAPI
/// schema (`HeadlessRoutes.Operations.order`), which names the payment methods and statuses.
public struct OnrampOrder: WireObject, Codable, Equatable {
    /// The order id (a UUID).
    public var orderId: String
    /// The fiat paid, fees included.
    public var paymentTotal: String
    /// The fiat converted to crypto.
    public var paymentSubtotal: String
    /// The fiat currency (`USD`).
    public var paymentCurrency: String
    /// `GUEST_CHECKOUT_APPLE_PAY` or `GUEST_CHECKOUT_GOOGLE_PAY`.
    public var paymentMethod: String
    /// The crypto to buy, fees excluded.
    public var purchaseAmount: String
    /// The asset (`USDC`).
    public var purchaseCurrency: String
    /// The exchange and network fees.
    public var fees: [OnrampQuote.Fee]
    /// The crypto value of one unit of fiat.
    public var exchangeRate: String
    /// The wallet the crypto goes to.
    public var destinationAddress: String
    /// The network (`base`).
    public var destinationNetwork: String
    /// `ONRAMP_ORDER_STATUS_…`.
    public var status: String
    /// When it was created (RFC 3339).
    public var createdAt: String
    /// When it last changed (RFC 3339).
    public var updatedAt: String
    /// The partner's reference for the user (this server always sends it; cdp-sdk does not require it).
    public var partnerUserRef: String?
    /// The on-chain hash, once sent.
    public var txHash: String?
    /// The end partner an aggregator placed the order for (`X-Onramp-Partner-Id`).
    public var partnerId: String?

    /// Creates an order object.
    public init(
        orderId: String, paymentTotal: String, paymentSubtotal: String, paymentCurrency: String,
        paymentMethod: String, purchaseAmount: String, purchaseCurrency: String, fees: [OnrampQuote.Fee],
        exchangeRate: String, destinationAddress: String, destinationNetwork: String, status: String,
        createdAt: String, updatedAt: String, partnerUserRef: String?, txHash: String?, partnerId: String?
    ) {
        self.orderId = orderId
        self.paymentTotal = paymentTotal
        self.paymentSubtotal = paymentSubtotal
        self.paymentCurrency = paymentCurrency
        self.paymentMethod = paymentMethod
        self.purchaseAmount = purchaseAmount
        self.purchaseCurrency = purchaseCurrency
        self.fees = fees
        self.exchangeRate = exchangeRate
        self.destinationAddress = destinationAddress
        self.destinationNetwork = destinationNetwork
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.partnerUserRef = partnerUserRef
        self.txHash = txHash
        self.partnerId = partnerId
    }

    /// Whether the crypto was delivered.
    public var isCompleted: Bool { status == "ONRAMP_ORDER_STATUS_COMPLETED" }

    /// The members every order holds (the payment methods and statuses are the server's to list).
    public static let schema = APISchema.object(
        [
            "orderId": .string, "paymentTotal": .decimalString, "paymentSubtotal": .decimalString,
            "paymentCurrency": .string, "paymentMethod": .string, "purchaseAmount": .decimalString,
            "purchaseCurrency": .string, "fees": .array(OnrampQuote.Fee.schema), "exchangeRate": .decimalString,
            "destinationAddress": .string, "destinationNetwork": .string, "status": .string,
            "createdAt": .dateTime, "updatedAt": .dateTime, "partnerUserRef": .string, "txHash": .string,
            "partnerId": .string,
        ],
        required: [
            "orderId", "paymentTotal", "paymentSubtotal", "paymentCurrency", "paymentMethod", "purchaseAmount",
            "purchaseCurrency", "fees", "exchangeRate", "destinationAddress", "destinationNetwork", "status",
            "createdAt", "updatedAt",
        ])
}

/// An order as `POST /v2/onramp/orders` and `GET /v2/onramp/orders/{orderId}` answer it
/// (`CreateOnrampOrder201Response`): the order, where the user pays it (absent for a quote and on a read), and
/// an embedded-mode order's `userAuthToken` once its user is verified.
public struct OnrampOrderAnswer: WireObject, Codable, Equatable {
    /// The payment page (`paymentLinkType` `PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON`, `…GOOGLE_PAY_BUTTON`, or the
    /// embedded-mode page's type).
    public struct PaymentLink: WireObject, Codable, Equatable {
        /// The page to open (in a WebView or iframe).
        public var url: String
        /// Which page it is.
        public var paymentLinkType: String

        /// Creates a payment link.
        public init(url: String, paymentLinkType: String) {
            self.url = url
            self.paymentLinkType = paymentLinkType
        }

        public static let schema = APISchema.object(
            ["url": .string, "paymentLinkType": .string], required: ["url", "paymentLinkType"])
    }

    /// The order.
    public var order: OnrampOrder
    /// Absent for a quote and on a read.
    public var paymentLink: PaymentLink?
    /// An embedded-mode order's token for its verified user, for the partner to keep for the user's next
    /// orders.
    public var userAuthToken: String?

    /// Creates an answer.
    public init(order: OnrampOrder, paymentLink: PaymentLink? = nil, userAuthToken: String? = nil) {
        self.order = order
        self.paymentLink = paymentLink
        self.userAuthToken = userAuthToken
    }

    public static let schema = APISchema.object(
        ["order": OnrampOrder.schema, "paymentLink": PaymentLink.schema, "userAuthToken": .string],
        required: ["order"])
}
