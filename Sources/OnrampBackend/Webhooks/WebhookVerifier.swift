import Foundation
import OnrampClient
import OnrampCrypto
import OnrampWire

/// Verifies webhook deliveries on the partner side, over the raw body bytes as received (never a
/// re-encoding), for both schemes of `contracts/webhooks.md`:
/// - Stripe: `Stripe-Signature: t=…,v1=…` with `v1 = HMAC-SHA256(secret, "<t>.<body>")`;
/// - CDP: `X-Hook0-Signature: t=…,h=…,v1=…` with `v1` over `"<t>.<h>.<header values joined by '.'>.<body>"`.
///
/// A delivery is accepted when any `v1` matches (compared in constant time) and `t` is within
/// ``tolerance`` of now. Deduplicate accepted events on their id: deliveries are at least once.
public struct WebhookVerifier: Sendable {
    /// The endpoint's signing secret (`whsec_…` for Stripe endpoints, the subscription secret for CDP).
    public let secret: String
    /// The largest accepted difference between the signing time and now, in seconds (default 300).
    public let tolerance: TimeInterval

    /// Creates a verifier for one endpoint secret.
    public init(secret: String, tolerance: TimeInterval = 300) {
        self.secret = secret
        self.tolerance = tolerance
    }

    /// Checks a Stripe-scheme delivery and decodes its event envelope with a `data.object` of type `Object`.
    public func verifyStripe<Object: Decodable & Sendable>(
        payload: [UInt8], signatureHeader: String?, as type: Object.Type = OnrampSessionObject.self,
        now: Date = Date()
    ) throws(WebhookVerificationError) -> StripeEvent<Object> {
        guard let signatureHeader else {
            throw WebhookVerificationError(.missingHeader, "The Stripe-Signature header is missing.")
        }
        let header = try WebhookSignatureHeader(signatureHeader)
        try check(header, message: Array("\(header.timestamp).".utf8) + payload, now: now)
        return try Self.decode(StripeEvent<Object>.self, from: payload)
    }

    /// Checks a CDP-scheme delivery. `headers` are the request's header fields (names compared
    /// case-insensitively); those named in `h` must be present.
    public func verifyCDP(payload: [UInt8], headers: [String: String], now: Date = Date())
        throws(WebhookVerificationError) -> CDPTransactionEvent
    {
        var lowered: [String: String] = [:]
        for (name, value) in headers { lowered[name.lowercased()] = value }
        guard let signatureHeader = lowered["x-hook0-signature"] else {
            throw WebhookVerificationError(.missingHeader, "The X-Hook0-Signature header is missing.")
        }
        let header = try WebhookSignatureHeader(signatureHeader)
        guard !header.signedHeaders.isEmpty else {
            throw WebhookVerificationError(.malformedHeader, "The X-Hook0-Signature header has no h list.")
        }
        var values: [String] = []
        for name in header.signedHeaders {
            guard let value = lowered[name] else {
                throw WebhookVerificationError(.missingHeader, "The signed header \(name) is missing.")
            }
            values.append(value)
        }
        let prefix =
            "\(header.timestamp).\(header.signedHeaders.joined(separator: " ")).\(values.joined(separator: "."))."
        try check(header, message: Array(prefix.utf8) + payload, now: now)
        return try Self.decode(CDPTransactionEvent.self, from: payload)
    }

    private func check(_ header: WebhookSignatureHeader, message: [UInt8], now: Date) throws(WebhookVerificationError) {
        let age = now.timeIntervalSince1970 - Double(header.timestamp)
        guard abs(age) <= tolerance else {
            throw WebhookVerificationError(
                .timestampOutsideTolerance, "The signature is \(Int(age)) s old; the tolerance is \(Int(tolerance)) s.")
        }
        let expected = HMACSHA256.authenticationCode(key: Array(secret.utf8), message: message)
        var matched = false
        for candidate in header.v1 where ConstantTime.equals(candidate, expected) { matched = true }
        guard matched else {
            throw WebhookVerificationError(.signatureMismatch, "No v1 signature matches the payload.")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, from payload: [UInt8]) throws(WebhookVerificationError)
        -> T
    {
        do {
            return try JSONDecoder().decode(type, from: Data(payload))
        } catch {
            throw WebhookVerificationError(.invalidPayload, "The payload is not a \(type) event: \(error).")
        }
    }
}
