import Foundation
import OnrampBackend
import OnrampClient
import OnrampCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The App2App half of the partner backend: subscribes to `onramp.transaction.*` webhooks with the CDP API
/// key, reads the transactions API and creates hosted onramp sessions for devices without App2App. The app
/// itself never holds the API key.
public struct App2AppPartnerBackend: Sendable {
    /// The onramp server root (hosting both `/platform/...` and `/onramp/v1/...`).
    public let serverURL: URL
    /// The project's CDP API key.
    public let apiKey: CDPAPIKey
    private let transport: any HTTPTransport

    /// Creates the backend.
    public init(serverURL: URL, apiKey: CDPAPIKey, transport: any HTTPTransport = URLSessionTransport()) {
        self.serverURL = serverURL
        self.apiKey = apiKey
        self.transport = transport
    }

    private struct Subscription: Encodable {
        struct Target: Encodable {
            let url: String
        }
        let description: String
        let eventTypes: [String]
        let target: Target
        let isEnabled: Bool
    }

    private struct CreatedSubscription: Decodable {
        let subscriptionId: String
        let secret: String
    }

    /// Subscribes `url` to the transaction events; returns the subscription id and its signing secret.
    public func subscribeWebhooks(url: String) async throws -> (subscriptionId: String, secret: String) {
        let path = "/platform/v2/data/webhooks/subscriptions"
        let body = Subscription(
            description: "Partner backend", eventTypes: Self.eventTypes, target: .init(url: url), isEnabled: true)
        let answer = try await transport.json(
            "POST", serverURL.appendingPathComponent(path), body,
            headers: ["Authorization": "Bearer \(try jwt("POST", path))"])
        guard answer.isSuccess else {
            throw PartnerBackendError(status: answer.status, message: "subscription: \(answer.text)")
        }
        let created = try answer.decode(CreatedSubscription.self)
        return (created.subscriptionId, created.secret)
    }

    private struct HostedSession: Decodable {
        struct Session: Decodable { let onrampUrl: String }
        let session: Session
    }

    /// Creates a hosted onramp session for `purchase` (`POST /platform/v2/onramp/sessions`) and returns its
    /// single-use URL, valid for 5 minutes: the fallback for devices that cannot take App2App.
    public func hostedOnrampURL(for purchase: App2AppPurchase) async throws -> URL {
        let path = "/platform/v2/onramp/sessions"
        let answer = try await transport.json(
            "POST", serverURL.appendingPathComponent(path), purchase,
            headers: ["Authorization": "Bearer \(try jwt("POST", path))"])
        guard answer.isSuccess else {
            throw PartnerBackendError(status: answer.status, message: "hosted onramp session: \(answer.text)")
        }
        guard let url = URL(string: try answer.decode(HostedSession.self).session.onrampUrl) else {
            throw PartnerBackendError(status: answer.status, message: "hosted onramp session: no onrampUrl")
        }
        return url
    }

    /// The events a partner needs to confirm settlement.
    public static let eventTypes = [
        "onramp.transaction.created", "onramp.transaction.updated", "onramp.transaction.success",
        "onramp.transaction.failed",
    ]

    /// A transactions-API client signing with the same key (reconciliation, or when webhooks are late).
    public var transactions: TransactionsAPIClient {
        TransactionsAPIClient(baseURL: serverURL, apiKey: apiKey, transport: transport)
    }

    private func jwt(_ method: String, _ path: String) throws -> String {
        var host = serverURL.host ?? ""
        if let port = serverURL.port { host += ":\(port)" }
        return try apiKey.jwt(method: method, host: host, path: path, at: Date())
    }
}

/// The backend as the client's hosted fallback. In an app, the fallback calls your backend, which calls
/// ``App2AppPartnerBackend/hostedOnrampURL(for:)``; in process (tests, `onramp demo`) it can be used directly.
extension App2AppPartnerBackend: HostedOnrampFallback {}
