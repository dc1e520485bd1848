import AppAttest
import Foundation
import OnrampCrypto
import OnrampWire
import Testing

@Suite struct VectorTests {
    static let attestations = (try? TestVector.all().filter { $0.kind == "attestation" }) ?? []
    static let assertions = (try? TestVector.all().filter { $0.kind == "assertion" }) ?? []

    static func verifier(for vector: TestVector) -> AttestationVerifier {
        let environment = AppAttestEnvironment(rawValue: vector.environment) ?? .production
        return AttestationVerifier(appId: vector.appId, allowedEnvironments: [environment])
    }

    @Test func vectorsArePresent() {
        #expect(Self.attestations.count >= 20)
        #expect(Self.assertions.count >= 15)
    }

    @Test(arguments: attestations) func attestationVerifiesAtItsTime(vector: TestVector) throws {
        let result = try Self.verifier(for: vector).verify(
            attestationObject: vector.attestation, keyId: vector.keyId, clientDataHash: vector.clientDataHash,
            at: vector.verifyAt)
        #expect(result.environment.rawValue == vector.environment)
        #expect(result.counter == 0)
        #expect(Base64.encode(result.publicKeyX963) == vector.string("expected_public_key_x963_b64"))
        #expect(Base64.encode(SHA256.hash(result.publicKeyX963)) == vector.keyId)
        #expect(!result.receipt.isEmpty)
    }

    @Test(arguments: attestations) func attestationFailsOneSecondAfterLeafExpiry(vector: TestVector) throws {
        let object = try AttestationObject(vector.attestation)
        let leaf = try X509Certificate(derRepresentation: object.certificates[0])
        #expect(leaf.notAfter == vector.leafNotAfter)
        let error = #expect(throws: AppAttestError.self) {
            try Self.verifier(for: vector).verify(
                attestationObject: vector.attestation, keyId: vector.keyId, clientDataHash: vector.clientDataHash,
                at: leaf.notAfter.addingTimeInterval(1))
        }
        #expect(error?.code == .certificateChain)
    }

    @Test(arguments: assertions) func assertionVerifiesWithItsKey(vector: TestVector) throws {
        var key = try P256.PublicKey(x963Representation: vector.publicKeyX963)
        if let linked = vector.linkedAttestation {
            let attestation = try TestVector.load(linked + ".json")
            let verified = try Self.verifier(for: attestation).verify(
                attestationObject: attestation.attestation, keyId: attestation.keyId,
                clientDataHash: attestation.clientDataHash, at: attestation.verifyAt)
            #expect(verified.keyId == (vector.keyId.isEmpty ? vector.string("public_key_sha256_b64") : vector.keyId))
            key = verified.publicKey
        }
        let result = try AssertionVerifier(appId: vector.appId).verify(
            assertionObject: vector.assertion, publicKey: key, previousCounter: vector.previousCounter,
            clientDataHash: vector.clientDataHash)
        #expect(result.counter == vector.counter)
        #expect(result.authenticatorData.rawValue.count == vector.fields["authenticator_data_len"] as? Int)
    }

    @Test func iOS27ExtensionsAreParsed() throws {
        let vector = try TestVector.load("ricardo-ios27.0.1-dev-attestation.json")
        let object = try AttestationObject(vector.attestation)
        #expect(object.authenticatorData.flags == 0xC0)
        #expect(object.authenticatorData.extensions?["apple_bundle_version_01"] == .text("1314"))
        let assertion = try AssertionObject(TestVector.load("ricardo-ios27.0.1-dev-assertion.json").assertion)
        #expect(assertion.authenticatorData.rawValue.count == 102)
        #expect(assertion.authenticatorData.extensions?["apple_validation_category_01"] == .bytes([3, 0, 0, 0]))
    }
}
