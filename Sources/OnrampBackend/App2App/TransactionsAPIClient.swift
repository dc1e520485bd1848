import Foundation
import OnrampClient
import OnrampCrypto

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads the transactions API with a CDP API key JWT (a backend concern: the key must not ship in an app).
/// For reconciliation and as a fallback to webhooks.
public struct TransactionsAPIClient: Sendable {
    /// The developer API base: `https://api.developer.coinbase.com`, or a local server's root.
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

    private struct Page: Decodable {
        let transactions: [OnrampTransaction]
    }

    /// The user's transactions, newest first.
    public func transactions(partnerUserRef: String) async throws -> [OnrampTransaction] {
        let path = "/onramp/v1/buy/user/\(FormEncoding.escape(partnerUserRef))/transactions"
        var host = baseURL.host ?? ""
        if let port = baseURL.port { host += ":\(port)" }
        let jwt = try apiKey.jwt(method: "GET", host: host, path: path, at: Date())
        let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + path)!
        let answer = try await transport.request("GET", url, headers: ["Authorization": "Bearer \(jwt)"])
        guard answer.isSuccess else {
            throw App2AppError(.unexpectedResponse, developer: "Transactions API: HTTP \(answer.status).")
        }
        return try answer.decode(Page.self).transactions
    }

    /// Polls until a settled transaction of the user satisfies `matches` (for example wallet, asset and
    /// amount; the redirect's `transactionId` does not join), or throws ``App2AppError/Code/settlementTimeout``.
    public func waitForSettlement(
        partnerUserRef: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(200),
        matching matches: @Sendable (OnrampTransaction) -> Bool = { _ in true }
    ) async throws -> ConfirmedSettlement {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let settled = try await transactions(partnerUserRef: partnerUserRef).first(where: {
                $0.isSettled && matches($0)
            }) {
                return ConfirmedSettlement(
                    partnerUserRef: partnerUserRef, transactionId: settled.transactionId,
                    amount: settled.purchaseAmount?.value,
                    currency: settled.purchaseAmount?.currency ?? settled.purchaseCurrency, txHash: settled.txHash,
                    source: .transactionsAPI)
            }
            try await Task.sleep(for: interval)
        }
        throw App2AppError(.settlementTimeout, developer: "No settled transaction for \(partnerUserRef) in \(timeout).")
    }
}
