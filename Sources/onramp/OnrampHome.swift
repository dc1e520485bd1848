import Foundation
import OnrampCore
import OnrampWire

/// What `onramp` keeps for its user between runs, in `~/.onramp` (or `$ONRAMP_HOME`): the console token a
/// server uses when none is given (`--console-token`, `ONRAMP_CONSOLE_TOKEN`), so the console's sign-in link
/// stays the same across restarts and the CLI can reach the server's admin routes from any folder. The folder
/// is private to the user (0700) and the token file too (0600); a token file others may read is refused.
enum OnrampHome {
    /// `$ONRAMP_HOME`, or `~/.onramp`.
    static var directory: URL {
        if let home = ProcessInfo.processInfo.environment["ONRAMP_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".onramp", isDirectory: true)
    }

    static var consoleTokenFile: URL { directory.appendingPathComponent("console-token") }

    /// A problem with the kept token.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The kept console token, made on first use (24 random bytes, base64url). Two servers starting at
    /// once agree: the file is created exclusively, and the one that loses reads the winner's.
    static func consoleToken() throws -> String {
        if let token = try existingConsoleToken() { return token }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let token = Base64URL.encode(SystemRandomSource().bytes(24), padded: false)
        let descriptor = open(consoleTokenFile.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = errno
            // Another server made the file a moment ago: its token is there once that server has written it.
            if failure == EEXIST {
                for _ in 0..<50 {
                    if let token = try? existingConsoleToken() { return token }
                    usleep(10_000)
                }
                if let token = try existingConsoleToken() { return token }
            }
            throw Refusal(description: "cannot create \(consoleTokenFile.path) (errno \(failure))")
        }
        defer { close(descriptor) }
        let written = Array((token + "\n").utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == token.utf8.count + 1 else {
            throw Refusal(description: "cannot write \(consoleTokenFile.path)")
        }
        return token
    }

    /// The kept console token; nil when none was made yet.
    static func existingConsoleToken() throws -> String? {
        let path = consoleTokenFile.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard permissions & 0o077 == 0 else {
            throw Refusal(description: "\(path) may be read by others; chmod 600 it (or remove it for a new token)")
        }
        let token = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.utf8.count >= 16 else { throw Refusal(description: "\(path) holds no token; remove it") }
        return token
    }
}
