import Foundation
import OnrampCore
import OnrampTestSupport
import Testing

/// Inputs an attacker sends: lengths are counted in bytes (a grapheme cluster can be any size), and
/// control characters and URL-breaking characters are refused before any purchase exists.
@Suite(.serialized, .blocking) struct HostileInputTests {
    @Test func fieldLimitsCountBytesNotCharacters() throws {
        let server = try TestServer(transport: .live)
        let device = try TestDevice(server: server)
        // One Character, 40,001 bytes: it passed the 50-character limit and the answer was then lost.
        let bomb = "e" + String(repeating: "\u{301}", count: 20_000)
        #expect(bomb.count == 1)
        let refused = try device.purchaseChallenge(device.purchase([("partnerUserRef", .string(bomb))]))
        #expect(refused.status == 400)
        #expect(refused.body["errorMessage"]?.stringValue?.contains("50 bytes") == true, "\(refused.body)")
        let accepted = try device.purchaseChallenge(
            device.purchase([("partnerUserRef", .string(String(repeating: "é", count: 25)))]))
        #expect(accepted.status == 201, "25 two-byte characters are 50 bytes")
        #expect(try server.count("SELECT COUNT(*) AS n FROM attestation_challenges WHERE purpose = 'purchase'") == 1)
    }

    @Test(arguments: ["victim\0evil", "line\r\nbreak", "tab\there", "bell\u{7}", "del\u{7F}"])
    func controlCharactersAreRefusedInTextFields(text: String) throws {
        let server = try TestServer(transport: .live)
        let device = try TestDevice(server: server)
        let refused = try device.purchaseChallenge(device.purchase([("partnerUserRef", .string(text))]))
        #expect(refused.status == 400)
        #expect(refused.body["errorMessage"]?.stringValue?.contains("control characters") == true)
        #expect(try server.count("SELECT COUNT(*) AS n FROM attestation_challenges") == 0)
    }

    @Test(arguments: ["\r\nSet-Cookie: a=b", "\0", " ", "<script>", ">", "\"", "\\", "%zz", "%4", "é"])
    func redirectURLsHoldOnlyURLCharacters(suffix: String) throws {
        let server = try TestServer(transport: .live)
        let device = try TestDevice(server: server)
        let url = "https://\(TestServer.redirectHost)/back?x=" + suffix
        let refused = try device.purchaseChallenge(device.purchase([("redirectUrl", .string(url))]))
        #expect(refused.status == 400, "\(url.debugDescription)")
        #expect(refused.body["errorType"] == "invalid_request")
        #expect(try server.count("SELECT COUNT(*) AS n FROM attestation_challenges") == 0)
    }

    @Test func fieldTextRule() {
        #expect(FieldText.problem(in: "plain", maxBytes: 5) == nil)
        #expect(FieldText.problem(in: "plain!", maxBytes: 5) == .tooLong(maxBytes: 5))
        #expect(FieldText.problem(in: "日本", maxBytes: 5) == .tooLong(maxBytes: 5))
        #expect(FieldText.problem(in: "a\u{0}", maxBytes: 5) == .controlCharacter)
        #expect(FieldText.problem(in: "\u{1F}", maxBytes: 5) == .controlCharacter)
        #expect(FieldText.problem(in: "ü ~", maxBytes: 5) == nil)
        #expect(FieldText.problem(in: "a\nb", maxBytes: 5) == .controlCharacter)
        #expect(FieldText.problem(in: "a\r\n\tb", maxBytes: 5, allowingLineBreaks: true) == nil)
        #expect(FieldText.problem(in: "a\u{0}b", maxBytes: 5, allowingLineBreaks: true) == .controlCharacter)
        #expect(FieldText.problem(in: "a\u{1B}b", maxBytes: 5, allowingLineBreaks: true) == .controlCharacter)
    }
}
