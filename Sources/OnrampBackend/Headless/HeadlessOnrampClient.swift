import Foundation
import OnrampClient
import OnrampCrypto
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The partner backend's client of Coinbase's Headless Onramp (guest checkout with Apple Pay or Google
/// Pay): OTP verification of the user's phone or email, the guest's limits, orders and their payment
/// links. Every call is signed with a CDP API key JWT, so it belongs on the backend, never in an app.
/// The wire shapes are cdp-sdk's (`OnrampApi`, `CreateOnrampOrderRequest`, `OnrampOrder`).
public struct HeadlessOnrampClient: Sendable {
    /// The API base including `/platform` (`https://api.cdp.coinbase.com/platform`, or a local server's).
    public let baseURL: URL
    /// The CDP API key that signs each request.
    public let apiKey: CDPAPIKey
    private let transport: any HTTPTransport

    /// Creates a client.
    public init(baseURL: URL, apiKey: CDPAPIKey, transport: any HTTPTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.transport = transport
    }

    /// Sends an OTP to the user (`channel` `sms` or `email`).
    public func startVerification(channel: String, destination: String) async throws -> HeadlessVerification {
        try await post("/v2/onramp/verifications", ["channel": channel, "destination": destination])
    }

    /// Submits the code the user typed; the answer's id is what an order cites for 60 days.
    public func submitVerification(id: String, code: String) async throws -> HeadlessVerification {
        try await post("/v2/onramp/verifications/\(FormEncoding.escape(id))/submit", ["otpCode": code])
    }

    /// The guest's limits and what is left of them.
    public func limits(phoneNumber: String, paymentMethod: String = "GUEST_CHECKOUT_APPLE_PAY") async throws
        -> [GuestLimit]
    {
        struct Answer: Decodable { let limits: [GuestLimit] }
        let answer: Answer = try await post(
            "/v2/onramp/limits",
            ["paymentMethodType": paymentMethod, "userId": phoneNumber, "userIdType": "phone_number"])
        return answer.limits
    }

    /// Creates an order (or, with `isQuote`, prices one): the user then pays on `paymentLink.url`.
    public func createOrder(_ request: GuestCheckoutOrderRequest) async throws -> CreatedGuestCheckoutOrder {
        try await post("/v2/onramp/orders", request)
    }

    /// The order `id` as it stands.
    public func order(id: String) async throws -> GuestCheckoutOrder {
        struct Answer: Decodable { let order: GuestCheckoutOrder }
        let path = "/v2/onramp/orders/\(FormEncoding.escape(id))"
        let answer = try await transport.request("GET", url(path), headers: try authorization("GET", path))
        return try Self.decode(Answer.self, answer).order
    }

    private func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body) async throws -> Answer {
        let answer = try await transport.json("POST", url(path), body, headers: try authorization("POST", path))
        return try Self.decode(Answer.self, answer)
    }

    private func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString.trimmingSuffix("/") + path)!
    }

    /// `uris` names the full path (`/platform/v2/…`) on the host with its port, as the cdp-sdk signs it.
    private func authorization(_ method: String, _ path: String) throws -> [String: String] {
        var host = baseURL.host ?? ""
        if let port = baseURL.port { host += ":\(port)" }
        let fullPath = baseURL.path.trimmingSuffix("/") + path
        return ["Authorization": "Bearer \(try apiKey.jwt(method: method, host: host, path: fullPath, at: Date()))"]
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPAnswer) throws -> T {
        guard answer.isSuccess else {
            let error = try? answer.decode(CDPErrorBody.self)
            throw HeadlessOnrampError(
                status: answer.status, errorType: error?.errorType ?? "unexpected_response",
                message: error?.errorMessage ?? "HTTP \(answer.status)")
        }
        return try answer.decode(type)
    }
}

/// A refusal from the Headless Onramp API, with its `errorType` (`guest_transaction_limit`,
/// `guest_region_forbidden`, `otp_verification_code_invalid`, …).
public struct HeadlessOnrampError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// The API's `errorType`.
    public let errorType: String
    /// The API's `errorMessage`.
    public let message: String

    public var description: String { "\(status) \(errorType): \(message)" }
}

/// An OTP verification (`OnrampVerificationInitiation` / `OnrampVerificationConfirmation`).
public struct HeadlessVerification: Decodable, Sendable, Equatable {
    /// `onramp_verification_<uuid>`.
    public let verificationId: String
    /// Until when the code may be submitted (after starting).
    public let otpExpiresAt: String?
    /// Until when the verification counts (after submitting).
    public let verificationExpiresAt: String?
}

/// One of the guest's limits (`OnrampUserLimit`).
public struct GuestLimit: Decodable, Sendable, Equatable {
    /// `weekly_spending` or `lifetime_transactions`.
    public let limitType: String
    /// The currency of a spending limit.
    public let currency: String?
    /// The limit, as decimal text.
    public let limit: String
    /// What is left, as decimal text.
    public let remaining: String
}

