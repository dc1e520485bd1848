import AppAttest
import Foundation
import OnrampCrypto
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// StripeCore's App Attest exchange (`StripeAttest.swift`, `StripeAttestBackend.swift`) with a software
/// attester standing in for the Secure Enclave: challenge, attestation over `SHA256(challenge)`, then
/// assertions over `SHA256({"challenge":…})` on the mobile Link lookup.
@Suite(.blocking) struct StripeAttestTests {
    static let teamAppId = "ABCDE12345.com.example.wallet"
    static let bundleId = "com.example.wallet"

    /// A device: its key, the attester, and the SDK's client.
    struct Device {
        let server: EmbeddedTestServer
        let attester: SoftwareAttester
        var key: SoftwareAttestKey
        let sdk: SDKClient
        let deviceId = "7F9B6C1E-0D1A-4C55-9E59-3A3B8C2D4E10"

        init(livemode: Bool = false) throws {
            server = try EmbeddedTestServer(
                livemode: livemode, appIds: [teamAppId], trustTestRoot: true, transport: .live)
            attester = SoftwareAttester(authority: server.sandbox.authority, appId: teamAppId)
            key = try attester.generateKey()
            sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        }

        var keyFields: [String: SDKParameter] {
            ["app_id": .string(bundleId), "device_id": .string(deviceId), "key_id": .string(key.keyId)]
        }

        func challenge() throws -> (challenge: String, initialAttestationRequired: Bool) {
            struct Answer: Decodable {
                let challenge: String
                let initialAttestationRequired: Bool
            }
            let answer = try sdk.post("mobile_sdk_attestation/ios_challenge", keyFields, as: Answer.self)
            return (answer.challenge, answer.initialAttestationRequired)
        }

        /// `StripeAttest._attest()`.
        func attest() throws -> RawHTTPClient.Response {
            let (challenge, required) = try challenge()
            #expect(required)
            let object = try attester.attestKey(key, clientDataHash: SHA256.hash(Array(challenge.utf8)), at: Date())
            var form = keyFields
            form["attestation_object"] = .string(Base64.encode(object))
            return try sdk.send("POST", "mobile_sdk_attestation/ios_attest", form, key: nil)
        }

        /// `StripeAttest._assert()`: the request fields of an assertion over a fresh challenge.
        mutating func assertion() throws -> [String: SDKParameter] {
            let (challenge, required) = try challenge()
            #expect(!required)
            let clientData = #"{"challenge":"\#(challenge)"}"#
            let assertion = try attester.generateAssertion(&key, clientDataHash: SHA256.hash(Array(clientData.utf8)))
            var fields = keyFields
            fields["ios_assertion_object"] = .string(Base64.encode(assertion))
            return fields
        }

        func lookup(_ assertion: [String: SDKParameter]) throws -> RawHTTPClient.Response {
            var form: [String: SDKParameter] = [
                "request_surface": "ios_crypto_onramp", "email_address": "nobody@example.com",
                "email_source": "customer_email",
            ]
            form.merge(assertion) { $1 }
            return try sdk.send("POST", "consumers/mobile/sessions/lookup", form, key: nil)
        }
    }

    @Test func anAttestedKeySignsLookupsAndAReplayIsRefused() throws {
        var device = try Device()
        let attested = try device.attest()
        #expect(attested.status == 200 && attested.text == "{}", "\(attested.text)")
        let signed = try device.assertion()
        #expect(try device.lookup(signed).status == 200)
        // The same assertion again, over the next challenge: its signature no longer matches.
        _ = try device.challenge()
        let replayed = try device.lookup(signed)
        #expect(replayed.status == 400 && replayed.text.contains("link_failed_to_attest_request"), "\(replayed.text)")
        // Without a live challenge there is nothing to sign over.
        let noChallenge = try device.lookup(signed)
        #expect(noChallenge.status == 400 && noChallenge.text.contains("no_live_challenge"), "\(noChallenge.text)")
        #expect(try device.lookup(try device.assertion()).status == 200, "the next real assertion passes")
    }

    @Test func anAttestationForAnotherAppIsRefusedAndSpendsItsChallenge() throws {
        let device = try Device()
        let (challenge, _) = try device.challenge()
        let stranger = SoftwareAttester(
            authority: device.server.sandbox.authority, appId: "ZZZZZ99999.com.example.wallet")
        let object = try stranger.attestKey(device.key, clientDataHash: SHA256.hash(Array(challenge.utf8)), at: Date())
        var form = device.keyFields
        form["attestation_object"] = .string(Base64.encode(object))
        let refused = try device.sdk.send("POST", "mobile_sdk_attestation/ios_attest", form, key: nil)
        #expect(refused.status == 400 && refused.text.contains("link_failed_to_attest_request"), "\(refused.text)")
        let again = try device.sdk.send("POST", "mobile_sdk_attestation/ios_attest", form, key: nil)
        #expect(again.text.contains("no_live_challenge"), "the failed attempt spent the challenge: \(again.text)")
        #expect(try device.challenge().initialAttestationRequired)
    }

    @Test func testModeTakesTheSDKTestAssertionAndLiveModeDoesNot() throws {
        let testMode = try Device()
        #expect(try testMode.lookup(StripeSDKConformanceTests.testAssertion).status == 200)
        #expect(try testMode.lookup([:]).status == 200, "test mode without the fields")
        let live = try Device(livemode: true)
        let refused = try live.lookup(StripeSDKConformanceTests.testAssertion)
        #expect(refused.status == 400 && refused.text.contains("link_failed_to_attest_request"), "\(refused.text)")
        let missing = try live.lookup([:])
        #expect(missing.status == 400 && missing.text.contains("missing_assertion"), "\(missing.text)")
    }
}
