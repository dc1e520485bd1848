import COpenSSL

/// An owned OpenSSL `EVP_PKEY`.
///
/// `@unchecked Sendable`: the key is never mutated after creation, and OpenSSL allows concurrent use of one
/// `EVP_PKEY` from several threads when each operation has its own context, which every method here creates.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// Generates a key of OpenSSL algorithm `name` ("EC" with `group`, or "ED25519").
    static func generate(name: String, group: String?) throws -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_keygen_init")
        }
        if let group, EVP_PKEY_CTX_set_group_name(context, group) != 1 {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_CTX_set_group_name")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_generate")
        }
        return EVPKey(taking: key)
    }

    /// Loads a private key from PEM ("PRIVATE KEY", "EC PRIVATE KEY", ...); encrypted keys are refused.
    static func privateKey(pem: String) throws -> EVPKey {
        let bio = try MemoryBIO(reading: Array(pem.utf8))
        guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, refusePEMPassword, nil) else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not a readable unencrypted PEM private key")
        }
        return EVPKey(taking: key)
    }

    /// Loads a private key from DER (PKCS#8 or the type-specific form).
    static func privateKey(der: [UInt8]) throws -> EVPKey {
        try decodeWholeDER(der, what: "private key") { d2i_AutoPrivateKey(nil, $0, $1) }
    }

    /// Loads a public key from PEM ("PUBLIC KEY", SubjectPublicKeyInfo).
    static func publicKey(pem: String) throws -> EVPKey {
        let bio = try MemoryBIO(reading: Array(pem.utf8))
        guard let key = PEM_read_bio_PUBKEY(bio.pointer, nil, refusePEMPassword, nil) else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not a PEM public key")
        }
        return EVPKey(taking: key)
    }

    /// Loads a public key from DER SubjectPublicKeyInfo; trailing bytes are refused.
    static func publicKey(der: [UInt8]) throws -> EVPKey {
        try decodeWholeDER(der, what: "public key") { d2i_PUBKEY(nil, $0, $1) }
    }

    /// Creates a P-256 public key from its uncompressed point (0x04 ‖ X ‖ Y), refusing points that are
    /// not on the curve. It copies a template key and sets the point: about 6 µs, against 21 µs for
    /// `EVP_PKEY_fromdata` (which builds the curve group each time) and more for a DER decode.
    static func p256PublicKey(point: [UInt8]) throws -> EVPKey {
        guard let key = EVP_PKEY_dup(p256Template.pointer) else {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_dup")
        }
        let status = point.withUnsafeBufferPointer { EVP_PKEY_set1_encoded_public_key(key, $0.baseAddress, $0.count) }
        guard status == 1 else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not a P-256 point")
        }
        return EVPKey(taking: key)
    }

    /// The key the P-256 public keys are copied from: the curve's generator point as a public key.
    private static let p256Template: EVPKey = {
        let generator: [UInt8] = [
            0x04, 0x6B, 0x17, 0xD1, 0xF2, 0xE1, 0x2C, 0x42, 0x47, 0xF8, 0xBC, 0xE6, 0xE5, 0x63, 0xA4, 0x40, 0xF2,
            0x77, 0x03, 0x7D, 0x81, 0x2D, 0xEB, 0x33, 0xA0, 0xF4, 0xA1, 0x39, 0x45, 0xD8, 0x98, 0xC2, 0x96, 0x4F,
            0xE3, 0x42, 0xE2, 0xFE, 0x1A, 0x7F, 0x9B, 0x8E, 0xE7, 0xEB, 0x4A, 0x7C, 0x0F, 0x9E, 0x16, 0x2B, 0xCE,
            0x33, 0x57, 0x6B, 0x31, 0x5E, 0xCE, 0xCB, 0xB6, 0x40, 0x68, 0x37, 0xBF, 0x51, 0xF5,
        ]
        guard let key = try? p256PublicKeyFromParameters(point: generator) else {
            preconditionFailure("OpenSSL cannot build a P-256 key from the curve's generator")
        }
        return key
    }()

    /// Builds a P-256 public key with `EVP_PKEY_fromdata` (used once, for the template).
    private static func p256PublicKeyFromParameters(point: [UInt8]) throws -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw CryptoError(code: .internalFailure, message: "EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        // OSSL_PARAM keeps pointers to its key and value: the names are static strings, the buffers
        // live for the whole call.
        var key: OpaquePointer?
        let status = point.withUnsafeBufferPointer { pointBuffer in
            var groupName = Array("prime256v1".utf8CString)
            return groupName.withUnsafeMutableBufferPointer { group in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(Self.cString("group"), group.baseAddress, 0),
                    OSSL_PARAM_construct_octet_string(
                        Self.cString("pub"), UnsafeMutableRawPointer(mutating: pointBuffer.baseAddress),
                        pointBuffer.count),
                    OSSL_PARAM_construct_end(),
                ]
                guard EVP_PKEY_fromdata_init(context) == 1 else { return Int32(0) }
                return EVP_PKEY_fromdata(context, &key, onramp_EVP_PKEY_PUBLIC_KEY, &parameters)
            }
        }
        guard status == 1, let key else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not a P-256 point")
        }
        return EVPKey(taking: key)
    }

    /// A NUL-terminated C string with static storage, for APIs that keep the pointer.
    private static func cString(_ string: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Decodes `der` with an OpenSSL `d2i_…` function, refusing trailing bytes.
    private static func decodeWholeDER(
        _ der: [UInt8], what: String,
        _ decode: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?
    ) throws -> EVPKey {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            let key = decode(&cursor, buffer.count)
            guard let key, cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                if let key { EVP_PKEY_free(key) }
                return nil
            }
            return key
        }
        guard let key else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not a DER \(what)")
        }
        return EVPKey(taking: key)
    }

    /// Creates an Ed25519 key from its raw 32-byte private seed or public key.
    static func ed25519(raw: [UInt8], isPrivate: Bool) throws -> EVPKey {
        guard raw.count == 32 else { throw CryptoError(code: .invalidKey, message: "Ed25519 keys are 32 bytes") }
        let key = raw.withUnsafeBufferPointer { buffer in
            isPrivate
                ? EVP_PKEY_new_raw_private_key(NID_ED25519, nil, buffer.baseAddress, 32)
                : EVP_PKEY_new_raw_public_key(NID_ED25519, nil, buffer.baseAddress, 32)
        }
        guard let key else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "invalid Ed25519 key")
        }
        return EVPKey(taking: key)
    }

    /// The OpenSSL base type (`NID_X9_62_id_ecPublicKey`, `NID_ED25519`, ...).
    var baseID: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// Whether this is an EC key on P-256 (prime256v1).
    var isP256: Bool {
        guard baseID == NID_X9_62_id_ecPublicKey else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// The uncompressed EC point (0x04 ‖ X ‖ Y) of an EC key.
    func encodedECPoint() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 133)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pointer, "encoded-pub-key", &buffer, buffer.count, &length) == 1
        else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "not an EC key")
        }
        return Array(buffer.prefix(length))
    }

    /// The raw public (or private) bytes of a raw-key type such as Ed25519.
    func rawKey(isPrivate: Bool) throws -> [UInt8] {
        var length = 0
        let sizeStatus =
            isPrivate
            ? EVP_PKEY_get_raw_private_key(pointer, nil, &length)
            : EVP_PKEY_get_raw_public_key(pointer, nil, &length)
        guard sizeStatus == 1 else { throw CryptoError(code: .invalidKey, message: "no raw key form") }
        var output = [UInt8](repeating: 0, count: length)
        let status = output.withUnsafeMutableBufferPointer { buffer in
            isPrivate
                ? EVP_PKEY_get_raw_private_key(pointer, buffer.baseAddress, &length)
                : EVP_PKEY_get_raw_public_key(pointer, buffer.baseAddress, &length)
        }
        guard status == 1 else { throw CryptoError(code: .internalFailure, message: "raw key export") }
        return Array(output.prefix(length))
    }

    /// SubjectPublicKeyInfo DER.
    func publicKeyDER() throws -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw CryptoError(code: .internalFailure, message: "i2d_PUBKEY") }
        var output = [UInt8](repeating: 0, count: Int(length))
        output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_PUBKEY(pointer, &cursor)
        }
        return output
    }

    /// "PUBLIC KEY" PEM.
    func publicKeyPEM() throws -> String {
        let bio = try MemoryBIO()
        guard PEM_write_bio_PUBKEY(bio.pointer, pointer) == 1 else {
            throw CryptoError(code: .internalFailure, message: "PEM_write_bio_PUBKEY")
        }
        return bio.readString()
    }

    /// Unencrypted PKCS#8 DER.
    func privateKeyPKCS8DER() throws -> [UInt8] {
        let bio = try MemoryBIO()
        guard i2d_PKCS8PrivateKey_bio(bio.pointer, pointer, nil, nil, 0, nil, nil) == 1 else {
            throw CryptoError(code: .internalFailure, message: "i2d_PKCS8PrivateKey_bio")
        }
        return bio.readAll()
    }

    /// Unencrypted PEM, PKCS#8 ("PRIVATE KEY") or the traditional type-specific form ("EC PRIVATE KEY").
    func privateKeyPEM(traditional: Bool) throws -> String {
        let bio = try MemoryBIO()
        let status =
            traditional
            ? PEM_write_bio_PrivateKey_traditional(bio.pointer, pointer, nil, nil, 0, nil, nil)
            : PEM_write_bio_PKCS8PrivateKey(bio.pointer, pointer, nil, nil, 0, nil, nil)
        guard status == 1 else { throw CryptoError(code: .internalFailure, message: "PEM private key export") }
        return bio.readString()
    }

    /// Signs `message` with `EVP_DigestSign`; `digest` is SHA-256 for ECDSA and `nil` for Ed25519.
    func sign(_ message: [UInt8], digest: OpaquePointer?) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw CryptoError(code: .internalFailure, message: "EVP_MD_CTX_new")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, digest, nil, pointer) == 1 else {
            ERR_clear_error()
            throw CryptoError(code: .invalidKey, message: "EVP_DigestSignInit")
        }
        var length = 0
        let status = message.withUnsafeBufferPointer { input -> Int32 in
            guard EVP_DigestSign(context, nil, &length, input.baseAddress, input.count) == 1 else { return 0 }
            return 1
        }
        guard status == 1 else { throw CryptoError(code: .internalFailure, message: "EVP_DigestSign size") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = message.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard signed == 1 else {
            ERR_clear_error()
            throw CryptoError(code: .internalFailure, message: "EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }

    /// Verifies `signature` over `message` with `EVP_DigestVerify`.
    func verify(signature: [UInt8], message: [UInt8], digest: OpaquePointer?) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, digest, nil, pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let status = signature.withUnsafeBufferPointer { signatureBuffer in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(
                    context, signatureBuffer.baseAddress, signatureBuffer.count, input.baseAddress, input.count)
            }
        }
        if status != 1 { ERR_clear_error() }
        return status == 1
    }
}
