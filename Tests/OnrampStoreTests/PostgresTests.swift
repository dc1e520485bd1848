import OnrampStore
import Testing

/// Behaviour only PostgreSQL has: row claiming for the outbox dispatcher.
@Suite(.enabled(if: !Driver.skipPostgres, "ONRAMP_SKIP_POSTGRES=1"))
struct PostgresTests {
    @Test func twoConnectionsClaimDisjointRowsWithSkipLocked() throws {
        try withMigratedDatabase(.postgres) { database in
            try database.transaction { connection in
                for id in 1...10 {
                    try connection.execute("INSERT INTO items (id) VALUES (?)", [.integer(Int64(id))])
                }
            }
            let claim = "SELECT id FROM items ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED"
            var second: [Int64] = []
            let first = try database.transaction { connection in
                let claimed = try connection.query(claim, [.integer(4)]).map { try $0.int("id") }
                // A second pooled connection claims while the first transaction still holds its locks.
                second = try database.transaction { other in
                    try other.query(claim, [.integer(4)]).map { try $0.int("id") }
                }
                return claimed
            }
            #expect(first == [1, 2, 3, 4])
            #expect(second == [5, 6, 7, 8])
        }
    }

    @Test func aBrokenConnectionIsReplaced() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1")
            defer { database.close() }
            let admin = try DatabaseURL.open(url)
            defer { admin.close() }
            let before = try database.read { try $0.query("SELECT pg_backend_pid() AS pid").first!.int("pid") }
            try admin.read { _ = try $0.query("SELECT pg_terminate_backend(CAST(? AS INTEGER))", [.integer(before)]) }
            expectStoreError(.connectionFailed) {
                _ = try database.read { try $0.query("SELECT 1") }
            }
            let after = try database.read { try $0.query("SELECT pg_backend_pid() AS pid").first!.int("pid") }
            #expect(after != before)
            try database.ping()
        }
    }

    @Test func aFullPoolMakesCallersWaitThenFailBusy() throws {
        try withFreshDatabase(.postgres) { url in
            let database = try DatabaseURL.open(url + "&pool_size=1&pool_timeout=1")
            defer { database.close() }
            let started = ContinuousClock.now
            try database.transaction { _ in
                expectStoreError(.busy) { try database.ping() }
            }
            #expect(ContinuousClock.now - started >= .milliseconds(900))
            try database.ping()
        }
    }
}
