import OnrampCrypto
import OnrampWire

/// The keys idempotency records are kept with, derived once from the data key: what is stored names the data
/// key it was made with, request hashes are keyed, and stored responses sealed.
package struct IdempotencySecrets: Sendable {
    /// The stored forms' version and the data key's id: the prefix of every hash and body written.
    package let storedPrefix: String
    /// The key of the request hashes.
    package let requestHashKey: [UInt8]
    /// The key stored responses are sealed with.
    package let responseKey: [UInt8]

    /// The secrets of `dataKey`.
    package init(dataKey: [UInt8]) {
        func derivedKey(_ purpose: String) -> [UInt8] {
            HMACSHA256.authenticationCode(key: dataKey, message: Array(purpose.utf8))
        }
        storedPrefix = "v1:" + Hex.encode(Array(derivedKey("onramp.data-key-id").prefix(4))) + ":"
        requestHashKey = derivedKey("onramp.idempotency.request-hash")
        responseKey = derivedKey("onramp.idempotency.response")
    }

    /// The fingerprint of a request sent under an idempotency key: the hex HMAC of `purpose` (what the
    /// request is for, and what else a retry must repeat), a line break and the `body`.
    package func fingerprint(of purpose: String, body: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticationCode(key: requestHashKey, message: Array("\(purpose)\n".utf8) + body))
    }
}
