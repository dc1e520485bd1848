import COpenSSL

extension P256 {
    /// An ECDSA P-256 signature, held as raw r ‖ s (64 bytes, each big-endian and left-padded).
    public struct Signature: Sendable, Equatable {
        /// r ‖ s, 64 bytes (the JWS ES256 form).
        public let rawRepresentation: [UInt8]

        /// Wraps a raw r ‖ s signature (64 bytes).
        public init(rawRepresentation: [UInt8]) throws {
            guard rawRepresentation.count == 64 else {
                throw CryptoError(code: .invalidSignature, message: "raw P-256 signatures are 64 bytes")
            }
            self.rawRepresentation = rawRepresentation
        }

        /// Parses a DER `SEQUENCE { r INTEGER, s INTEGER }`; trailing bytes are refused.
        public init(derRepresentation: [UInt8]) throws {
            let parsed = derRepresentation.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var cursor = buffer.baseAddress
                let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count)
                guard let signature, cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                    if let signature { ECDSA_SIG_free(signature) }
                    return nil
                }
                return signature
            }
            guard let parsed else {
                ERR_clear_error()
                throw CryptoError(code: .invalidSignature, message: "not a DER ECDSA signature")
            }
            defer { ECDSA_SIG_free(parsed) }
            var raw = [UInt8](repeating: 0, count: 64)
            let status = raw.withUnsafeMutableBufferPointer { buffer in
                let rCount = BN_bn2binpad(ECDSA_SIG_get0_r(parsed), buffer.baseAddress, 32)
                let sCount = BN_bn2binpad(ECDSA_SIG_get0_s(parsed), buffer.baseAddress! + 32, 32)
                return rCount == 32 && sCount == 32
            }
            guard status else { throw CryptoError(code: .invalidSignature, message: "r or s longer than 32 bytes") }
            rawRepresentation = raw
        }

        /// The DER `SEQUENCE { r INTEGER, s INTEGER }` form.
        public var derRepresentation: [UInt8] {
            get throws {
                guard let signature = ECDSA_SIG_new() else {
                    throw CryptoError(code: .internalFailure, message: "ECDSA_SIG_new")
                }
                defer { ECDSA_SIG_free(signature) }
                let (r, s) = rawRepresentation.withUnsafeBufferPointer { buffer in
                    (BN_bin2bn(buffer.baseAddress, 32, nil), BN_bin2bn(buffer.baseAddress! + 32, 32, nil))
                }
                guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
                    BN_free(r)
                    BN_free(s)
                    throw CryptoError(code: .internalFailure, message: "ECDSA_SIG_set0")
                }
                let length = i2d_ECDSA_SIG(signature, nil)
                guard length > 0 else { throw CryptoError(code: .internalFailure, message: "i2d_ECDSA_SIG") }
                var output = [UInt8](repeating: 0, count: Int(length))
                output.withUnsafeMutableBufferPointer { buffer in
                    var cursor = buffer.baseAddress
                    _ = i2d_ECDSA_SIG(signature, &cursor)
                }
                return output
            }
        }
    }
}
