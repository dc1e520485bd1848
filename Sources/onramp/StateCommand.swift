import Foundation
import OnrampServer
import OnrampServices
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
            let database = try CommandDatabase.open(args)
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

    /// Why a snapshot cannot be written to a path: it names something other than a regular file.
    struct DestinationError: Error, CustomStringConvertible {
        let path: String
        let kind: String
        var description: String {
            "\(path) is \(kind); a snapshot is written to a file (a new path, or a regular file it replaces), "
                + "never over a directory"
        }
    }

    /// Refuses a destination that exists and is not a regular file (a directory, a link, a device): the
    /// snapshot replaces a file it is given, never anything else. `serve --export-on-exit` checks this at
    /// start, before the state it would save at exit exists.
    static func checkDestination(_ path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw DestinationError(path: path, kind: "not accessible") }
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw DestinationError(path: path, kind: "a directory")
        case S_IFLNK: throw DestinationError(path: path, kind: "a symbolic link")
        default: throw DestinationError(path: path, kind: "not a regular file")
        }
    }

    /// Writes a snapshot readable only by its owner (it holds key hashes, webhook signing secrets and
    /// customer data): to a temporary file beside `path`, created 0600 before any byte is written, then
    /// renamed over `path` in one step (`rename(2)`), which replaces a regular file and nothing else.
    static func write(_ snapshot: JSONValue, to path: String) throws {
        try checkDestination(path)
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid())")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data((snapshot.prettyPrinted + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        do {
            // Checked again just before: what appeared meanwhile is refused, not replaced.
            try checkDestination(path)
            guard rename(temporary.path, url.path) == 0 else {
                throw DestinationError(path: path, kind: "not replaceable (\(String(cString: strerror(errno))))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Reads and restores `path` into a freshly migrated `database`.
    static func restore(_ path: String, into database: any Database) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try StateSnapshot.restore(try JSONParser().parse(Array(data)), into: database)
    }
}
