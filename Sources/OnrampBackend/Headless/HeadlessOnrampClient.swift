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
    public func startVerification(channel: String, destination: String) async throws -> OnrampVerification {
        try await post("/v2/onramp/verifications", ["channel": channel, "destination": destination])
    }

    /// Submits the code the user typed; the answer's id is what an order cites for 60 days.
    public func submitVerification(id: String, code: String) async throws -> OnrampVerification {
        try await post("/v2/onramp/verifications/\(FormEncoding.escape(id))/submit", ["otpCode": code])
    }

    /// The guest's limits and what is left of them.
    public func limits(phoneNumber: String, paymentMethod: String = "GUEST_CHECKOUT_APPLE_PAY") async throws
        -> [OnrampUserLimits.Limit]
    {
        let answer: OnrampUserLimits = try await post(
            "/v2/onramp/limits",
            ["paymentMethodType": paymentMethod, "userId": phoneNumber, "userIdType": "phone_number"])
        return answer.limits
    }

    /// Creates an order (or, with `isQuote`, prices one): the user then pays on `paymentLink.url`.
    public func createOrder(_ request: GuestCheckoutOrderRequest) async throws -> OnrampOrderAnswer {
        try await post("/v2/onramp/orders", request)
    }

    /// The order `id` as it stands.
    public func order(id: String) async throws -> OnrampOrder {
        let path = "/v2/onramp/orders/\(FormEncoding.escape(id))"
        let answer = try await transport.request("GET", url(path), headers: try authorization("GET", path))
        return try Self.decode(OnrampOrderAnswer.self, answer).order
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
