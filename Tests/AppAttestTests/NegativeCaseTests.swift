import AppAttest
import Foundation
import OnrampCrypto
import Testing

/// The contract's negative list, one test each, on real vectors where the change does not touch
/// nonce-protected fields and on software-attester objects where it does.
@Suite struct NegativeCaseTests {
    static let attestation = TestVector.loadIfPresent("basd-dev-attestation.json")
    static let assertion = TestVector.loadIfPresent("basd-dev-assertion.json")

    func verifyAttestation(
        _ object: [UInt8]? = nil, appId: String? = nil, keyId: String? = nil, clientDataHash: [UInt8]? = nil,
        environments: Set<AppAttestEnvironment> = [.development], roots: [X509Certificate]? = nil
    ) -> AppAttestError.Code? {
        let vector = Self.attestation
        let verifier = AttestationVerifier(
            appId: appId ?? vector.appId, allowedEnvironments: environments,
            trustedRoots: roots ?? [AppleAppAttestRoot.certificate])
        do {
            _ = try verifier.verify(
                attestationObject: object ?? vector.attestation, keyId: keyId ?? vector.keyId,
                clientDataHash: clientDataHash ?? vector.clientDataHash, at: vector.verifyAt)
            return nil
        } catch {
            return error.code
        }
    }

    func verifyAssertion(
        _ object: [UInt8]? = nil, publicKey: [UInt8]? = nil, previousCounter: UInt32 = 0, appId: String? = nil
    ) throws -> AppAttestError.Code? {
        let vector = Self.assertion
        let key = try P256.PublicKey(x963Representation: publicKey ?? vector.publicKeyX963)
        do {
            _ = try AssertionVerifier(appId: appId ?? vector.appId).verify(
                assertionObject: object ?? vector.assertion, publicKey: key, previousCounter: previousCounter,
                clientDataHash: vector.clientDataHash)
            return nil
        } catch {
            return error.code
        }
    }

    /// The attestation object with its top-level map rewritten by `change`.
    func rewritten(_ change: (inout [CBORMapEntry]) -> Void) throws -> [UInt8] {
        guard case .map(var entries) = try CBORReader.decode(Self.attestation.attestation) else { return [] }
        change(&entries)
        return CBORWriter.encode(.map(entries))
    }

    func rewrittenChain(_ change: ([CBORValue]) -> [CBORValue]) throws -> [UInt8] {
        try rewritten { entries in
            guard let index = entries.firstIndex(where: { $0.key == .text("attStmt") }),
                case .map(var statement) = entries[index].value,
                let chainIndex = statement.firstIndex(where: { $0.key == .text("x5c") }),
                case .array(let chain) = statement[chainIndex].value
            else { return }
            statement[chainIndex].value = .array(change(chain))
            entries[index].value = .map(statement)
        }
    }

    @Test func unmodifiedVectorVerifies() {
        #expect(verifyAttestation() == nil)
    }

    @Test func reencodingIsByteIdentical() throws {
        #expect(try rewritten { _ in } == Self.attestation.attestation)
    }

    @Test func wrongChallenge() {
        #expect(verifyAttestation(clientDataHash: SHA256.hash("another challenge")) == .nonceMismatch)
    }

    @Test func wrongAppId() {
        #expect(verifyAttestation(appId: "35MFYY2JY5.co.chiff.other") == .rpIdMismatch)
    }

    @Test func wrongKeyId() throws {
        let other = try TestVector.load("srinivas-dev-attestation.json").keyId
        #expect(verifyAttestation(keyId: other) == .keyIdMismatch)
    }

    @Test func wrongEnvironment() {
        #expect(verifyAttestation(environments: [.production]) == .environmentNotAllowed)
    }

    @Test func differentTrustAnchor() throws {
        let authority = try TestCertificateAuthority.create(at: Self.attestation.verifyAt)
        #expect(verifyAttestation(roots: [authority.rootCertificate]) == .certificateChain)
    }

    @Test func swappedChain() throws {
        #expect(verifyAttestation(try rewrittenChain { $0.reversed() }) == .certificateChain)
    }

    @Test func duplicatedLeaf() throws {
        #expect(verifyAttestation(try rewrittenChain { [$0[0], $0[0]] }) == .certificateChain)
    }

    @Test func duplicatedIntermediate() throws {
        #expect(verifyAttestation(try rewrittenChain { [$0[1], $0[1]] }) == .certificateChain)
    }

    @Test func changedFormat() throws {
        let object = try rewritten { entries in entries[0].value = .text("packed") }
        #expect(verifyAttestation(object) == .invalidFormat)
    }

    @Test func flippedBitInAuthData() throws {
        for position in [0, 32, 36, 40, 60, 120, 163] {
            let object = try rewritten { entries in
                guard let index = entries.firstIndex(where: { $0.key == .text("authData") }),
                    case .bytes(var bytes) = entries[index].value
                else { return }
                bytes[position] ^= 0x01
                entries[index].value = .bytes(bytes)
            }
            let code = verifyAttestation(object)
            #expect(
                code == .nonceMismatch,
                "bit flip at \(position) gave \(String(describing: code))")
        }
    }

    @Test func truncatedAttestation() {
        let bytes = Self.attestation.attestation
        for length in [0, 1, 10, bytes.count / 2, bytes.count - 1] {
            #expect(verifyAttestation(Array(bytes.prefix(length))) == .truncated)
        }
    }

    @Test func truncatedAssertion() throws {
        let bytes = Self.assertion.assertion
        for length in [0, 1, 20, bytes.count - 1] {
            #expect(try verifyAssertion(Array(bytes.prefix(length))) == .truncated)
        }
    }

    @Test func replayedAssertion() throws {
        #expect(try verifyAssertion() == nil)
        #expect(try verifyAssertion(previousCounter: Self.assertion.counter) == .counterNotIncreased)
    }

    @Test func tamperedSignature() throws {
        guard case .map(var entries) = try CBORReader.decode(Self.assertion.assertion),
            case .bytes(var signature) = entries[0].value
        else { Issue.record("unexpected assertion shape"); return }
        signature[signature.count - 1] ^= 0x01
        entries[0].value = .bytes(signature)
        #expect(try verifyAssertion(CBORWriter.encode(.map(entries))) == .invalidSignature)
    }

    @Test func anotherKeysSignature() throws {
        let other = try TestVector.load("srinivas-dev-assertion.json").publicKeyX963
        #expect(try verifyAssertion(publicKey: other) == .invalidSignature)
    }

    @Test func assertionForAnotherApp() throws {
        #expect(try verifyAssertion(appId: "35MFYY2JY5.co.chiff.other") == .rpIdMismatch)
    }
}
