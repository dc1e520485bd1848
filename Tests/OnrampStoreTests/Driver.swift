import Foundation
import OnrampStore
import Testing

/// The drivers every parameterized store test runs against.
enum Driver: String, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Both drivers, unless `ONRAMP_SKIP_POSTGRES=1` asks explicitly to leave PostgreSQL out.
    static let all: [Driver] = skipPostgres ? [.sqlite] : [.sqlite, .postgres]

    static let skipPostgres = ProcessInfo.processInfo.environment["ONRAMP_SKIP_POSTGRES"] == "1"
}

/// Why a PostgreSQL case cannot run; thrown so that the case fails rather than passing silently.
struct MissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "ONRAMP_TEST_POSTGRES_URL is not set: run `scripts/with-postgres.sh swift test`, "
            + "or set ONRAMP_SKIP_POSTGRES=1 to leave the PostgreSQL cases out explicitly"
    }
}
