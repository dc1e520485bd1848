import AppAttest
import Foundation
import OnrampCrypto
import Testing

@Suite struct SoftwareAttesterTests {
    static let appId = "TEAMID1234.com.example.onramp"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let authority = try! TestCertificateAuthority.create(at: now)

    let attester = SoftwareAttester(authority: Self.authority, appId: Self.appId)
    let clientDataHash = SHA256.hash("challenge")

    func verify(
        _ object: [UInt8], key: SoftwareAttestKey, roots: [X509Certificate] = [authority.rootCertificate],
        environments: Set<AppAttestEnvironment> = [.development], at time: Date = now
    ) throws(AppAttestError) -> VerifiedAttestation {
        try AttestationVerifier(appId: Self.appId, allowedEnvironments: environments, trustedRoots: roots)
            .verify(attestationObject: object, keyId: key.keyId, clientDataHash: clientDataHash, at: time)
    }

    func code(_ body: () throws -> Void) -> AppAttestError.Code? {
        do {
            try body()
            return nil
        } catch let error as AppAttestError {
            return error.code
        } catch {
            return AppAttestError.Code(rawValue: "unexpected \(error)")
        }
    }

    @Test func roundTrip() throws {
        var key = try attester.generateKey()
        let attestation = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now)
        let verified = try verify(attestation, key: key)
        #expect(verified.environment == .development)
        #expect(verified.keyId == key.keyId)
        #expect(verified.receipt == SoftwareAttester.receipt)
        let assertions = AssertionVerifier(appId: Self.appId)
        var counter = verified.counter
        for _ in 0..<3 {
            let assertion = try attester.generateAssertion(&key, clientDataHash: clientDataHash)
            counter = try assertions.verify(
                assertionObject: assertion, publicKey: verified.publicKey, previousCounter: counter,
                clientDataHash: clientDataHash
            ).counter
        }
        #expect(counter == 3)
    }

    @Test func productionEnvironment() throws {
        let production = SoftwareAttester(authority: Self.authority, appId: Self.appId, environment: .production)
        let key = try production.generateKey()
        let object = try production.attestKey(key, clientDataHash: clientDataHash, at: Self.now)
        #expect(try verify(object, key: key, environments: [.production]).environment == .production)
        #expect(code { _ = try verify(object, key: key, environments: [.development]) } == .environmentNotAllowed)
    }

    @Test func sameFormatAsApple() throws {
        let key = try attester.generateKey()
        let object = try AttestationObject(attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now))
        let real = try AttestationObject(TestVector.load("basd-dev-attestation.json").attestation)
        #expect(object.authenticatorData.rawValue.count == real.authenticatorData.rawValue.count)
        #expect(object.authenticatorData.flags == real.authenticatorData.flags)
        #expect(
            object.authenticatorData.attestedCredential?.publicKeyBytes.prefix(10)
                == real.authenticatorData.attestedCredential?.publicKeyBytes.prefix(10))
        let leaf = try X509Certificate(derRepresentation: object.certificates[0])
        #expect(
            leaf.extensionValue(oid: AppAttestNonceExtension.oid)?.prefix(6) == [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20])
    }

    @Test func refusedWhenTheCAIsNotTrusted() throws {
        let key = try attester.generateKey()
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now)
        #expect(code { _ = try verify(object, key: key, roots: [AppleAppAttestRoot.certificate]) } == .certificateChain)
        let otherCA = try TestCertificateAuthority.create(at: Self.now)
        #expect(code { _ = try verify(object, key: key, roots: [otherCA.rootCertificate]) } == .certificateChain)
    }

    @Test func refusedAfterLeafExpiry() throws {
        let key = try attester.generateKey()
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now)
        let leaf = try X509Certificate(derRepresentation: AttestationObject(object).certificates[0])
        #expect(code { _ = try verify(object, key: key, at: leaf.notAfter.addingTimeInterval(-1)) } == nil)
        #expect(code { _ = try verify(object, key: key, at: leaf.notAfter.addingTimeInterval(1)) } == .certificateChain)
    }

    @Test func nonzeroCounter() throws {
        let key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        tampering.signCount = 1
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        #expect(code { _ = try verify(object, key: key) } == .nonzeroCounter)
    }

    @Test func credentialIdMismatch() throws {
        let key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        tampering.credentialId = SHA256.hash("another key")
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        #expect(code { _ = try verify(object, key: key) } == .credentialIdMismatch)
    }

    @Test func unknownAAGUID() throws {
        let key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        tampering.aaguid = Array("notappattestaaaa".utf8)
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        #expect(code { _ = try verify(object, key: key) } == .unknownAAGUID)
    }

    @Test func wrongRelyingParty() throws {
        let key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        tampering.appId = "TEAMID1234.com.example.other"
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        #expect(code { _ = try verify(object, key: key) } == .rpIdMismatch)
    }

    @Test func changedFormat() throws {
        let key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        tampering.format = "apple"
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        #expect(code { _ = try verify(object, key: key) } == .invalidFormat)
    }

    @Test func iOS27StyleExtensions() throws {
        var key = try attester.generateKey()
        var tampering = SoftwareAttester.Tampering()
        let extensions = CBORValue.map([CBORMapEntry(.text("apple_bundle_version_01"), .text("1314"))])
        tampering.extensions = extensions
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: Self.now, tampering: tampering)
        let verified = try verify(object, key: key)
        #expect(verified.authenticatorData.flags == 0xC0)
        #expect(verified.authenticatorData.extensions == extensions)
        let assertion = try attester.generateAssertion(&key, clientDataHash: clientDataHash, extensions: extensions)
        let result = try AssertionVerifier(appId: Self.appId).verify(
            assertionObject: assertion, publicKey: verified.publicKey, previousCounter: 0,
            clientDataHash: clientDataHash)
        #expect(result.authenticatorData.extensions == extensions)
    }

    @Test func keySerializationRoundTrip() throws {
        var key = try attester.generateKey()
        _ = try attester.generateAssertion(&key, clientDataHash: clientDataHash)
        let data = try JSONEncoder().encode(key)
        let restored = try JSONDecoder().decode(SoftwareAttestKey.self, from: data)
        #expect(restored.keyId == key.keyId)
        #expect(restored.counter == 1)
        #expect(!key.description.contains("PRIVATE"))
    }

    @Test func authoritySaveAndLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.authority.save(to: directory)
        let loaded = try TestCertificateAuthority(directory: directory)
        #expect(loaded.rootCertificate == Self.authority.rootCertificate)
        let loadedAttester = SoftwareAttester(authority: loaded, appId: Self.appId)
        let key = try loadedAttester.generateKey()
        let object = try loadedAttester.attestKey(key, clientDataHash: clientDataHash, at: Self.now)
        #expect(code { _ = try verify(object, key: key) } == nil)
    }
}
