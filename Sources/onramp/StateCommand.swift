import Foundation
import OnrampServer
import OnrampStore
import OnrampWire

/// `onramp state export FILE`: saves the sandbox's whole state (see ``StateSnapshot``) for
/// `onramp serve --import FILE`.
enum StateCommand {
    static let usage = """
        Usage: onramp state export FILE [--database URL]

        Writes every project, key, customer, wallet, session, transaction and event of the database to FILE
        (JSON, format onramp-state version 1); `onramp serve --import FILE` starts a new database from it.

        Options:
          --database URL   sqlite:PATH or postgres://… (default sqlite:./onramp.db)
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(arguments, valueOptions: ["--database"], flagOptions: ["--help"])
            guard args.positional.count == 2, args.positional[0] == "export", !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let database = try DatabaseURL.open(args.value("--database") ?? "sqlite:./onramp.db")
            defer { database.close() }
            try database.migrate(Schema.migrations)
            try write(try StateSnapshot.export(database), to: args.positional[1])
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp state: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp state: \(error)")
            return 1
        }
    }

    /// Writes a snapshot readable only by its owner (it holds key hashes, webhook signing secrets and
    /// customer data).
    static func write(_ snapshot: JSONValue, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        // Created 0600 before any byte is written, then moved into place: never readable by others.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid())")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data((snapshot.prettyPrinted + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.moveItem(at: temporary, to: url)
    }

    /// Reads and restores `path` into a freshly migrated `database`.
    static func restore(_ path: String, into database: any Database) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try StateSnapshot.restore(try JSONParser().parse(Array(data)), into: database)
    }
}
