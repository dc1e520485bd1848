import COpenSSL

/// HMAC-SHA256 over OpenSSL's EVP MAC API.
public enum HMACSHA256 {
    /// A keyed HMAC-SHA256 context each MAC copies and re-keys (``authenticationCode(key:message:)``):
    /// `EVP_Q_mac` fetched the algorithm and its digest by name on every call, which took about a
    /// third of signing a webhook. Only read (copied), never used itself, so threads may share it.
    private static let template = Template()

    private final class Template: @unchecked Sendable {
        let pointer: OpaquePointer?
        init() { pointer = onramp_hmac_sha256_template() }
    }

    /// Returns HMAC-SHA256(`key`, `message`) (32 bytes).
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        // OpenSSL rejects a null key pointer even with length 0, so an empty key points at a dummy byte.
        let keyBytes = key.isEmpty ? [0] : key
        let context = template.pointer.flatMap { EVP_MAC_CTX_dup($0) }
        precondition(context != nil, "no HMAC-SHA256 context")
        defer { EVP_MAC_CTX_free(context) }
        let succeeded = keyBytes.withUnsafeBytes { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                mac.withUnsafeMutableBufferPointer { output in
                    EVP_MAC_init(context, keyBuffer.baseAddress, key.count, nil) == 1
                        && EVP_MAC_update(context, messageBuffer.baseAddress, messageBuffer.count) == 1
                        && EVP_MAC_final(context, output.baseAddress, &length, 32) == 1
                }
            }
        }
        precondition(succeeded && length == 32, "HMAC-SHA256 failed")
        return mac
    }

    /// Returns HMAC-SHA256 with the UTF-8 bytes of `key` and `message`.
    public static func authenticationCode(key: String, message: String) -> [UInt8] {
        authenticationCode(key: Array(key.utf8), message: Array(message.utf8))
    }
}
