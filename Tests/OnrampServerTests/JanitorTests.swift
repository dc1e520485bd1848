import Foundation
import OnrampCore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Expired single-use rows are swept; rows still needed stay.
@Suite(.blocking) struct JanitorTests {
    @Test func sweepsExpiredChallengesButKeepsThoseBehindASession() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, startWorkers: false)
        var device = try TestDevice(server: server)
        try device.registerKey()  // a used registration challenge
        let unused = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        #expect(unused.status == 201)
        let purchase = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        #expect(try device.createSession(challenge: purchase).status == 201)
        #expect(try server.count("SELECT COUNT(*) AS n FROM attestation_challenges") == 3)

        let janitor = Janitor(context: server.application.context)
        #expect(try janitor.sweep() == 0)  // nothing has expired yet
        clock.advance(by: 2 * 60 * 60)
        try janitor.sweep()
        // Only the purchase challenge that carries a session remains.
        #expect(try server.count("SELECT COUNT(*) AS n FROM attestation_challenges") == 1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM purchase_sessions") == 1)
    }

    @Test func sweepsHostedTokensThatMadeNoTransaction() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, startWorkers: false)
        for _ in 0..<2 {
            let path = "/onramp/v1/token"
            let response = try server.request(
                "POST", path,
                json: [
                    "addresses": [["address": "0x52908400098527886E0F7030069857D2E4169EE7", "blockchains": ["base"]]]
                ],
                headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
            #expect(response.status == 200)
        }
        // One of them produced a transaction: it stays as the transaction's reference.
        try server.database.transaction { connection in
            _ = try connection.execute(
                "UPDATE hosted_onramp_sessions SET outcome = 'success', transaction_id = 'tx-1' WHERE id = "
                    + "(SELECT MIN(id) FROM hosted_onramp_sessions)")
        }
        let janitor = Janitor(context: server.application.context)
        #expect(try janitor.sweep() == 0)
        clock.advance(by: 2 * 60 * 60)
        try janitor.sweep()
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions") == 1)
        #expect(try server.count("SELECT COUNT(*) AS n FROM hosted_onramp_sessions WHERE transaction_id = 'tx-1'") == 1)
    }
}
