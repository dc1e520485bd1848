import COpenSSL

/// AES-256-GCM over OpenSSL's EVP cipher API, for data kept at rest. ``seal(_:key:associatedData:)``
/// picks a random 12-byte nonce and returns nonce ‖ ciphertext ‖ 16-byte tag; ``open(_:key:associatedData:)``
/// checks the tag before returning anything.
public enum AESGCM {
    /// The key length: 32 bytes (AES-256).
    public static let keyByteCount = 32
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, and authenticates `associatedData` (not included in
    /// the output; ``open(_:key:associatedData:)`` needs the same bytes).
    ///
    /// - Throws: ``CryptoError/Code/invalidKey`` when `key` is not 32 bytes.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        let nonce = SecureRandom.bytes(nonceByteCount)
        let (ciphertext, tag) = try crypt(
            encrypting: true, plaintext, key: key, nonce: nonce, associatedData: associatedData, tag: nil)
        return nonce + ciphertext + tag
    }

    /// Checks and decrypts the output of ``seal(_:key:associatedData:)``.
    ///
    /// - Throws: ``CryptoError/Code/invalidSignature`` when the bytes, the key or the associated data
    ///   differ from those sealed; ``CryptoError/Code/invalidKey`` when `key` is not 32 bytes.
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        guard sealed.count >= nonceByteCount + tagByteCount else {
            throw CryptoError(code: .invalidSignature, message: "sealed data too short")
        }
        let nonce = Array(sealed.prefix(nonceByteCount))
        let ciphertext = Array(sealed.dropFirst(nonceByteCount).dropLast(tagByteCount))
        let tag = Array(sealed.suffix(tagByteCount))
        return try crypt(
            encrypting: false, ciphertext, key: key, nonce: nonce, associatedData: associatedData, tag: tag
        ).output
    }

    /// One pass of GCM: encrypts (returning the tag) or decrypts and checks `tag`.
    private static func crypt(
        encrypting: Bool, _ input: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8], tag: [UInt8]?
    ) throws(CryptoError) -> (output: [UInt8], tag: [UInt8]) {
        guard key.count == keyByteCount else {
            throw CryptoError(code: .invalidKey, message: "AES-256-GCM needs a 32-byte key")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError(code: .internalFailure) }
        defer { EVP_CIPHER_CTX_free(context) }
        let encrypt = encrypting ? Int32(1) : 0
        guard EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce, encrypt) == 1 else {
            throw CryptoError(code: .internalFailure, message: "EVP_CipherInit_ex failed")
        }
        var length: Int32 = 0
        if !associatedData.isEmpty {
            guard EVP_CipherUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                throw CryptoError(code: .internalFailure, message: "EVP_CipherUpdate (AAD) failed")
            }
        }
        var output = [UInt8](repeating: 0, count: input.count + tagByteCount)
        var written = 0
        if !input.isEmpty {
            guard EVP_CipherUpdate(context, &output, &length, input, Int32(input.count)) == 1 else {
                throw CryptoError(code: .internalFailure, message: "EVP_CipherUpdate failed")
            }
            written = Int(length)
        }
        var tagBytes = tag ?? [UInt8](repeating: 0, count: tagByteCount)
        if !encrypting {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagByteCount), &tagBytes) == 1 else {
                throw CryptoError(code: .internalFailure, message: "setting the GCM tag failed")
            }
        }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherFinal_ex(context, buffer.baseAddress! + written, &length)
        }
        guard finished == 1 else {
            throw CryptoError(code: .invalidSignature, message: "the GCM tag does not match")
        }
        written += Int(length)
        if encrypting {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagByteCount), &tagBytes) == 1 else {
                throw CryptoError(code: .internalFailure, message: "reading the GCM tag failed")
            }
        }
        return (Array(output.prefix(written)), tagBytes)
    }
}
