import COpenSSL
import Foundation

/// Builds and signs X.509 v3 certificates with P-256 keys (ecdsa-with-SHA256); used by test CAs.
public struct X509CertificateBuilder: Sendable {
    /// Serial number, big-endian positive integer bytes.
    public var serialNumber: [UInt8]
    /// Subject attributes in order, e.g. `[("CN", "Test Root"), ("O", "OnrampKit")]`.
    public var subject: [(type: String, value: String)]
    /// Start of validity.
    public var notBefore: Date
    /// End of validity.
    public var notAfter: Date
    /// The key being certified.
    public var publicKey: P256.PublicKey
    /// Extensions in order.
    public var extensions: [X509Extension]

    /// Creates a builder.
    public init(
        serialNumber: [UInt8], subject: [(type: String, value: String)], notBefore: Date, notAfter: Date,
        publicKey: P256.PublicKey, extensions: [X509Extension]
    ) {
        self.serialNumber = serialNumber
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKey = publicKey
        self.extensions = extensions
    }

    /// Signs the certificate with `issuerKey`. `issuer` gives the issuer name; `nil` makes the
    /// certificate self-signed (issuer name = subject).
    public func sign(issuer: X509Certificate?, issuerKey: P256.PrivateKey) throws -> X509Certificate {
        guard let certificate = X509_new() else { throw CryptoError(code: .internalFailure, message: "X509_new") }
        do {
            try populate(certificate, issuer: issuer)
            guard X509_sign(certificate, issuerKey.key.pointer, EVP_sha256()) > 0 else {
                throw CryptoError(code: .invalidCertificate, message: "X509_sign")
            }
        } catch {
            X509_free(certificate)
            ERR_clear_error()
            throw error
        }
        return try X509Certificate(taking: certificate)
    }

    private func populate(_ certificate: OpaquePointer, issuer: X509Certificate?) throws {
        func check(_ ok: Bool, _ step: String) throws {
            if !ok { throw CryptoError(code: .invalidCertificate, message: step) }
        }
        try check(X509_set_version(certificate, 2) == 1, "X509_set_version")
        let serial = serialNumber.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
        defer { BN_free(serial) }
        try check(BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != nil, "serial number")
        try check(
            ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(notBefore.timeIntervalSince1970)) != nil,
            "notBefore")
        try check(
            ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter.timeIntervalSince1970)) != nil, "notAfter")
        let name = X509_get_subject_name(certificate)
        for attribute in subject {
            let added = attribute.value.withCString { value in
                value.withMemoryRebound(to: UInt8.self, capacity: attribute.value.utf8.count) {
                    X509_NAME_add_entry_by_txt(name, attribute.type, MBSTRING_UTF8, $0, -1, -1, 0)
                }
            }
            try check(added == 1, "subject attribute \(attribute.type)")
        }
        let issuerName = issuer.map { X509_get_subject_name($0.handle.pointer) } ?? name
        try check(X509_set_issuer_name(certificate, issuerName) == 1, "issuer name")
        try check(X509_set_pubkey(certificate, publicKey.key.pointer) == 1, "public key")
        for item in extensions {
            try add(item, to: certificate)
        }
    }

    private func add(_ item: X509Extension, to certificate: OpaquePointer) throws {
        guard let object = OBJ_txt2obj(item.oid, 1) else {
            throw CryptoError(code: .invalidCertificate, message: "bad OID \(item.oid)")
        }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else {
            throw CryptoError(code: .internalFailure, message: "ASN1_OCTET_STRING_new")
        }
        defer { ASN1_OCTET_STRING_free(octets) }
        let set = item.value.withUnsafeBufferPointer {
            ASN1_OCTET_STRING_set(octets, $0.baseAddress, Int32($0.count))
        }
        guard set == 1, let created = X509_EXTENSION_create_by_OBJ(nil, object, item.critical ? 1 : 0, octets) else {
            throw CryptoError(code: .invalidCertificate, message: "extension \(item.oid)")
        }
        defer { X509_EXTENSION_free(created) }
        guard X509_add_ext(certificate, created, -1) == 1 else {
            throw CryptoError(code: .invalidCertificate, message: "X509_add_ext \(item.oid)")
        }
    }
}
