import Foundation
import HTTPServer
import OnrampWire

/// The endpoints the partner's app calls (the "clientBackend" of the Embedded seed), JSON in and out. The
/// example names the user by `userRef` in the body; a real backend takes it from its own session.
///
/// - `POST /auth-intents` `{email}` → `{authIntentId}`
/// - `POST /auth-intents/{id}/tokens` `{userRef}` → `{retrieved: true}` (the tokens stay here)
/// - `POST /link-auth-tokens` `{userRef}` → `{linkAuthTokenClientSecret}` (from the Seamless Sign-In token kept
///   with the user's OAuth tokens)
/// - `POST /onramp-sessions` `{userRef, customerId, paymentToken, sourceAmount, network, walletAddress}` →
///   `{sessionId, status, destinationAmount}`
/// - `POST /onramp-sessions/{id}/checkout` `{userRef}` → `{clientSecret}` (what `clientSecretProvider` calls)
/// - `GET /ledger/{userRef}` → `{credits: [{eventId, amount, currency, txHash}]}`
struct PartnerAppRoutes: Sendable {
    let backend: EmbeddedPartnerBackend
    let ledger: PartnerLedger

    func register(on router: inout Router) {
        let backend = self.backend
        router.add("POST", "/auth-intents") { request in
            let email = try Self.field(request, "email")
            let id = try BlockingBridge.run { try await backend.createAuthIntent(email: email) }
            return .json(["authIntentId": .string(id)])
        }
        router.add("POST", "/auth-intents/{id}/tokens") { request in
            let intent = request.pathParameters["id"] ?? ""
            let user = try Self.field(request, "userRef")
            _ = try BlockingBridge.run { try await backend.retrieveTokens(linkAuthIntentId: intent, userRef: user) }
            return .json(["retrieved": true])
        }
        router.add("POST", "/link-auth-tokens") { request in
            let user = try Self.field(request, "userRef")
            let secret = try BlockingBridge.run { try await backend.createLinkAuthTokenClientSecret(userRef: user) }
            return .json(["linkAuthTokenClientSecret": .string(secret)])
        }
        router.add("POST", "/onramp-sessions") { request in
            let (user, customer, token) = (
                try Self.field(request, "userRef"), try Self.field(request, "customerId"),
                try Self.field(request, "paymentToken")
            )
            let (amount, network, wallet) = (
                try Self.field(request, "sourceAmount"), try Self.field(request, "network"),
                try Self.field(request, "walletAddress")
            )
            let session = try BlockingBridge.run {
                try await backend.createOnrampSession(
                    userRef: user, customerId: customer, paymentToken: token, sourceAmount: amount, network: network,
                    walletAddress: wallet)
            }
            return .json([
                "sessionId": .string(session.id), "status": .string(session.status),
                "destinationAmount": .optional(session.destinationAmount),
            ])
        }
        router.add("POST", "/onramp-sessions/{id}/checkout") { request in
            let id = request.pathParameters["id"] ?? ""
            let user = try Self.field(request, "userRef")
            let secret = try BlockingBridge.run { try await backend.checkout(sessionId: id, userRef: user) }
            return .json(["clientSecret": .string(secret)])
        }
        let ledger = self.ledger
        router.add("GET", "/ledger/{userRef}") { request in
            let credits = ledger.credits(for: request.pathParameters["userRef"] ?? "").map { credit -> JSONValue in
                [
                    "eventId": .string(credit.eventId), "amount": .string(credit.amount),
                    "currency": .string(credit.currency), "txHash": .optional(credit.txHash),
                ]
            }
            return .json(["credits": .array(credits)])
        }
    }

    private static func field(_ request: HTTPRequest, _ name: String) throws -> String {
        guard let value = try request.jsonBody()[name]?.stringValue, !value.isEmpty else {
            throw HTTPError(status: 400, code: "parameter_missing", message: "Missing \(name).")
        }
        return value
    }
}

extension PartnerBackendError: HTTPErrorConvertible {
    /// The onramp server's refusal passed on to the app (4xx kept, anything else 502).
    public var httpError: HTTPError {
        HTTPError(
            status: (400..<500).contains(status) ? status : 502, code: "onramp_request_failed", message: message)
    }
}
