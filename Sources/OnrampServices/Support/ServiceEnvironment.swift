import OnrampCore
import OnrampStore

/// What every service runs on: the database, the time (the bound project's, ``ShiftedClock``) and the
/// source of ids. Services hold one value of it instead of each copying the three and their helpers.
package struct ServiceEnvironment: Sendable {
    /// The database (SQLite or PostgreSQL).
    package let database: any Database
    /// The project's time: the injected clock plus the test clock of the project a request or step is
    /// bound to (``TestClocks/bound(to:_:)``).
    package let clock: any OnrampCore.Clock
    /// Prefixed ids, UUIDs and tokens.
    package let ids: IdGenerator
}

/// A service that runs on a ``ServiceEnvironment``: its database, clock, ids and the current time in
/// stored milliseconds come from there.
package protocol UsesServiceEnvironment {
    /// The database, clock and ids the service runs on.
    var environment: ServiceEnvironment { get }
}

extension UsesServiceEnvironment {
    /// The database (SQLite or PostgreSQL).
    package var database: any Database { environment.database }
    /// The project's time (its test clock, when the request or step is bound to one).
    package var clock: any OnrampCore.Clock { environment.clock }
    /// Prefixed ids, UUIDs and tokens.
    package var ids: IdGenerator { environment.ids }
    /// The current time in stored milliseconds (the bound project's time).
    package var nowMilliseconds: Int64 { Timestamp.milliseconds(environment.clock.now()) }
}
