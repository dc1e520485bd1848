import Foundation
import OnrampClient
import OnrampCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The App2App half of the partner backend: subscribes to `onramp.transaction.*` webhooks with the CDP API
/// key and reads the transactions API. The app itself never holds the API key.
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
