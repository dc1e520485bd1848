import OnrampCrypto
import OnrampWire

/// Signs a delivery with its family's scheme (see `contracts/webhooks.md`) and returns the headers
/// to send with the exact body bytes.
public enum WebhookSigner {
    /// The header names covered by the CDP `v1` signature, in order.
    public static let cdpSignedHeaders = ["content-type", "x-event-id", "x-event-type"]

    /// The headers of one delivery: `Content-Type`, the signature header, and for CDP `X-Event-Id`
    /// and `X-Event-Type`.
    public static func headers(
        family: WebhookFamily, secret: String, eventId: String, eventType: String, body: [UInt8], timestamp: Int64
    ) -> [(String, String)] {
        let contentType = "application/json"
        switch family {
        case .stripe:
            return [
                ("Content-Type", contentType),
                (
                    "Stripe-Signature",
                    "t=\(timestamp),v1=\(stripeSignature(secret: secret, timestamp: timestamp, body: body))"
                ),
            ]
        case .cdp:
            let signed = cdpSignedHeaders.joined(separator: " ")
            let values = [contentType, eventId, eventType].joined(separator: ".")
            let v1 = hmac(secret, Array("\(timestamp).\(signed).\(values).".utf8) + body)
            let v0 = hmac(secret, Array("\(timestamp).".utf8) + body)
            return [
                ("Content-Type", contentType),
                ("X-Event-Id", eventId),
                ("X-Event-Type", eventType),
                ("X-Hook0-Signature", "t=\(timestamp),h=\(signed),v1=\(v1),v0=\(v0)"),
            ]
        }
    }

    /// `hex(HMAC-SHA256(secret, "<t>.<body>"))`, the Stripe `v1` value.
    public static func stripeSignature(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        hmac(secret, Array("\(timestamp).".utf8) + body)
    }

    private static func hmac(_ secret: String, _ message: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: Array(secret.utf8), message: message))
    }
}
