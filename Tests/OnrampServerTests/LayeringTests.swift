import Foundation
import Testing

/// The server's layering as ARCHITECTURE.md states it, checked on the source tree: route files hold
/// no SQL (statements live in repositories and services over the transaction's connection).
@Suite struct LayeringTests {
    static let serverSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OnrampServer")

    @Test func routeFilesHoldNoSQL() throws {
        let statement = try Regex(#"\b(SELECT\s|INSERT\s+INTO\s|UPDATE\s+[a-z_]+\s+SET\s|DELETE\s+FROM\s)"#)
        let files = try #require(FileManager.default.enumerator(atPath: Self.serverSources.path))
            .compactMap { $0 as? String }
        let routes = files.filter { $0.hasSuffix(".swift") && $0.contains("Routes") && !$0.contains("+Operations") }
        #expect(routes.count > 20, "found the route files")
        var offenders: [String] = []
        for path in routes {
            let text = try String(contentsOf: Self.serverSources.appendingPathComponent(path), encoding: .utf8)
            if text.contains(statement) { offenders.append(path) }
        }
        #expect(offenders.isEmpty, "SQL in route files: \(offenders)")
    }
}
