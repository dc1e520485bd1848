import HTTPServer
import OnrampCrypto
import OnrampStore

/// Stripe `Idempotency-Key` handling for POST requests, stored per project: the same key with the
/// same method, path and body replays the stored response (with `Idempotent-Replayed: true`); the same
/// key with another request is a 400 `idempotency_error`. Server errors (5xx) are not stored.
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
        let requestHash = Hex.encode(SHA256.hash(Array("\(request.method) \(request.path)\n".utf8) + request.body))
        let stored = try context.database.read { connection in
            try connection.query(
                "SELECT request_hash, status, body FROM stripe_idempotency_keys WHERE project_id = ? AND idempotency_key = ?",
                [.text(caller.projectId), .text(key)]
            ).first
        }
        if let stored {
            guard try stored.string("request_hash") == requestHash else {
                throw HTTPError(
                    status: 400, code: "idempotency_error",
                    message:
                        "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                    type: "idempotency_error")
            }
            var response = HTTPResponse(
                status: Int(try stored.int("status")), body: Array(try stored.string("body").utf8))
            response.headers.set("Content-Type", "application/json")
            response.headers.set("Idempotent-Replayed", "true")
            return response
        }
        let response: HTTPResponse
        do {
            response = try handler()
        } catch let error as HTTPError {
            response = StripeErrorRenderer().render(error, requestId: request.requestId)
        }
        guard response.status < 500 else { return response }
        try context.database.transaction { connection in
            _ = try connection.execute(
                """
                INSERT INTO stripe_idempotency_keys (project_id, idempotency_key, request_hash, status, body, created_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
                [
                    .text(caller.projectId), .text(key), .text(requestHash), .integer(Int64(response.status)),
                    .text(String(decoding: response.body, as: UTF8.self)), .integer(context.nowMilliseconds),
                ])
        }
        return response
    }
}
