import Foundation
import OnrampCrypto
import OnrampWire
import Testing

/// Tokens produced outside this code base (PyJWT and the official cdp-sdk generator) by
/// `scripts/make-jwt-vectors.py`, checked by our verifier.
@Suite struct JWTTests {
    struct Fixture: Decodable {
        struct Key: Decodable {
            let key_id: String
            let secret: String
            let public_key_pem: String?
            let public_key_b64: String?
        }
        struct Request: Decodable {
            let method: String
            let host: String
            let path: String
            let uri: String
        }
        struct Token: Decodable, Sendable, CustomStringConvertible {
            let name: String
            let alg: String
            let verify_at: Int
            let expected: String
            let token: String
            var description: String { name }
        }
        let leeway_seconds: Double
        let request: Request
        let keys: [String: Key]
        let tokens: [Token]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jwt-vectors.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    static func verificationKey(_ alg: String) throws -> JWTVerificationKey {
        let key = fixture.keys[alg]!
        if let pem = key.public_key_pem { return .p256(try P256.PublicKey(pemRepresentation: pem)) }
        return .ed25519(try Ed25519.PublicKey(rawRepresentation: Base64.decode(key.public_key_b64!)!))
    }

    static func verifier(_ alg: String) throws -> JWTVerifier {
        let expectedURI = fixture.request.uri
        let keyID = fixture.keys[alg]!.key_id
        return JWTVerifier(
            key: try verificationKey(alg), issuer: "cdp", audience: .requiredOrAbsent(["cdp_service"]),
            leeway: fixture.leeway_seconds,
            predicates: [
                .init(name: "uris") { $0.claims.uris == [expectedURI] },
                .init(name: "sub") { $0.claims.subject == keyID && $0.header.keyID == keyID },
            ])
    }

    @Test func fixtureHasBothAlgorithmsAndTheOfficialGenerator() {
        #expect(Set(Self.fixture.tokens.map(\.alg)) == ["ES256", "EdDSA"])
        #expect(Self.fixture.tokens.contains { $0.name.contains("cdp-sdk") })
    }

    @Test(arguments: fixture.tokens) func externalToken(token: Fixture.Token) throws {
        let at = Date(timeIntervalSince1970: TimeInterval(token.verify_at))
        do {
            let verified = try Self.verifier(token.alg).verify(token.token, at: at)
            #expect(token.expected == "valid")
            #expect(verified.header.algorithm == token.alg)
            #expect(verified.header.type == "JWT")
            #expect(verified.header.nonce?.isEmpty == false)
            #expect(verified.claims.issuer == "cdp")
            #expect(!verified.payload.isEmpty)
        } catch let error as CryptoError {
            #expect(error.code.rawValue == token.expected)
        }
    }

    @Test(arguments: fixture.tokens.filter { $0.expected == "valid" }) func tamperedTokenFails(token: Fixture.Token)
        throws
    {
        let at = Date(timeIntervalSince1970: TimeInterval(token.verify_at))
        var parts = token.token.split(separator: ".").map(String.init)
        var signature = Base64URL.decode(parts[2])!
        signature[5] ^= 1
        parts[2] = Base64URL.encode(signature)
        let error = #expect(throws: CryptoError.self) {
            try Self.verifier(token.alg).verify(parts.joined(separator: "."), at: at)
        }
        #expect(error?.code == .invalidSignature)
        let other: JWTVerificationKey =
            token.alg == "ES256" ? .ed25519(try Ed25519.PrivateKey().publicKey) : .p256(try P256.PrivateKey().publicKey)
        let mismatch = #expect(throws: CryptoError.self) { try JWTVerifier(key: other).verify(token.token, at: at) }
        #expect(mismatch?.code == .unsupportedAlgorithm)
    }

