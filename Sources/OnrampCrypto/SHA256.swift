import COpenSSL

/// SHA-256 over OpenSSL's EVP digest API.
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Returns the SHA-256 digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, FetchedDigest.sha256, nil)
            }
        }
        precondition(status == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return digest
    }

    /// Returns the SHA-256 digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(Array(text.utf8))
    }
}
