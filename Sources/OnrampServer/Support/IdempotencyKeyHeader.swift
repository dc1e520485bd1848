import HTTPServer
import OnrampCore
import OnrampServices

/// The one reading of a caller's idempotency key, with each family's header names, bounds and refusal; the
/// key becomes an ``IdempotencyClaim`` with the fingerprint of its request (``IdempotencySecrets``).
struct IdempotencyKeyHeader: Sendable {
    /// The headers the key may come in, the first sent one read.
    let names: [String]
    /// The longest key, in bytes.
    let maxBytes: Int
    /// Whether the key must be visible characters (no controls, no spaces at its ends).
    let visibleOnly: Bool
    /// The family's refusal of a key out of bounds.
    let refusal: FieldError

    /// Stripe's `Idempotency-Key`: 1 to 255 bytes (`idempotency_key_invalid`).
    static let stripe = IdempotencyKeyHeader(
        names: ["Idempotency-Key"], maxBytes: 255, visibleOnly: false,
        refusal: .stripe(
            "idempotency_key_invalid", "Idempotency-Key must be 1 to 255 bytes.", param: "Idempotency-Key"))

    /// An App2App purchase challenge's key: `Idempotency-Key` (the demo's) or CDP's `X-Idempotency-Key`; 1 to
    /// 255 bytes.
    static let app2App = IdempotencyKeyHeader(
        names: ["Idempotency-Key", "X-Idempotency-Key"], maxBytes: 255, visibleOnly: false,
        refusal: FieldError(code: "invalid_request", message: "Idempotency-Key must be 1 to 255 bytes."))

    /// The Headless API's `X-Idempotency-Key` (or `Idempotency-Key`): 1 to 128 visible characters, as its
    /// reference allows.
    static let headless = IdempotencyKeyHeader(
        names: ["X-Idempotency-Key", "Idempotency-Key"], maxBytes: 128, visibleOnly: true,
        refusal: FieldError(code: "invalid_request", message: "X-Idempotency-Key must be 1 to 128 visible characters."))

    /// The key `request` sent; nil when it sent none.
    func key(in request: HTTPRequest) throws(FieldError) -> String? {
        guard let key = names.lazy.compactMap({ request.headers[$0] }).first else { return nil }
        guard (1...maxBytes).contains(key.utf8.count) else { throw refusal }
        guard !visibleOnly || FieldText.problem(in: key, maxBytes: maxBytes) == nil else { throw refusal }
        return key
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
