import Foundation
import OnrampStore
import Testing

/// An idle server's background workers only read: the webhook dispatcher, settlement and the Embedded
/// worker each ask first whether there is anything to do, so no write transaction runs (on SQLite, none
/// takes the writer) while nothing happens.
@Suite struct IdleWorkerTests {
    @Test func anIdleServerRunsNoWriteTransaction() async throws {
        let server = try TestServer()
        let sqlite = try #require(server.database as? SQLiteDatabase)
        try await Task.sleep(for: .milliseconds(300))
        let before = sqlite.groupCommitStatistics.transactions
        // Ten of the test server's worker intervals (the webhook dispatcher's is shorter still).
        try await Task.sleep(for: .seconds(1))
        #expect(sqlite.groupCommitStatistics.transactions == before)
    }
}
