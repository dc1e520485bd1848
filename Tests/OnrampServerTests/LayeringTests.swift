import Foundation
import OnrampTestSupport
import Testing

/// The server's layers as ARCHITECTURE.md states them. The module graph holds the main one: `OnrampServices`
/// (services, repositories, the outbox, settlement, webhook delivery, workers) does not depend on `HTTPServer`,
/// so none of its files can name an HTTP type; `OnrampServer` (the edge) sits on top of it. What the compiler
/// cannot see is checked on the source tree here: where SQL and writes live.
@Suite(.blocking) struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The services module's sources.
    static let services = root.appendingPathComponent("Sources/OnrampServices")
    /// The edge module's sources.
    static let edge = root.appendingPathComponent("Sources/OnrampServer")

    /// The Swift files under `directory` (relative paths), but the `+Operations` descriptions.
    static func files(in directory: URL) throws -> [String] {
        try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.contains("+Operations") }
    }

    /// Those of `paths` under `directory` whose text contains `pattern`.
    static func containing(_ pattern: Regex<AnyRegexOutput>, _ paths: [String], in directory: URL) throws -> [String] {
        try paths.filter {
            try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8).contains(pattern)
        }
    }

    /// A SQL statement's opening words.
    static var sqlStatement: Regex<AnyRegexOutput> {
        get throws { try Regex(#"\b(SELECT\s|INSERT\s+INTO\s|UPDATE\s+[a-z_]+\s+SET\s|DELETE\s+FROM\s)"#) }
    }
    /// A write transaction opened.
    static var writeTransaction: Regex<AnyRegexOutput> {
        get throws { try Regex(#"\.transaction\s*(\{|\(\s*\{)"#) }
    }

    /// The services module's dependencies, as `Package.swift` declares them: the compiler refuses an
    /// `import HTTPServer` in it only as long as this list leaves `HTTPServer` (and the edge) out.
    @Test func theServicesModuleCannotImportHTTP() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try #require(
            manifest.firstMatch(of: try Regex(#"name: "OnrampServices",\s*dependencies: \[([^\]]*)\]"#)))
        let dependencies = String(try #require(target.output[1].substring))
        #expect(dependencies.contains("OnrampStore"), "found the target: \(dependencies)")
        #expect(!dependencies.contains("HTTPServer") && !dependencies.contains("\"OnrampServer\""), "\(dependencies)")
        // Nor do its files name the edge's types, even in documentation.
        let edgeNames = try Regex(#"\b(HTTPError|HTTPRequest|HTTPResponse|StripeErrors|CDPErrors|Router)\b"#)
        let naming = try Self.containing(edgeNames, Self.files(in: Self.services), in: Self.services)
        #expect(naming.isEmpty, "services files naming edge types: \(naming)")
    }

    /// The edge's public API names no storage type, and the compiler holds it to that: the edge module imports
    /// internally by default (`InternalImportsByDefault`), so a public declaration naming an `OnrampStore` type
    /// does not compile unless its file imports the store publicly, which only the storage error's HTTP
    /// conformance does (a conformance of a public type is public). The sandbox's database is `package`.
    @Test func theEdgesPublicAPINamesNoStorageType() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try #require(
            manifest.firstMatch(
                of: try Regex(#"name: "OnrampServer",\s*dependencies: \[[^\]]*\],\s*swiftSettings: \[([^\]]*)\]"#)))
        #expect(String(try #require(target.output[1].substring)).contains("InternalImportsByDefault"))
        let publicStore = try Self.containing(
            try Regex(#"(?m)^public import OnrampStore$"#), Self.files(in: Self.edge), in: Self.edge)
        #expect(publicStore == ["Support/StoreError+HTTP.swift"], "edge files importing the store publicly")
    }

    /// Storage types that hold their own statements though their names do not say "storage": each is a
    /// record type with its table's statements beside it, a read model, or storage upkeep. The list can only
    /// shrink: a listed file that no longer holds SQL fails too.
    static let storageTypesNamedForWhatTheyStore: Set<String> = [
        "OnrampServer/Console/ConsoleProjectList.swift", "OnrampServices/Embedded/StripeAttestation.swift",
        "OnrampServices/Events/Outbox.swift", "OnrampServices/Headless/Verification.swift",
        "OnrampServices/Hosted/HostedOnrampSession.swift", "OnrampServices/Link/ConsumerSession.swift",
        "OnrampServices/Link/LinkAuthIntents.swift", "OnrampServices/Link/LinkPaymentDetails.swift",
        "OnrampServices/State/StateSnapshot.swift", "OnrampServices/Support/Janitor.swift",
        "OnrampServices/Support/SQLConnection+ParentLock.swift", "OnrampServices/TestClocks/TestClock.swift",
        "OnrampServices/Webhooks/WebhookDelivery.swift", "OnrampServices/Webhooks/WebhookDispatcher.swift",
        "OnrampServices/Webhooks/WebhookOperations.swift", "OnrampServices/Webhooks/WebhookTrigger.swift",
    ]

    /// SQL lives in storage files only: repositories, records, stores, listings and schemas (named so), and
    /// the storage types listed above. In the edge, only the console's read model holds any.
    @Test func sqlLivesInStorageFiles() throws {
        let storageName = try Regex(#"(Repository|Record|Store|Storage|Listing|Schema|Migrations?)[.+]"#)
        var holding: [String] = []
        for (module, directory) in [("OnrampServices", Self.services), ("OnrampServer", Self.edge)] {
            holding += try Self.containing(try Self.sqlStatement, Self.files(in: directory), in: directory).map {
                "\(module)/\($0)"
            }
        }
        #expect(holding.count > 30, "found the storage files")
        let unnamed = Set(holding.filter { !$0.contains(storageName) })
        #expect(
            unnamed.subtracting(Self.storageTypesNamedForWhatTheyStore).isEmpty,
            "SQL outside storage files: \(unnamed.subtracting(Self.storageTypesNamedForWhatTheyStore).sorted())")
        #expect(
            Self.storageTypesNamedForWhatTheyStore.subtracting(unnamed).isEmpty,
            "listed storage types without SQL: \(Self.storageTypesNamedForWhatTheyStore.subtracting(unnamed).sorted())")
        let edgeSQL = holding.filter { $0.hasPrefix("OnrampServer/") }.sorted()
        #expect(
            edgeSQL == [
                "OnrampServer/Console/ConsoleProjectList.swift", "OnrampServer/Console/ConsoleRepository.swift",
            ],
            "SQL in the edge: \(edgeSQL)")
    }

    @Test func servicesHoldNoSQL() throws {
        let services = try Self.files(in: Self.services).filter { $0.contains("Service") }
        #expect(services.count >= 15, "found the services")
        let offenders = try Self.containing(try Self.sqlStatement, services, in: Self.services)
        #expect(offenders.isEmpty, "SQL in services: \(offenders)")
    }

    /// The edge files that open a write transaction of their own, each for a reason: the idempotency
    /// records around a Stripe request, the CDP JWT's spent nonces, the console's sign-in sessions and
    /// project actions, and the 3-D Secure test page's decision. Everything else writes through a service,
    /// which commits a state change and its events together. The list can only shrink.
    static let edgeFilesThatWrite: Set<String> = [
        "CDP/CDPAuthenticator.swift", "Console/ConsoleAccess.swift", "Console/ConsoleService.swift",
        "Embedded/HostedTestPages.swift", "Stripe/IdempotencyKeys.swift",
    ]

    @Test func theEdgeLeavesWritesToServices() throws {
        let writing = Set(try Self.containing(try Self.writeTransaction, Self.files(in: Self.edge), in: Self.edge))
        #expect(writing == Self.edgeFilesThatWrite, "edge files that write: \(writing.sorted())")
        let services = try Self.containing(try Self.writeTransaction, Self.files(in: Self.services), in: Self.services)
        #expect(services.count >= 20, "the pattern finds the services' transactions")
    }

    /// The API families' route files read through services too, so that what a route answers comes from the
    /// same code that changes it. The console's pages are the one exception: a read model that renders
    /// ConsoleRepository's rows, each page from one read.
    @Test func apiRouteFilesReadThroughServices() throws {
        let read = try Regex(#"\.read\s*(\{|\(\s*\{)"#)
        let reading = try Self.containing(
            read, Self.files(in: Self.edge).filter { $0.contains("Routes") }, in: Self.edge)
        #expect(
            reading.allSatisfy { $0.hasPrefix("Console/") } && !reading.isEmpty, "route files that read: \(reading)")
    }

    /// Each family's error shape is chosen in one place: an `HTTPError` is built only in a family's error file
    /// (`XErrors`, `X+HTTP`, `ConsoleRefusal`) or a renderer; handlers, pages, authenticators and idempotency
    /// throw field errors, domain refusals or what those files name.
    @Test func httpErrorsAreBuiltInTheFamiliesErrorFiles() throws {
        let built = try Self.containing(try Regex(#"HTTPError\("#), Self.files(in: Self.edge), in: Self.edge)
        let elsewhere = built.filter { path in
            let name = (path as NSString).lastPathComponent
            return
                !(name.hasSuffix("Errors.swift") || name.hasSuffix("+HTTP.swift") || name.contains("ErrorRenderer")
                || name == "ConsoleRefusal.swift")
        }
        #expect(built.count >= 8, "the pattern finds the error files: \(built)")
        #expect(elsewhere.isEmpty, "HTTPError built outside the error files: \(elsewhere)")
    }
}
