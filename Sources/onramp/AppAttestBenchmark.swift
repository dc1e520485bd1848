import AppAttest
import Foundation
import OnrampCrypto

/// `onramp appattest bench --assertion VEC --attestation VEC [--seconds N]`: verifications per second on the
/// calling thread (pin the process to one core to measure one core).
enum AppAttestBenchmark {
    static func run(_ options: Arguments) throws -> Int32 {
        let seconds = Double(options.value("--seconds") ?? "3") ?? 3
        let attestation = try AppAttestCommand.Vector(path: options.required("--attestation"))
        let assertion = try AppAttestCommand.Vector(path: options.required("--assertion"))
        let roots = [AppleAppAttestRoot.certificate]
        let key = try AppAttestCommand.verifyAttestation(attestation, roots: roots).publicKey
        let assertionObject = try assertion.base64("assertion_b64")
        let assertionHash = try assertion.hex("client_data_hash_hex")
        let verifier = AssertionVerifier(appId: assertion.string("app_id"))
        let assertionRate = try measure(seconds: seconds) {
            _ = try verifier.verify(
                assertionObject: assertionObject, publicKey: key, previousCounter: 0, clientDataHash: assertionHash)
        }
        let attestationVerifier = AttestationVerifier(appId: attestation.string("app_id"), trustedRoots: roots)
        let attestationObject = try attestation.base64("attestation_b64")
        let attestationHash = try attestation.hex("client_data_hash_hex")
        let keyId = attestation.string("key_id")
        let time = try attestation.date("verify_at_time")
        let attestationRate = try measure(seconds: seconds) {
            _ = try attestationVerifier.verify(
                attestationObject: attestationObject, keyId: keyId, clientDataHash: attestationHash, at: time)
        }
        AppAttestCommand.printObject([
            ("assertion_verifications_per_second", String(Int(assertionRate))),
            ("attestation_verifications_per_second", String(Int(attestationRate))),
        ])
        return 0
    }

    static func measure(seconds: Double, _ body: () throws -> Void) throws -> Double {
        let start = Date()
        var count = 0
        while true {
            for _ in 0..<50 { try body() }
            count += 50
            let elapsed = Date().timeIntervalSince(start)
            if elapsed >= seconds { return Double(count) / elapsed }
        }
    }
}
