import Foundation
import OnrampStore

/// The database an offline command works on: the one `--database` names (opened as given, so a new SQLite
/// file is made when asked for explicitly), else `./onramp.db`, the file `onramp serve` makes in the folder
/// it starts in — which must exist: run from another folder, a command would otherwise make a new, empty
/// database no server reads.
enum CommandDatabase {
    static let defaultPath = "./onramp.db"

    /// Opens the database of `args`.
    static func open(_ args: Arguments) throws -> any Database {
        if let url = args.value("--database") { return try DatabaseURL.open(url) }
        guard FileManager.default.fileExists(atPath: defaultPath) else {
            throw Arguments.UsageError(
                description:
                    "no database at \(defaultPath): run this in the folder `onramp serve` started in, or pass --database URL"
            )
        }
        return try DatabaseURL.open("sqlite:\(defaultPath)")
    }

    /// The URL of `args`' database, checked the same way (for commands that open it later).
    static func url(_ args: Arguments) throws -> String {
        if let url = args.value("--database") { return url }
        guard FileManager.default.fileExists(atPath: defaultPath) else {
            throw Arguments.UsageError(
                description:
                    "no database at \(defaultPath): run this in the folder `onramp serve` started in, or pass --database URL"
            )
        }
        return "sqlite:\(defaultPath)"
    }
}
