import Foundation
import OnrampTestSupport
import Testing

/// The server's layering as ARCHITECTURE.md states it, checked on the source tree: route files and
/// services hold no SQL (statements live in repositories and storage types over the transaction's
/// connection), and route files leave writes to services.
@Suite(.blocking) struct LayeringTests {
    static let serverSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/OnrampServer")

    /// The server's source files whose name contains `part` (not the `+Operations` descriptions).
    static func files(named part: String) throws -> [String] {
        try #require(FileManager.default.enumerator(atPath: serverSources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && $0.contains(part) && !$0.contains("+Operations") }
    }

    /// Those of `paths` that hold a SQL statement.
    static func holdingSQL(_ paths: [String]) throws -> [String] {
        let statement = try Regex(#"\b(SELECT\s|INSERT\s+INTO\s|UPDATE\s+[a-z_]+\s+SET\s|DELETE\s+FROM\s)"#)
        return try paths.filter {
            try String(contentsOf: serverSources.appendingPathComponent($0), encoding: .utf8).contains(statement)
        }
    }

    @Test func routeFilesHoldNoSQL() throws {
        let routes = try Self.files(named: "Routes")
        #expect(routes.count > 20, "found the route files")
        let offenders = try Self.holdingSQL(routes)
        #expect(offenders.isEmpty, "SQL in route files: \(offenders)")
    }

    /// A state change and the events it causes belong to a service, which commits them together; route
    /// files decode, call and render, and never open a write transaction of their own.
    @Test func routeFilesLeaveWritesToServices() throws {
        let transaction = try Regex(#"\.transaction\s*(\{|\(\s*\{)"#)
        let opening = { (paths: [String]) in
            try paths.filter {
                try String(contentsOf: Self.serverSources.appendingPathComponent($0), encoding: .utf8).contains(
                    transaction)
            }
        }
        #expect(try opening(Self.files(named: "Service")).count >= 10, "the pattern finds the services' transactions")
        let writing = try opening(Self.files(named: "Routes"))
        #expect(writing.isEmpty, "route files that write: \(writing)")
    }

    /// The API families' route files read through services too, so that what a route answers comes from
    /// the same code that changes it. The console's pages are the one exception: a read model that renders
    /// ConsoleRepository's rows, each page from one read.
    @Test func apiRouteFilesReadThroughServices() throws {
        let read = try Regex(#"\.read\s*(\{|\(\s*\{)"#)
        let reading = try Self.files(named: "Routes").filter {
            try String(contentsOf: Self.serverSources.appendingPathComponent($0), encoding: .utf8).contains(read)
        }
        #expect(
            reading.allSatisfy { $0.hasPrefix("Console/") } && !reading.isEmpty, "route files that read: \(reading)")
    }

    /// Storage types that hold their own statements though their names do not say "storage": each is
    /// a record type with its table's statements beside it, a read model, or storage upkeep. The
    /// webhook dispatcher is the one that mixes its delivery queue's SQL with sending. The list can only
    /// shrink: a listed file that no longer holds SQL fails too.
    static let storageTypesNamedForWhatTheyStore: Set<String> = [
        "Console/ConsoleProjectList.swift", "Embedded/StripeAttestation.swift", "Events/Outbox.swift",
        "Headless/Verification.swift", "Hosted/HostedOnrampSession.swift", "Link/ConsumerSession.swift",
        "Link/LinkAuthIntents.swift", "Link/LinkPaymentDetails.swift", "State/StateSnapshot.swift",
        "Support/Janitor.swift", "Support/SQLConnection+ParentLock.swift", "TestClocks/TestClock.swift",
        "Webhooks/WebhookDelivery.swift", "Webhooks/WebhookDispatcher.swift", "Webhooks/WebhookOperations.swift",
        "Webhooks/WebhookTrigger.swift",
    ]

    /// SQL lives in storage files only: repositories, records, stores, listings and schemas (named so),
    /// and the storage types listed above. Pages, authenticators, the idempotency edge and models hold
    /// none (the Link consent screen and authorize page, `StripeCaller`, `CDPAuthenticator`,
    /// `OAuthTokens` and `IdempotencyKeys` read and write through repositories).
    @Test func sqlLivesInStorageFiles() throws {
        let storageName = try Regex(#"(Repository|Record|Store|Storage|Listing|Schema|Migrations?)[.+]"#)
        let holding = try Self.holdingSQL(Self.files(named: ".swift"))
        #expect(holding.count > 30, "found the storage files")
        let unnamed = Set(holding.filter { !$0.contains(storageName) })
        #expect(
            unnamed.subtracting(Self.storageTypesNamedForWhatTheyStore).isEmpty,
            "SQL outside storage files: \(unnamed.subtracting(Self.storageTypesNamedForWhatTheyStore).sorted())")
        #expect(
            Self.storageTypesNamedForWhatTheyStore.subtracting(unnamed).isEmpty,
            "listed storage types without SQL: \(Self.storageTypesNamedForWhatTheyStore.subtracting(unnamed).sorted())")
    }

    @Test func servicesHoldNoSQL() throws {
        let services = try Self.files(named: "Service")
        #expect(services.count >= 7, "found the services")
        let offenders = try Self.holdingSQL(services)
        #expect(offenders.isEmpty, "SQL in services: \(offenders)")
    }

    /// Services take typed input and throw domain errors (``OnrampError`` and the families' refusals);
    /// each family's edge chooses the status and the error shape, so no service names an HTTP type or
    /// an error renderer.
    @Test func servicesSpeakNoHTTP() throws {
        let http = try Regex(
            #"\b(HTTPError|HTTPRequest|HTTPResponse|StripeErrors|CDPErrors|\w*ErrorRenderer|Router)\b"#)
        let speaking = { (paths: [String]) in
            try paths.filter {
                try String(contentsOf: Self.serverSources.appendingPathComponent($0), encoding: .utf8).contains(http)
            }
        }
        #expect(try speaking(Self.files(named: "Routes")).count > 20, "the pattern finds the route files' HTTP types")
        let offenders = try speaking(Self.files(named: "Service"))
        #expect(offenders.isEmpty, "services that speak HTTP: \(offenders)")
    }
}
