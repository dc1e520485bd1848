import OnrampCrypto
import OnrampRuntime
import OnrampWire

/// Parsed App Attest public keys by their stored base64 form: building an OpenSSL key from its
/// X9.63 bytes costs more than the signature check, and the same device key signs every purchase.
/// Bounded; emptied when full.
package final class PublicKeyCache: Sendable {
    private let keys = Locked([String: P256.PublicKey]())
    private let capacity: Int

    package init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The key for `base64` (standard base64 of the X9.63 point), or `nil` when it is not a P-256 point.
    package func key(base64: String) -> P256.PublicKey? {
        if let cached = keys.withLock({ $0[base64] }) { return cached }
        guard let bytes = Base64.decode(base64), let key = try? P256.PublicKey(x963Representation: bytes) else {
            return nil
        }
        // A full cache is swapped for an empty one and released after the lock: freeing thousands of
        // OpenSSL keys must not stall the other threads.
        _ = keys.withLock { keys -> [String: P256.PublicKey] in
            let full = keys.count >= capacity ? keys : [:]
            if !full.isEmpty { keys = [:] }
            keys[base64] = key
            return full
        }
        return key
    }
}
