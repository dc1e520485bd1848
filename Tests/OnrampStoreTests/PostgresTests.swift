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

  @Test func anUnreachableServerFailsToConnect() {
    expectStoreError(.connectionFailed) {
      _ = try DatabaseURL.open("postgres://nobody@127.0.0.1:1/none?connect_timeout=2")
    }
  }
}
