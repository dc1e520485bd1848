import OnrampCrypto
import OnrampWire

/// A software App Attest key: a P-256 key plus its assertion counter. `Codable` so that an SDK can persist it
/// (`{"privateKey": "<PKCS#8 PEM>", "counter": n}`); treat the encoding as a secret.
public struct SoftwareAttestKey: Sendable, Codable, CustomStringConvertible {
    /// The private key.
    public let privateKey: P256.PrivateKey
    /// The last signCount used; the next assertion uses `counter + 1`.
    public var counter: UInt32

    /// Generates a new key with counter 0.
    public init() throws {
        self.init(privateKey: try P256.PrivateKey(), counter: 0)
    }

    /// Wraps an existing key.
    public init(privateKey: P256.PrivateKey, counter: UInt32) {
        self.privateKey = privateKey
        self.counter = counter
    }

    /// The key id: standard base64 of SHA256(uncompressed public key), as `DCAppAttestService` reports it.
    public var keyId: String { Base64.encode(keyIdBytes) }

    /// SHA256 of the uncompressed public key.
    public var keyIdBytes: [UInt8] { SHA256.hash(privateKey.publicKey.x963Representation) }

    private enum CodingKeys: String, CodingKey {
        case privateKey, counter
    }

    /// Decodes `{"privateKey": PEM, "counter": n}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        privateKey = try P256.PrivateKey(pemRepresentation: container.decode(String.self, forKey: .privateKey))
        counter = try container.decode(UInt32.self, forKey: .counter)
    }

    /// Encodes `{"privateKey": PEM, "counter": n}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(try privateKey.pemRepresentation, forKey: .privateKey)
        try container.encode(counter, forKey: .counter)
    }

    /// `SoftwareAttestKey(keyId, counter n)`; never the private key.
    public var description: String { "SoftwareAttestKey(\(keyId), counter \(counter))" }
}
