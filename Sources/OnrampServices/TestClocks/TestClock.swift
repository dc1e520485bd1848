import Foundation
import OnrampCore
import OnrampStore

/// A test-mode project's clock: how far it runs ahead of real time. A request acting for the project
/// runs with the offset bound (``TestClocks/bound(to:_:)``), and the server's clock
/// (``ShiftedClock``) adds it, so every expiry the request decides — a purchase challenge's five minutes,
/// an Embedded quote's lifetime — is decided in the project's time, exactly as if real time had passed.
package enum TestClockOffset {
    /// The offset of the project the current request acts for, in milliseconds (0: real time).
    @TaskLocal package static var milliseconds: Int64 = 0
}

/// The server's clock: the injected clock plus the bound project's test-clock offset.
package struct ShiftedClock: OnrampCore.Clock {
    package let base: any OnrampCore.Clock

    package func now() -> Date {
        base.now().addingTimeInterval(Double(TestClockOffset.milliseconds) / 1000)
    }
}

/// Test clocks: reading a project's offset, binding it for a request, and advancing it (test-mode
/// projects only: a project with a live key keeps real time).
package struct TestClocks: Sendable {
    package let database: any Database
    /// The real clock (not shifted), which stamps when an offset changed.
    package let clock: any OnrampCore.Clock
    /// The server's cache of offsets; nil in a process that serves no requests (the CLI).
    package let callers: CallerCache?

    /// The longest single advance: 30 days.
    package static let maximumSeconds: Int64 = 30 * 24 * 3600
    /// The furthest a clock may run ahead of real time in all: 100 years (so no time computed from it can
    /// overflow; a state file is held to it too).
    package static let maximumOffsetMilliseconds: Int64 = 100 * 365 * 86_400_000

    /// Runs `body` in `projectId`'s time (real time when nil or without a test clock).
    package func bound<T>(to projectId: String?, _ body: () throws -> T) throws -> T {
        guard let projectId else { return try body() }
        let read = { try database.read { try TestClockRepository(connection: $0).offset(projectId: projectId) } }
        let offset = try callers.map { try $0.value(.clockOffset, projectId, load: read) } ?? read()
        return try Self.bound(offsetMilliseconds: offset ?? 0, body)
    }

    /// Runs `body` in a project's time whose offset the caller read already (with what named the
    /// project, in one read).
    package static func bound<T>(offsetMilliseconds offset: Int64, _ body: () throws -> T) throws -> T {
        try TestClockOffset.$milliseconds.withValue(offset, operation: body)
    }

    /// Why a clock cannot move.
    package enum Refusal: Error, Equatable {
        /// The project has a live-mode key.
        case liveProject
        /// No such project.
        case unknownProject
        /// The advance is not 1 second to 30 days, or would take the clock past ``maximumOffsetMilliseconds``.
        case outOfRange
    }

    /// Moves `projectId`'s clock `seconds` ahead; returns its new offset in milliseconds.
    package func advance(projectId: String, seconds: Int64) throws -> Int64 {
        guard (1...Self.maximumSeconds).contains(seconds) else { throw Refusal.outOfRange }
        let now = Timestamp.milliseconds(clock.now())
        let result = try database.transaction { connection -> Result<Int64, Refusal> in
            let repository = TestClockRepository(connection: connection)
            switch try repository.mode(of: projectId) {
            case nil: return .failure(.unknownProject)
            case .some(true): return .failure(.liveProject)
            case .some(false):
                guard try repository.offset(projectId: projectId) + seconds * 1000 <= Self.maximumOffsetMilliseconds
                else { return .failure(.outOfRange) }
                return .success(try repository.advance(projectId: projectId, by: seconds * 1000, now: now))
            }
        }
        callers?.invalidate()
        return try result.get()
    }

    /// A value with each stored property given.
    package init(database: any Database, clock: any OnrampCore.Clock, callers: CallerCache? = nil) {
        self.database = database
        self.clock = clock
        self.callers = callers
    }
}

/// The `test_clocks` table: one row per project whose clock has been moved.
package struct TestClockRepository {
    package let connection: any SQLConnection

    /// The condition that `column`, a time in its row's project time, is due at the real time bound to
    /// its two `?`s. `clock` is the alias of a `LEFT JOIN test_clocks` on the row's project (joined only
    /// for test-mode rows). The first comparison, against the largest offset, lets the index on `column`
    /// narrow the rows; the second applies the row's own project's offset.
    package static func due(_ column: String, clock: String) -> String {
        """
        \(column) IS NOT NULL
            AND \(column) <= ? + (SELECT COALESCE(MAX(offset_ms), 0) FROM test_clocks)
            AND \(column) <= ? + COALESCE(\(clock).offset_ms, 0)
        """
    }

    /// The project's offset in milliseconds (0 without a row).
    package func offset(projectId: String) throws -> Int64 {
        try connection.query("SELECT offset_ms FROM test_clocks WHERE project_id = ?", [.text(projectId)]).first?
            .int("offset_ms") ?? 0
    }

    /// Whether the project is live (has a live-mode key); nil when there is no such project.
    package func mode(of projectId: String) throws -> Bool? {
        guard try !connection.query("SELECT 1 AS one FROM projects WHERE id = ?", [.text(projectId)]).isEmpty else {
            return nil
        }
        return try !connection.query(
            "SELECT 1 AS one FROM api_keys WHERE project_id = ? AND livemode = 1 LIMIT 1", [.text(projectId)]
        ).isEmpty
    }

    /// Adds `milliseconds` to the project's offset; returns the new offset.
    package func advance(projectId: String, by milliseconds: Int64, now: Int64) throws -> Int64 {
        // One statement, so two first advances racing on PostgreSQL add up instead of colliding.
        try connection.execute(
            """
            INSERT INTO test_clocks (project_id, offset_ms, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (project_id) DO UPDATE SET offset_ms = test_clocks.offset_ms + excluded.offset_ms,
                updated_at = excluded.updated_at
            """, [.text(projectId), .integer(milliseconds), .integer(now)])
        return try offset(projectId: projectId)
    }

    /// A value with each stored property given.
    package init(connection: any SQLConnection) {
        self.connection = connection
    }
}

/// The test clocks' table (version 160, beside the projects and the outbox).
package enum TestClockSchema {
    package static let migrations = [
        Migration(
            version: 160, name: "test_clocks",
            sql: """
                CREATE TABLE test_clocks (
                    project_id TEXT PRIMARY KEY REFERENCES projects(id),
                    offset_ms BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                );
                """)
    ]
}

/// Moving a project's test clock from outside a request (`onramp clock advance`).
public struct TestClockControl: Sendable {
    private let clocks: TestClocks

    /// Works on a migrated `database`.
    public init(database: any Database, clock: any OnrampCore.Clock = SystemClock()) {
        clocks = TestClocks(database: database, clock: clock)
    }

    /// Why a clock did not move.
    public struct Refused: Error, CustomStringConvertible {
        /// What is wrong.
        public let description: String
    }

    /// Moves `projectId`'s clock `seconds` ahead; returns its new offset in milliseconds.
    public func advance(projectId: String, seconds: Int64) throws -> Int64 {
        do {
            return try clocks.advance(projectId: projectId, seconds: seconds)
        } catch TestClocks.Refusal.liveProject {
            throw Refused(description: "project \(projectId) has a live-mode key: its clock cannot be moved")
        } catch TestClocks.Refusal.unknownProject {
            throw Refused(description: "no project \(projectId)")
        } catch TestClocks.Refusal.outOfRange {
            throw Refused(description: "advance by 1 to \(TestClocks.maximumSeconds) seconds")
        }
    }
}
