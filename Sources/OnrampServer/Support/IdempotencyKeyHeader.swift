import HTTPServer
import OnrampServices

/// The one reading of a caller's idempotency key, with each family's header names, bounds and refusal; the
/// key becomes an ``IdempotencyClaim`` with the fingerprint of its request (``IdempotencySecrets``).
struct IdempotencyKeyHeader: Sendable {
    /// The headers the key may come in, the first sent one read.
    let names: [String]
    /// The key as sent if it is within the family's bounds (nil when none was sent), else its refusal.
    let checked: @Sendable (String?) throws(FieldError) -> String?

    /// Stripe's `Idempotency-Key`: 1 to 255 bytes (`idempotency_key_invalid`).
    static let stripe = IdempotencyKeyHeader(
        names: ["Idempotency-Key"],
        checked: oneTo(
            255,
            bytesOr: .stripe(
                "idempotency_key_invalid", "Idempotency-Key must be 1 to 255 bytes.", param: "Idempotency-Key")))

    /// An App2App purchase challenge's key: `Idempotency-Key` (the demo's) or CDP's `X-Idempotency-Key`; 1 to
    /// 255 bytes.
    static let app2App = IdempotencyKeyHeader(
        names: ["Idempotency-Key", "X-Idempotency-Key"],
        checked: oneTo(
            255, bytesOr: FieldError(code: "invalid_request", message: "Idempotency-Key must be 1 to 255 bytes.")))

    /// The Headless API's `X-Idempotency-Key` (or `Idempotency-Key`): a CDP identifier header (``HeaderText``, 1
    /// to 128 visible characters, as its reference allows).
    static let headless = IdempotencyKeyHeader(names: ["X-Idempotency-Key", "Idempotency-Key"]) {
        key throws(FieldError) in try HeaderText.checked(key, name: "X-Idempotency-Key")
    }

    /// A check of 1 to `maxBytes` bytes, refusing with `refusal`.
    private static func oneTo(_ maxBytes: Int, bytesOr refusal: FieldError)
        -> @Sendable (String?) throws(FieldError) -> String?
    {
        { key throws(FieldError) in
            guard let key else { return nil }
            guard (1...maxBytes).contains(key.utf8.count) else { throw refusal }
            return key
        }
    }

    /// The key `request` sent; nil when it sent none.
    func key(in request: HTTPRequest) throws(FieldError) -> String? {
        try checked(names.lazy.compactMap { request.headers[$0] }.first)
    }

    /// The claim of the key `request` sent, for `purpose` (what else a retry must repeat) and its body; nil
    /// when it sent none.
    func claim(in request: HTTPRequest, purpose: String, secrets: IdempotencySecrets) throws(FieldError)
        -> IdempotencyClaim?
    {
        guard let key = try key(in: request) else { return nil }
        return IdempotencyClaim(key: key, fingerprint: secrets.fingerprint(of: purpose, body: request.body))
    }
}