    @Test(arguments: ["ES256", "EdDSA"]) func cdpKeyFromTheSameSecretSignsVerifiableTokens(alg: String) throws {
        let fixture = Self.fixture
        let key = try CDPAPIKey(id: fixture.keys[alg]!.key_id, secret: fixture.keys[alg]!.secret)
        #expect(key.signingKey.algorithm.rawValue == alg)
        #expect(key.signingKey.verificationKey == (try Self.verificationKey(alg)))
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let token = try key.jwt(
            method: "post", host: fixture.request.host, path: fixture.request.path + "?x=1", at: now)
        let verified = try Self.verifier(alg).verify(token, at: now.addingTimeInterval(119))
        #expect(verified.claims.audience == ["cdp_service"])
        #expect(verified.claims.expiresAt == now.addingTimeInterval(120))
        #expect(verified.header.nonce?.count == 16)
        #expect(verified.header.nonce?.allSatisfy(\.isNumber) == true)
        let expired = #expect(throws: CryptoError.self) {
            try Self.verifier(alg).verify(token, at: now.addingTimeInterval(151))
        }
        #expect(expired?.code == .tokenExpired)
        #expect(!String(describing: key).contains("BEGIN"))
    }

    @Test func cdpSecretWithEscapedNewlines() throws {
        let secret = Self.fixture.keys["ES256"]!.secret.replacingOccurrences(of: "\n", with: "\\n")
        #expect(try CDPAPIKey(id: "k", secret: secret).signingKey.algorithm == .es256)
        #expect(throws: CryptoError.self) { try CDPAPIKey(id: "k", secret: "bm90IGEga2V5") }
    }

    @Test func audiencePolicies() throws {
        let key = try P256.PrivateKey()
        let now = Date(timeIntervalSince1970: 1_000_000)
        func token(_ audience: [String]?) throws -> String {
            try JWT.sign(
                header: JWTHeader(algorithm: "ES256"), claims: JWTClaims(audience: audience, expiresAt: now + 60),
                key: .p256(key))
        }
        let strict = JWTVerifier(key: .p256(key.publicKey), audience: .required(["a"]))
        let lenient = JWTVerifier(key: .p256(key.publicKey), audience: .requiredOrAbsent(["a"]))
        #expect(try strict.verify(token(["b", "a"]), at: now).claims.audience == ["b", "a"])
        #expect(throws: CryptoError.self) { try strict.verify(token(nil), at: now) }
        #expect(try lenient.verify(token(nil), at: now).claims.audience == nil)
        #expect(throws: CryptoError.self) { try lenient.verify(token(["b"]), at: now) }
        let noExp = try JWT.sign(header: JWTHeader(algorithm: "ES256"), claims: JWTClaims(), key: .p256(key))
        let missing = #expect(throws: CryptoError.self) { try strict.verify(noExp, at: now) }
        #expect(missing?.code == .missingClaim)
    }

    @Test func timesOutOfRangeOrInTheFutureAreRefused() throws {
        let key = try P256.PrivateKey()
        let now = Date(timeIntervalSince1970: 1_000_000)
        let verifier = JWTVerifier(key: .p256(key.publicKey))
        func token(issuedAt: Double? = nil, expiresAt: Double) throws -> String {
            try JWT.sign(
                header: JWTHeader(algorithm: "ES256"),
                claims: JWTClaims(
                    expiresAt: Date(timeIntervalSince1970: expiresAt),
                    issuedAt: issuedAt.map(Date.init(timeIntervalSince1970:))),
                key: .p256(key))
        }
        for expiresAt in [1e300, -1, JWTClaims.latestNumericDate + 1] {
            let refused = #expect(throws: CryptoError.self) {
                try verifier.verify(token(expiresAt: expiresAt), at: now)
            }
            #expect(refused?.code == .malformedToken)
        }
        let future = #expect(throws: CryptoError.self) {
            try verifier.verify(token(issuedAt: 1_000_600, expiresAt: 1_000_700), at: now)
        }
        #expect(future?.code == .tokenNotYetValid)
        #expect(try verifier.verify(token(issuedAt: 1_000_000, expiresAt: 1_000_060), at: now).claims.issuedAt != nil)
    }

    @Test func malformedTokens() throws {
        let verifier = JWTVerifier(key: .p256(try P256.PrivateKey().publicKey))
        for token in ["", "a.b", "a.b.c.d", "e30.e30.", "eyJhbGciOiJub25lIn0.e30.", "!!.e30.AA"] {
            #expect(throws: CryptoError.self) { try verifier.verify(token, at: Date(timeIntervalSince1970: 0)) }
        }
    }
}
