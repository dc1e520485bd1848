import COpenSSL
import Foundation
import OnrampWire

/// A parsed X.509 certificate. Values are read through OpenSSL from the exact DER that was received.
public struct X509Certificate: Sendable, Equatable {
    let handle: X509Handle
    /// The certificate's DER encoding, exactly as parsed.
    public let derRepresentation: [UInt8]

    /// Parses one DER certificate; trailing bytes are refused.
    public init(derRepresentation: [UInt8]) throws {
        let parsed = derRepresentation.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            guard let certificate, cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                if let certificate { X509_free(certificate) }
                return nil
            }
            return certificate
        }
        guard let parsed else {
            ERR_clear_error()
            throw CryptoError(code: .invalidCertificate, message: "not a DER certificate")
        }
        handle = X509Handle(taking: parsed)
        self.derRepresentation = derRepresentation
    }

    init(taking pointer: OpaquePointer) throws {
        let length = i2d_X509(pointer, nil)
        guard length > 0 else {
            X509_free(pointer)
            throw CryptoError(code: .invalidCertificate, message: "i2d_X509")
        }
        var der = [UInt8](repeating: 0, count: Int(length))
        der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(pointer, &cursor)
        }
        handle = X509Handle(taking: pointer)
        derRepresentation = der
    }

    /// Parses the first "CERTIFICATE" block of a PEM text.
    public init(pemRepresentation: String) throws {
        guard let first = try Self.certificates(pemRepresentation: pemRepresentation).first else {
            throw CryptoError(code: .invalidCertificate, message: "no PEM certificate")
        }
        self = first
    }

    /// Parses every "CERTIFICATE" block of a PEM text, in order.
    public static func certificates(pemRepresentation: String) throws -> [X509Certificate] {
        let bio = try MemoryBIO(reading: Array(pemRepresentation.utf8))
        var result: [X509Certificate] = []
        while let certificate = PEM_read_bio_X509(bio.pointer, nil, refusePEMPassword, nil) {
            result.append(try X509Certificate(taking: certificate))
        }
        ERR_clear_error()
        return result
    }

    /// The certificate as "CERTIFICATE" PEM.
    public var pemRepresentation: String {
        let body = Base64.encode(derRepresentation)
        var lines: [String] = ["-----BEGIN CERTIFICATE-----"]
        var index = body.startIndex
        while index < body.endIndex {
            let end = body.index(index, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The subject as "CN=…, OU=…, O=…" in certificate order.
    public var subject: String { Self.describe(X509_get_subject_name(handle.pointer)) }

    /// The issuer as "CN=…, O=…" in certificate order.
    public var issuer: String { Self.describe(X509_get_issuer_name(handle.pointer)) }

    /// Start of the validity period.
    public var notBefore: Date { Self.date(X509_get0_notBefore(handle.pointer)) }

    /// End of the validity period; OpenSSL treats the certificate as expired from this instant on.
    public var notAfter: Date { Self.date(X509_get0_notAfter(handle.pointer)) }

    /// Whether the certificate is a CA certificate (OpenSSL `X509_check_ca`).
    public var isCertificateAuthority: Bool { X509_check_ca(handle.pointer) != 0 }

    /// Every extension in certificate order.
    public var extensions: [X509Extension] {
        let count = X509_get_ext_count(handle.pointer)
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            guard let item = X509_get_ext(handle.pointer, index),
                let object = X509_EXTENSION_get_object(item),
                let data = X509_EXTENSION_get_data(item)
            else { return nil }
            var buffer = [CChar](repeating: 0, count: 128)
            let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
            guard length > 0, Int(length) < buffer.count else { return nil }
            let oid = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let valueLength = Int(ASN1_STRING_length(data))
            let value =
                valueLength > 0
                ? Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: valueLength)) : []
            return X509Extension(oid: oid, critical: X509_EXTENSION_get_critical(item) == 1, value: value)
        }
    }

    /// The DER inside the extension with dotted `oid`, or `nil` when absent.
    public func extensionValue(oid: String) -> [UInt8]? {
        extensions.first { $0.oid == oid }?.value
    }

    /// The subject public key as DER SubjectPublicKeyInfo.
    public var publicKeyDER: [UInt8] {
        get throws { try subjectKey().publicKeyDER() }
    }

    /// The subject public key as an uncompressed X9.63 EC point (0x04 ‖ X ‖ Y); throws for non-EC keys.
    public var publicKeyX963: [UInt8] {
        get throws { try subjectKey().encodedECPoint() }
    }

    /// The subject public key as a P-256 key; throws when it is another type or curve. The key is rebuilt
    /// from its point rather than shared with the certificate, which keeps OpenSSL on its fast P-256 path.
    public var p256PublicKey: P256.PublicKey {
        get throws {
            let key = try subjectKey()
            guard key.isP256 else { throw CryptoError(code: .invalidKey, message: "not a P-256 key") }
            return try P256.PublicKey(x963Representation: key.encodedECPoint())
        }
    }

    func subjectKey() throws -> EVPKey {
        guard let key = X509_get0_pubkey(handle.pointer), EVP_PKEY_up_ref(key) == 1 else {
            ERR_clear_error()
            throw CryptoError(code: .invalidCertificate, message: "unreadable subject public key")
        }
        return EVPKey(taking: key)
    }

    /// Verifies that this certificate chains to one of `trustedRoots` through `intermediates` at `time`
    /// (OpenSSL `X509_verify_cert` with `X509_VERIFY_PARAM_set_time`). No purpose or extended key usage
    /// is required. Throws ``CryptoError/Code/certificateChain`` with OpenSSL's reason on failure.
    public func verifyChain(intermediates: [X509Certificate], trustedRoots: [X509Certificate], at time: Date) throws {
        guard let store = X509_STORE_new() else { throw CryptoError(code: .internalFailure, message: "X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for root in trustedRoots where X509_STORE_add_cert(store, root.handle.pointer) != 1 {
            ERR_clear_error()
        }
        guard let untrusted = OPENSSL_sk_new_null() else {
            throw CryptoError(code: .internalFailure, message: "OPENSSL_sk_new_null")
        }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in intermediates {
            OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.handle.pointer))
        }
        guard let context = X509_STORE_CTX_new() else {
            throw CryptoError(code: .internalFailure, message: "X509_STORE_CTX_new")
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, handle.pointer, untrusted) == 1 else {
            throw CryptoError(code: .internalFailure, message: "X509_STORE_CTX_init")
        }
        X509_VERIFY_PARAM_set_time(
            X509_STORE_CTX_get0_param(context), time_t(time.timeIntervalSince1970.rounded(.down)))
        let status = withExtendedLifetime((intermediates, trustedRoots)) { X509_verify_cert(context) }
        guard status == 1 else {
            let reason = String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
            ERR_clear_error()
            throw CryptoError(code: .certificateChain, message: reason)
        }
    }

    /// Certificates are equal when their DER encodings are equal.
    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }

    private static func describe(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        var parts: [String] = []
        for index in 0..<X509_NAME_entry_count(name) {
            guard let entry = X509_NAME_get_entry(name, index),
                let object = X509_NAME_ENTRY_get_object(entry),
                let data = X509_NAME_ENTRY_get_data(entry)
            else { continue }
            let nid = OBJ_obj2nid(object)
            let key = nid == NID_undef ? "?" : String(cString: OBJ_nid2sn(nid))
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else { continue }
            parts.append(
                "\(key)=" + String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
            CRYPTO_free(utf8, #fileID, #line)
        }
        return parts.joined(separator: ", ")
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var components = tm()
        guard let time, ASN1_TIME_to_tm(time, &components) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&components)))
    }
}
