import HTTPServer
import OnrampCore
import OnrampServices

/// A CDP request header that carries a caller's identifier (`X-Onramp-Partner-Id`; idempotency keys are read
/// by ``IdempotencyKeyHeader``): 1 to 128 visible characters, as the API reference allows, or 400
/// `invalid_request` naming it.
enum HeaderText {
    /// `value` as sent in the header `name`; nil when it was not sent.
    static func checked(_ value: String?, name: String) throws(FieldError) -> String? {
        guard let value else { return nil }
        guard (1...128).contains(value.utf8.count), FieldText.problem(in: value, maxBytes: 128) == nil else {
            throw FieldError(
                code: "invalid_request", message: "\(name) must be 1 to 128 visible characters.")
        }
        return value
    }
}
