import CPostgres
import Foundation

/// Opens a ``Database`` from a URL string.
///
/// Accepted forms:
/// - `sqlite:PATH` (also `sqlite://PATH`), and `sqlite::memory:` for a throw-away in-memory database;
///   `?synchronous=normal` trades the fsync of every commit for speed (still safe from process
///   crashes; a power loss may drop the last commits), the default is `full`;
/// - `postgres://user:password@host:port/db?…` or `postgresql://…`, any libpq URI; the extra query
///   parameters `pool_size` (connections) and `pool_timeout` (seconds to wait for one) configure the
///   pool and are not passed to libpq;
/// - a libpq `key=value` conninfo string such as `host=127.0.0.1 port=5432 dbname=onramp`.
///
/// Error messages never repeat the URL, which may hold a password.
public enum DatabaseURL {
    /// Opens the database `url` names; throws `invalidURL` for a string in none of the forms above.
    public static func open(_ url: String) throws -> any Database {
        let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if url == "sqlite::memory:" {
            return try SQLiteDatabase(path: ":memory:")
        }
        if url.hasPrefix("sqlite:") {
            var path = url.dropFirst("sqlite:".count)
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            var configuration = SQLiteDatabase.Configuration()
            if let mark = path.firstIndex(of: "?") {
                let query = path[path.index(after: mark)...]
                path = path[..<mark]
                for pair in query.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, parts[0] == "synchronous",
                        let level = SQLiteDatabase.Synchronous(rawValue: parts[1].uppercased())
                    else { throw StoreError(.invalidURL, "the only sqlite: option is synchronous=full|normal") }
                    configuration.synchronous = level
                }
            }
            guard !path.isEmpty else { throw StoreError(.invalidURL, "the sqlite: URL names no file") }
            return try SQLiteDatabase(path: String(path), configuration: configuration)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let (conninfo, configuration) = try poolOptions(url)
            try validate(conninfo)
            return try PostgresDatabase(conninfo: conninfo, configuration: configuration)
        }
        if url.contains("=") && !url.contains("://") {
            try validate(url)
            return try PostgresDatabase(conninfo: url)
        }
        throw StoreError(
            .invalidURL, "expected sqlite:PATH, postgres://…, postgresql://… or a key=value conninfo")
    }

    /// Removes `pool_size` and `pool_timeout` from a URI's query and returns them as a configuration.
    private static func poolOptions(
        _ url: String
    ) throws -> (String, PostgresDatabase.Configuration) {
        var configuration = PostgresDatabase.Configuration()
        guard let mark = url.firstIndex(of: "?") else { return (url, configuration) }
        var kept: [Substring] = []
        for item in url[url.index(after: mark)...].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            let value = pair.count == 2 ? Int(pair[1]) : nil
            switch pair.first {
            case "pool_size":
                guard let value, value > 0 else {
                    throw StoreError(.invalidURL, "pool_size must be a positive integer")
                }
                configuration.poolSize = value
            case "pool_timeout":
                guard let value, value > 0 else {
                    throw StoreError(.invalidURL, "pool_timeout must be a positive number of seconds")
                }
                configuration.acquireTimeout = .seconds(value)
            default:
                kept.append(item)
            }
        }
        let base = url[..<mark]
        return (kept.isEmpty ? String(base) : "\(base)?\(kept.joined(separator: "&"))", configuration)
    }

    /// Lets libpq parse `conninfo` without connecting, so that syntax errors become `invalidURL`.
    private static func validate(_ conninfo: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            if let message { PQfreemem(message) }
            throw StoreError(.invalidURL, "libpq rejected the PostgreSQL connection string")
        }
        PQconninfoFree(options)
    }
}
