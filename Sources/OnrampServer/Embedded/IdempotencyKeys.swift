import HTTPServer
import OnrampCrypto
import OnrampStore

/// Stripe `Idempotency-Key` handling for POST requests, stored per project: the same key with the
/// same method, path and body replays the stored response (with `Idempotent-Replayed: true`); the same
/// key with another request is a 400 `idempotency_error`. The key is reserved before the handler runs,
/// so a concurrent duplicate gets a 409 instead of running twice. Server errors (5xx) and refused
/// credentials (401, 403) release the key rather than being replayed. The request hash covers the
/// credentials too, so a replay needs the same key and OAuth token as the original. Keys are deleted
/// after 24 hours (``Janitor``).
struct IdempotencyKeys: Sendable {
    let context: ServerContext

    /// Runs `handler` under the request's idempotency key, if it has one.
    func run(_ request: HTTPRequest, caller: StripeCaller, _ handler: () throws -> HTTPResponse) throws
        -> HTTPResponse
    {
        guard request.method == "POST", let key = request.headers["Idempotency-Key"] else { return try handler() }
        guard !key.isEmpty, key.count <= 255 else {
            throw StripeErrors.invalid(
                "idempotency_key_invalid", "Idempotency-Key must be 1 to 255 characters.", param: "Idempotency-Key")
        }
        let credentials = "\(request.headers["Authorization"] ?? "")\n\(request.headers["Stripe-OAuth-Token"] ?? "")\n"
        let requestHash = Hex.encode(
            SHA256.hash(Array("\(request.method) \(request.path)\n\(credentials)".utf8) + request.body))
        let keyParameters: [SQLValue] = [.text(caller.projectId), .text(key)]
        let reserved = try context.database.transaction { connection in
            try connection.execute(
                """
                INSERT INTO stripe_idempotency_keys (project_id, idempotency_key, request_hash, status, body, created_at)
                VALUES (?, ?, ?, 0, '', ?) ON CONFLICT DO NOTHING
                """, keyParameters + [.text(requestHash), .integer(context.nowMilliseconds)]) == 1
        }
        guard reserved else { return try replay(keyParameters, requestHash: requestHash) }
        let response: HTTPResponse
        do {
            response = try handler()
        } catch let error as HTTPError where error.status < 500 {
            response = StripeErrorRenderer().render(error, requestId: request.requestId)
        } catch {
            try release(keyParameters)
            throw error
        }
        guard response.status < 500, response.status != 401, response.status != 403 else {
            try release(keyParameters)
            return response
        }
        try context.database.transaction { connection in
            try connection.execute(
                "UPDATE stripe_idempotency_keys SET status = ?, body = ? WHERE project_id = ? AND idempotency_key = ?",
                [.integer(Int64(response.status)), .text(String(decoding: response.body, as: UTF8.self))]
                    + keyParameters)
        }
        return response
    }

    private func replay(_ keyParameters: [SQLValue], requestHash: String) throws -> HTTPResponse {
        guard
            let stored = try context.database.read({ connection in
                try connection.query(
                    """
                    SELECT request_hash, status, body FROM stripe_idempotency_keys
                    WHERE project_id = ? AND idempotency_key = ?
                    """, keyParameters
                ).first
            })
        else {
            throw StripeErrors.invalid(
                "idempotency_key_in_use", "A request with this Idempotency-Key just failed; retry.", status: 409)
        }
        guard try stored.string("request_hash") == requestHash else {
            throw HTTPError(
                status: 400, code: "idempotency_error",
                message:
                    "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                type: "idempotency_error")
        }
        let status = Int(try stored.int("status"))
        guard status != 0 else {
            throw StripeErrors.invalid(
                "idempotency_key_in_use", "A request with this Idempotency-Key is still being processed.", status: 409)
        }
        var response = HTTPResponse(status: status, body: Array(try stored.string("body").utf8))
        response.headers.set("Content-Type", "application/json")
        response.headers.set("Idempotent-Replayed", "true")
        return response
    }

    private func release(_ keyParameters: [SQLValue]) throws {
        try context.database.transaction { connection in
            try connection.execute(
                "DELETE FROM stripe_idempotency_keys WHERE project_id = ? AND idempotency_key = ? AND status = 0",
                keyParameters)
        }
    }
}
