/// The JOSE header fields OnrampKit reads and writes.
public struct JWTHeader: Sendable, Equatable {
    /// `alg`, as received (e.g. "ES256", "EdDSA").
    public var algorithm: String
    /// `kid`, the key id.
    public var keyID: String?
    /// `typ`, usually "JWT".
    public var type: String?
    /// `nonce`, a per-token random value (CDP API keys).
    public var nonce: String?

    /// Creates a header.
    public init(algorithm: String, keyID: String? = nil, type: String? = "JWT", nonce: String? = nil) {
        self.algorithm = algorithm
        self.keyID = keyID
        self.type = type
        self.nonce = nonce
    }

    /// JSON with members sorted by name, as PyJWT writes headers.
    var json: String {
        var members: [(String, String)] = [("alg", JSONText.string(algorithm))]
        if let keyID { members.append(("kid", JSONText.string(keyID))) }
        if let nonce { members.append(("nonce", JSONText.string(nonce))) }
        if let type { members.append(("typ", JSONText.string(type))) }
        return JSONText.object(members)
    }
}