/// The body of an order (cdp-sdk `CreateOnrampOrderRequest`), headless mode: the user's verified phone
/// and email and their acceptance of the terms are required.
public struct GuestCheckoutOrderRequest: Encodable, Sendable, Equatable {
    /// The asset (`USDC`).
    public var purchaseCurrency: String
    /// The network (`base`).
    public var destinationNetwork: String
    /// The wallet the crypto goes to.
    public var destinationAddress: String
    /// The fiat to pay, fees included (or give `purchaseAmount`).
    public var paymentAmount: String?
    /// The crypto to buy, fees excluded.
    public var purchaseAmount: String?
    /// The fiat currency (`USD`).
    public var paymentCurrency: String
    /// `GUEST_CHECKOUT_APPLE_PAY` or `GUEST_CHECKOUT_GOOGLE_PAY`.
    public var paymentMethod: String
    /// The partner's reference for the user.
    public var partnerUserRef: String
    /// The user's OTP-verified phone (E.164).
    public var phoneNumber: String
    /// The user's verified email.
    public var email: String
    /// When the app verified the phone (RFC 3339), if it did.
    public var phoneNumberVerifiedAt: String?
    /// A verification from ``HeadlessOnrampClient/submitVerification(id:code:)`` instead.
    public var smsVerificationId: String?
    /// When the user accepted the terms (RFC 3339).
    public var agreementAcceptedAt: String
    /// Price only: nothing is created.
    public var isQuote: Bool

    /// Creates an order body; amounts are decimal strings, times RFC 3339.
    public init(
        purchaseCurrency: String, destinationNetwork: String, destinationAddress: String, paymentAmount: String,
        paymentCurrency: String = "USD", paymentMethod: String = "GUEST_CHECKOUT_APPLE_PAY", partnerUserRef: String,
        phoneNumber: String, email: String, phoneNumberVerifiedAt: String? = nil, smsVerificationId: String? = nil,
        agreementAcceptedAt: String, isQuote: Bool = false
    ) {
        self.purchaseCurrency = purchaseCurrency
        self.destinationNetwork = destinationNetwork
        self.destinationAddress = destinationAddress
        self.paymentAmount = paymentAmount
        self.paymentCurrency = paymentCurrency
        self.paymentMethod = paymentMethod
        self.partnerUserRef = partnerUserRef
        self.phoneNumber = phoneNumber
        self.email = email
        self.phoneNumberVerifiedAt = phoneNumberVerifiedAt
        self.smsVerificationId = smsVerificationId
        self.agreementAcceptedAt = agreementAcceptedAt
        self.isQuote = isQuote
    }
}

/// An order (cdp-sdk `OnrampOrder`): every field the SDK requires.
public struct GuestCheckoutOrder: Decodable, Sendable, Equatable {
    /// One fee (`OnrampOrderFee`).
    public struct Fee: Decodable, Sendable, Equatable {
        /// `FEE_TYPE_EXCHANGE` or `FEE_TYPE_NETWORK`.
        public let type: String
        /// The amount, as decimal text.
        public let amount: String
        /// Its currency.
        public let currency: String
    }

    /// The order id (a UUID).
    public let orderId: String
    /// The fiat paid, fees included.
    public let paymentTotal: String
    /// The fiat converted to crypto.
    public let paymentSubtotal: String
    /// The fiat currency (`USD`).
    public let paymentCurrency: String
    /// `GUEST_CHECKOUT_APPLE_PAY` or `GUEST_CHECKOUT_GOOGLE_PAY`.
    public let paymentMethod: String
    /// The crypto to buy, fees excluded.
    public let purchaseAmount: String
    /// The asset (`USDC`).
    public let purchaseCurrency: String
    /// The exchange and network fees.
    public let fees: [Fee]
    /// The crypto value of one unit of fiat.
    public let exchangeRate: String
    /// The wallet the crypto goes to.
    public let destinationAddress: String
    /// The network (`base`).
    public let destinationNetwork: String
    /// `ONRAMP_ORDER_STATUS_…`.
    public let status: String
    /// When it was created (RFC 3339).
    public let createdAt: String
    /// When it last changed (RFC 3339).
    public let updatedAt: String
    /// The on-chain hash, once sent.
    public let txHash: String?
    /// The partner's reference for the user.
    public let partnerUserRef: String?

    /// Whether the crypto was delivered.
    public var isCompleted: Bool { status == "ONRAMP_ORDER_STATUS_COMPLETED" }
}

/// A created order and where the user pays it (`CreateOnrampOrder201Response`).
public struct CreatedGuestCheckoutOrder: Decodable, Sendable, Equatable {
    /// The payment-button page (`paymentLinkType` `PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON` or `…GOOGLE_PAY_BUTTON`).
    public struct PaymentLink: Decodable, Sendable, Equatable {
        /// The page to open (in a WebView or iframe).
        public let url: String
        /// Which wallet's button it shows.
        public let paymentLinkType: String
    }

    /// The order.
    public let order: GuestCheckoutOrder
    /// Absent for a quote.
    public let paymentLink: PaymentLink?
}
