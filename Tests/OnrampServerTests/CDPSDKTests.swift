import AppAttest
import Foundation
import HTTPServer
import OnrampServer
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The official `cdp-sdk` Python client, pointed at our server with a key from the provisioner,
/// runs its App2App calls, creates a hosted onramp session and makes a JWT-authenticated request.
@Suite(.serialized, .blocking) struct CDPSDKTests {
    @Test(arguments: [ProjectProviderKeyType.es256, .ed25519])
    func officialClientRunsTheApp2AppCalls(keyType: ProjectProviderKeyType) async throws {
        let server = try TestServer(keyType: keyType.value, transport: .live)
        let work = server.directory.appendingPathComponent("cdp-sdk")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try server.authority.save(to: work.appendingPathComponent("ca"))
        let output = try await Python.run(
            "cdp_app2app.py",
            [
                "http://127.0.0.1:\(server.port)", Python.onrampBinary.path, work.appendingPathComponent("ca").path,
                work.path,
                TestServer.appId,
            ],
            environment: [
                "CDP_API_KEY_ID": server.credentials.cdpApiKeyId,
                "CDP_API_KEY_SECRET": server.credentials.cdpApiKeySecret,
            ])
        #expect(output.status == 0, "\(output.standardError)")
        let result = try JSONParser().parse(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result["registrationChallengeLength"] == .number("44"))
        #expect(result["registration"]?["appId"] == .string(TestServer.appId))
        #expect(result["onrampUrl"]?.stringValue?.contains("/onramp/app2app?sessionToken=") == true)
        #expect(result["error"]?["httpCode"] == .number("400"))
        #expect(result["error"]?["errorType"] == "invalid_request")
        #expect(result["hostedOnrampUrl"]?.stringValue?.contains("/buy/select-asset?sessionToken=") == true)
        #expect(result["hostedQuote"]?["paymentTotal"] == "25.00")
        #expect(result["hostedQuote"]?["purchaseAmount"] == "24.36")
        #expect(result["hostedQuote"]?["fees"] == ["FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK"])
        #expect(result["transactionsStatus"] == .number("200"))
        #expect(result["transactions"]?["transactions"] == .array([]))
    }
}

/// The key types as test arguments.
enum ProjectProviderKeyType: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case es256, ed25519
    var value: OnrampServices.ProjectProvisioner.KeyType { self == .es256 ? .es256 : .ed25519 }
    var testDescription: String { rawValue }
}
