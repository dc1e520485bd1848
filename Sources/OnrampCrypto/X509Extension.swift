/// One X.509 v3 extension: its OID, criticality and the raw DER inside its `extnValue` OCTET STRING.
public struct X509Extension: Sendable, Equatable {
    /// Dotted OID, e.g. "2.5.29.19".
    public var oid: String
    /// The critical flag.
    public var critical: Bool
    /// The DER encoding carried in `extnValue` (without the OCTET STRING wrapper).
    public var value: [UInt8]

    /// Creates an extension.
    public init(oid: String, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }

    /// Critical `basicConstraints`: `cA` and, for a CA, an optional path length constraint (0...127).
    public static func basicConstraints(isCA: Bool, pathLength: Int? = nil) -> X509Extension {
        var content: [UInt8] = []
        if isCA {
            content += [0x01, 0x01, 0xFF]
            if let pathLength { content += [0x02, 0x01, UInt8(clamping: pathLength)] }
        }
        return X509Extension(oid: "2.5.29.19", critical: true, value: [0x30, UInt8(content.count)] + content)
    }

    /// Critical `keyUsage` with keyCertSign and cRLSign, for CA certificates.
    public static let keyUsageCertificateSigning = X509Extension(
        oid: "2.5.29.15", critical: true, value: [0x03, 0x02, 0x01, 0x06])

    /// Critical `keyUsage` with digitalSignature, for signing leaves.
    public static let keyUsageDigitalSignature = X509Extension(
        oid: "2.5.29.15", critical: true, value: [0x03, 0x02, 0x07, 0x80])
}
