import Foundation
import OnrampWire

/// Verifies JWS compact JWTs: signature with the key's single algorithm, then `exp`/`nbf`/`iat` with leeway,
/// issuer, audience and custom predicates, in that order. Time is always passed in.
public struct JWTVerifier: Sendable {
    /// How `aud` is checked.
    public enum AudiencePolicy: Sendable {
        /// `aud` is not checked.
        case ignore
        /// `aud` must contain one of these values.
        case required(Set<String>)
        /// `aud` must contain one of these values, or be `null`/absent (the cdp-sdk default sends `null`).
        case requiredOrAbsent(Set<String>)
    }

    /// A named check over a token that already passed signature and time checks.
    public struct Predicate: Sendable {
        /// Name reported in the error when the check fails.
        public let name: String
        /// Returns whether the token is acceptable.
        public let check: @Sendable (VerifiedJWT) -> Bool

        /// Creates a predicate.
        public init(name: String, check: @escaping @Sendable (VerifiedJWT) -> Bool) {
            self.name = name
            self.check = check
        }
    }

    private let keyForHeader: @Sendable (JWTHeader) -> JWTVerificationKey?
    /// Accepted `iss`, or `nil` to skip.
    public var issuer: String?
    /// The audience policy.
    public var audience: AudiencePolicy
    /// Allowed clock skew for `exp`, `nbf` and `iat` (which may not be in the future), in seconds.
    public var leeway: TimeInterval
    /// Whether a token without `exp` is refused.
    public var requiresExpiration: Bool
    /// Custom checks, run in order after the standard ones.
    public var predicates: [Predicate]

    /// Creates a verifier for one key.
    public init(
        key: JWTVerificationKey, issuer: String? = nil, audience: AudiencePolicy = .ignore, leeway: TimeInterval = 30,
        requiresExpiration: Bool = true, predicates: [Predicate] = []
    ) {
        self.init(
            keyForHeader: { _ in key }, issuer: issuer, audience: audience, leeway: leeway,
            requiresExpiration: requiresExpiration, predicates: predicates)
    }

    /// Creates a verifier that picks the key from the header (usually by `kid`); `nil` means unknown key.
    public init(
        keyForHeader: @escaping @Sendable (JWTHeader) -> JWTVerificationKey?, issuer: String? = nil,
        audience: AudiencePolicy = .ignore, leeway: TimeInterval = 30, requiresExpiration: Bool = true,
        predicates: [Predicate] = []
    ) {
        self.keyForHeader = keyForHeader
        self.issuer = issuer
        self.audience = audience
        self.leeway = leeway
        self.requiresExpiration = requiresExpiration
        self.predicates = predicates
    }

    /// Verifies `token` at `time` and returns its header and claims, or throws a ``CryptoError``.
    public func verify(_ token: String, at time: Date) throws -> VerifiedJWT {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decodeUnpadded(String(parts[0])),
            let payload = Base64URL.decodeUnpadded(String(parts[1])),
            let signature = Base64URL.decodeUnpadded(String(parts[2]))
        else { throw CryptoError(code: .malformedToken, message: "not three base64url parts") }
        let header = try Self.header(from: headerBytes)
        guard let key = keyForHeader(header) else {
            throw CryptoError(code: .keyNotFound, message: "no key for this token")
        }
        guard header.algorithm == key.algorithm.rawValue else {
            throw CryptoError(code: .unsupportedAlgorithm, message: "alg \(header.algorithm) not accepted for this key")
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValidSignature(signature, for: signingInput) else {
            throw CryptoError(code: .invalidSignature, message: "JWT signature does not verify")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
            throw CryptoError(code: .malformedToken, message: "payload is not a JSON object")
        }
        let verified = VerifiedJWT(header: header, claims: try JWTClaims(json: object), payload: payload)
        try checkClaims(verified, at: time)
        return verified
    }

    private func checkClaims(_ token: VerifiedJWT, at time: Date) throws {
        let claims = token.claims
        if let expiresAt = claims.expiresAt {
            guard time.timeIntervalSince(expiresAt) <= leeway else {
                throw CryptoError(code: .tokenExpired, message: "token expired")
            }
        } else if requiresExpiration {
            throw CryptoError(code: .missingClaim, message: "exp is required")
        }
        if let notBefore = claims.notBefore, notBefore.timeIntervalSince(time) > leeway {
            throw CryptoError(code: .tokenNotYetValid, message: "token not yet valid")
        }
        if let issuedAt = claims.issuedAt, issuedAt.timeIntervalSince(time) > leeway {
            throw CryptoError(code: .tokenNotYetValid, message: "token issued in the future")
        }
        if let issuer, claims.issuer != issuer {
            throw CryptoError(code: .issuerMismatch, message: "unexpected iss")
        }
        switch audience {
        case .ignore:
            break
        case .required(let accepted):
            guard let values = claims.audience, values.contains(where: accepted.contains) else {
                throw CryptoError(code: .audienceMismatch, message: "aud does not match")
            }
        case .requiredOrAbsent(let accepted):
            if let values = claims.audience, !values.contains(where: accepted.contains) {
                throw CryptoError(code: .audienceMismatch, message: "aud does not match")
            }
        }
        for predicate in predicates where !predicate.check(token) {
            throw CryptoError(code: .claimRejected, message: "claim check '\(predicate.name)' failed")
        }
    }

    private static func header(from bytes: [UInt8]) throws -> JWTHeader {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let algorithm = object["alg"] as? String
        else { throw CryptoError(code: .malformedToken, message: "header is not a JSON object with alg") }
        func optional(_ name: String) throws -> String? {
            guard let value = object[name], !(value is NSNull) else { return nil }
            guard let text = value as? String else {
                throw CryptoError(code: .malformedToken, message: "header \(name) has the wrong type")
            }
            return text
        }
        if object["crit"] != nil {
            throw CryptoError(code: .malformedToken, message: "crit header parameters are not supported")
        }
        return JWTHeader(
            algorithm: algorithm, keyID: try optional("kid"), type: try optional("typ"), nonce: try optional("nonce"))
    }
}
