import COpenSSL

/// Digest implementations fetched once from OpenSSL's default provider. `EVP_sha256()` makes OpenSSL 3
/// look the implementation up again on every use; a fetched `EVP_MD` is immutable and safe to share.
enum FetchedDigest {
    /// SHA-256.
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
}
