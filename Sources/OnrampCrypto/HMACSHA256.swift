import COpenSSL

/// HMAC-SHA256 over OpenSSL's EVP MAC API.
public enum HMACSHA256 {
    /// Returns HMAC-SHA256(`key`, `message`) (32 bytes).
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        var length = 0
        // OpenSSL rejects a null key pointer even with length 0, so an empty key points at a dummy byte.
        let keyBytes = key.isEmpty ? [0] : key
        let result = keyBytes.withUnsafeBytes { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                mac.withUnsafeMutableBufferPointer { output in
                    EVP_Q_mac(
                        nil, "HMAC", nil, "SHA256", nil, keyBuffer.baseAddress, key.count,
                        messageBuffer.baseAddress, messageBuffer.count, output.baseAddress, 32, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "EVP_Q_mac(HMAC-SHA256) failed")
        return mac
    }

    /// Returns HMAC-SHA256 with the UTF-8 bytes of `key` and `message`.
    public static func authenticationCode(key: String, message: String) -> [UInt8] {
        authenticationCode(key: Array(key.utf8), message: Array(message.utf8))
    }
}
