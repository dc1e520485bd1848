import HTTPServer
import OnrampCrypto
import OnrampServices
import OnrampWire

/// Stripe `Idempotency-Key` handling for POST requests, stored per project: the same key with the
/// same method, path and body replays the stored response (with `Idempotent-Replayed: true`); the same
/// key with another request is a 400 `idempotency_error`. The key is reserved before the handler runs,
/// so a concurrent duplicate gets a 409 instead of running twice. Server errors (5xx), refused
/// credentials (401, 403) and conflicts worth retrying (409, 429) release the key rather than being
/// replayed. The request hash covers the credentials too, so a replay needs the same key and OAuth token
/// as the original. Keys are deleted after 24 hours (``Janitor``).
///
/// Nothing readable is kept: responses (some carry secrets: consumer session secrets, OAuth tokens) are
/// sealed with AES-256-GCM and bound to their project and key, and the request hash (over bodies that may
/// hold a card number) is an HMAC, both under keys derived from ``ServerContext/dataKey``. Rows name the
/// data key they were written under; a retry after the data key changed (a restart without
/// `ONRAMP_DATA_KEY`) is told its response cannot be replayed, and runs nothing.
struct IdempotencyKeys: Sendable {
    let context: ServerContext
    private var storedPrefix: String { context.idempotencySecrets.storedPrefix }
    private var responseKey: [UInt8] { context.idempotencySecrets.responseKey }

    /// Runs `handler` under the request's idempotency key, if it has one.
    func run(_ request: HTTPRequest, caller: StripeCaller, _ handler: () throws -> HTTPResponse) throws
        -> HTTPResponse
    {
        guard request.method == "POST", let key = try IdempotencyKeyHeader.stripe.key(in: request) else {
            return try handler()
        }
        // The request and the credentials it came with: a replay needs the same key and OAuth token.
        let purpose = """
            \(request.method) \(request.path)
            \(request.headers["Authorization"] ?? "")
            \(request.headers["Stripe-OAuth-Token"] ?? "")
            """
        let requestHash = storedPrefix + context.idempotencySecrets.fingerprint(of: purpose, body: request.body)
        let projectId = caller.projectId
        let reserved = try context.database.transaction { connection in
            try IdempotencyRecordRepository(connection: connection).reserve(
                projectId: projectId, key: key, requestHash: requestHash, now: context.nowMilliseconds)
        }
        guard reserved else { return try replay(projectId: caller.projectId, key: key, requestHash: requestHash) }
        let response: HTTPResponse
        do {
            response = try handler()
        } catch {
            // A refusal is answered, and replayed, as the Stripe edge renders it; anything else is not kept.
            let renderer = StripeErrorRenderer(publicBaseURL: context.publicBaseURL)
            guard let refusal = renderer.resolve(error), refusal.status < 500 else {
                try release(projectId: projectId, key: key)
                throw error
            }
            RequestNotes.current?.noteRefusal(refusal)
            response = renderer.render(refusal, requestId: request.requestId)
        }
        // Nothing to replay from a refusal or a conflict the client should retry (429 lock_timeout, 409).
        guard response.status < 500, ![401, 403, 409, 429].contains(response.status) else {
            try release(projectId: projectId, key: key)
            return response
        }
        let sealed = try AESGCM.seal(
            response.body, key: responseKey,
            associatedData: Self.associatedData(projectId: caller.projectId, key: key))
        try context.database.transaction { connection in
            try IdempotencyRecordRepository(connection: connection).complete(
                projectId: projectId, key: key, status: response.status,
                sealedBody: storedPrefix + Base64.encode(sealed))
        }
        return response
    }

    /// What a sealed response is bound to: its project and idempotency key.
    private static func associatedData(projectId: String, key: String) -> [UInt8] {
        Array("\(projectId)\n\(key)".utf8)
    }

    /// The stored response, opened; `nil` when it was written under another data key (or is damaged).
    private func openedBody(_ stored: String, projectId: String, key: String) -> [UInt8]? {
        guard stored.hasPrefix(storedPrefix), let sealed = Base64.decode(String(stored.dropFirst(storedPrefix.count)))
        else { return nil }
        return try? AESGCM.open(
            sealed, key: responseKey,
            associatedData: Self.associatedData(projectId: projectId, key: key))
    }

    private func replay(projectId: String, key: String, requestHash: String) throws -> HTTPResponse {
        guard
            let stored = try context.database.read({ connection in
                try IdempotencyRecordRepository(connection: connection).find(projectId: projectId, key: key)
            })
        else {
            throw StripeErrors.invalid(
                "idempotency_key_in_use", "A request with this Idempotency-Key just failed; retry.", status: 409)
        }
        guard stored.requestHash.hasPrefix(storedPrefix) else { throw StripeErrors.idempotencyReplayUnreadable }
        guard stored.requestHash == requestHash else {
            throw StripeErrors.idempotencyKeyReused
        }
        let status = stored.status
        guard status != 0 else {
            throw StripeErrors.invalid(
                "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed.", status: 409)
        }
        guard let body = openedBody(stored.sealedBody, projectId: projectId, key: key) else {
            throw StripeErrors.idempotencyReplayUnreadable
        }
        var response = HTTPResponse(status: status, body: body)
        response.headers.set("Content-Type", "application/json")
        response.headers.set("Idempotent-Replayed", "true")
        return response
    }

    private func release(projectId: String, key: String) throws {
        try context.database.transaction { connection in
            try IdempotencyRecordRepository(connection: connection).release(projectId: projectId, key: key)
        }
    }
}
