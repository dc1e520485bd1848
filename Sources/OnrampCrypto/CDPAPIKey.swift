import Foundation
import OnrampWire

/// A Coinbase Developer Platform API key (id + secret) that signs request JWTs exactly as the official
/// `cdp-sdk` generator does: header `{alg, kid, typ: "JWT", nonce}`, claims `sub` = key id, `iss` "cdp",
/// `aud`, `nbf`, `exp` = `nbf` + 120, `uris` `["METHOD host/path"]`.
public struct CDPAPIKey: Sendable, CustomStringConvertible {
    /// The key id (`kid` and `sub`).
    public let id: String
    /// The signing key.
    public let signingKey: JWTSigningKey

    /// Parses a secret: an EC P-256 PEM ("EC PRIVATE KEY" or PKCS#8) for ES256, or base64 of 64 bytes
    /// (Ed25519 seed ‖ public key) for EdDSA. Literal `\n` sequences are read as newlines, as the SDK does.
    public init(id: String, secret: String) throws {
        self.id = id
        let text = secret.replacingOccurrences(of: "\\n", with: "\n")
        if text.contains("-----BEGIN") {
            signingKey = .p256(try P256.PrivateKey(pemRepresentation: text))
            return
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Base64.decode(trimmed), bytes.count == 64 else {
            throw CryptoError(code: .invalidKey, message: "CDP secret is neither EC PEM nor base64 of 64 bytes")
        }
        let key = try Ed25519.PrivateKey(seed: Array(bytes[0..<32]))
        guard key.publicKey.rawRepresentation == Array(bytes[32..<64]) else {
            throw CryptoError(code: .invalidKey, message: "Ed25519 public half does not match the seed")
        }
        signingKey = .ed25519(key)
    }

    /// Creates a key from an id and a signing key.
    public init(id: String, signingKey: JWTSigningKey) {
        self.id = id
        self.signingKey = signingKey
    }

    /// The `uris` entry for a request: "METHOD host/path" (method upper-cased, no scheme, no query).
    public static func uri(method: String, host: String, path: String) -> String {
        let bare =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return "\(method.uppercased()) \(host)\(bare)"
    }

    /// A 16-decimal-digit nonce, the form the official generator sends (uniform digits: bytes of 250 and
    /// above are discarded).
    public static func makeNonce() -> String {
        var digits = ""
        while digits.count < 16 {
            for byte in SecureRandom.bytes(16) where byte < 250 && digits.count < 16 {
                digits.append(Character(String(byte % 10)))
            }
        }
        return digits
    }

    /// Signs a request JWT valid from `time` for `expiresIn` seconds.
    public func jwt(
        method: String, host: String, path: String, at time: Date, expiresIn: TimeInterval = 120,
        audience: [String]? = ["cdp_service"], nonce: String = CDPAPIKey.makeNonce()
    ) throws -> String {
        let notBefore = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        let header = JWTHeader(algorithm: signingKey.algorithm.rawValue, keyID: id, type: "JWT", nonce: nonce)
        let claims = JWTClaims(
            subject: id, issuer: "cdp", audience: audience, notBefore: notBefore,
            expiresAt: notBefore.addingTimeInterval(expiresIn.rounded(.down)),
            uris: [Self.uri(method: method, host: host, path: path)])
        return try JWT.sign(header: header, claims: claims, key: signingKey)
    }

    /// `CDPAPIKey(id, <redacted>)`.
    public var description: String { "CDPAPIKey(\(id), <redacted>)" }
}
