import Foundation
import OnrampStore
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// An attested session's updates (its challenge marked used, its key's counter advanced) stay on their
/// row's page on PostgreSQL: heap-only updates, which add no index entry (migration 540). With another
/// transaction's snapshot open, as under load, none did on pages filled to the brim (PostgreSQL's
/// default); with the room left now, 138 of 300 do in this test (the rest once a page's room is used).
@Suite(.blocking) struct PostgresPageRoomTests {
    @Test(.enabled(if: DatabaseDriver.all.contains(.postgres)))
    func consumedChallengesAndAdvancedCountersAreHeapOnlyUpdates() throws {
        let server = try TestServer(driver: .postgres)
        let rows = 300
        // Rows of about their real size: a purchase of a few hundred bytes, a receipt of a few kilobytes.
        let purchase =
            #"{"amount":"100.00","paymentCurrency":"USD","purchaseCurrency":"USDC","network":"base","#
            + #""destinationAddress":"0x52908400098527886E0F7030069857D2E4169EE7","#
            + #""partnerUserRef":"user-\#(String(repeating: "x", count: 200))"}"#
        let receipt = String(
            repeating: "MIAGCSqGSIb3DQEHAqCAMIACAQExDzANBglghkgBZQMEAgEFADCABgkqhkiG9w0BBwGg", count: 40)
        try server.database.transaction { connection in
            for index in 0..<rows {
                _ = try ChallengeRepository(connection: connection).insert(
                    id: "page-room-\(index)", projectId: server.projectId, purpose: .purchase, purchase: purchase,
                    idempotencyKey: nil, now: 1_000)
                try AttestKeyRepository(connection: connection).upsert(
                    projectId: server.projectId, appId: TestServer.appId, keyId: "page-room-key-\(index)",
                    publicKey: String(repeating: "B", count: 88), environment: .production, receipt: receipt, now: 1_000
                )
            }
        }
        // Under load other transactions hold snapshots older than each update, so the versions it left
        // behind cannot be pruned yet: only room left free beforehand takes the new versions. A read
        // holds its snapshot open meanwhile.
        let (taken, release, released) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        Thread.detachNewThread {
            _ = try? server.database.read { snapshot in
                _ = try snapshot.query("SELECT COUNT(*) AS n FROM attestation_challenges")
                taken.signal()
                release.wait()
            }
            released.signal()
        }
        try #require(taken.wait(timeout: .now() + 30) == .success, "no snapshot was taken")
        for index in 0..<rows {
            try server.database.transaction { connection in
                #expect(try ChallengeRepository(connection: connection).consume(id: "page-room-\(index)", now: 2_000))
                let advanced = try connection.run(
                    AttestKeyRepository.advancing(
                        projectId: server.projectId, appId: TestServer.appId, keyId: "page-room-key-\(index)", to: 1))
                #expect(advanced)
            }
        }
        release.signal()
        #expect(released.wait(timeout: .now() + 30) == .success)
        let statistics = try server.shutDownAndReadStatistics(
            """
            SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
            WHERE relname IN ('attestation_challenges', 'app_attest_keys')
            """)
        #expect(statistics.count == 2)
        for table in statistics {
            let name = try table.string("relname")
            let (updates, heapOnly) = (try table.int("n_tup_upd"), try table.int("n_tup_hot_upd"))
            #expect(updates == Int64(rows), "\(name)")
            #expect(heapOnly * 3 >= updates, "\(name): \(heapOnly) of \(updates) heap-only")
        }
    }
}
