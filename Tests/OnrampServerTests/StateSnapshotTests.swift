import Foundation
import HTTPServer
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// `onramp state export` and `serve --import`: a saved sandbox restores into a new database on either
/// driver and the same purchase flow runs from it; a file that does not fit is refused and writes nothing.
@Suite(.serialized, .blocking) struct StateSnapshotTests {
    /// Registers a device and settles one purchase; returns the device.
    static func settledPurchase(on server: TestServer, device: inout TestDevice) throws {
        let challenge = try device.purchaseChallenge(device.purchase())
        #expect(challenge.status == 201, "\(challenge.body)")
        let session = try device.createSession(challenge: challenge.body["challenge"]?.stringValue ?? "")
        #expect(session.status == 201, "\(session.body)")
        let url = try #require(session.body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
    }

    static func settledCount(_ server: TestServer) throws -> Int {
        let path = "/onramp/v1/buy/user/user-1/transactions"
        for _ in 0..<1500 {
            let listed = try server.request(
                "GET", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
            let all = listed.body["transactions"]?.arrayValue ?? []
            if !all.isEmpty, all.allSatisfy({ $0["status"] == "ONRAMP_TRANSACTION_STATUS_SUCCESS" }) {
                return all.count
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return -1
    }

    @Test(arguments: DatabaseDriver.all)
    func theSamePurchaseFlowRunsFromAnImportedState(driver: DatabaseDriver) throws {
        let original = try TestServer(driver: driver)
        var device = try TestDevice(server: original)
        try device.registerKey()
        try Self.settledPurchase(on: original, device: &device)
        #expect(try Self.settledCount(original) == 1)
        // Through the file's text, as `onramp state export` writes it and `serve --import` reads it.
        let file = try JSONParser().parse(Array(try StateSnapshot.export(original.database).prettyPrinted.utf8))
        #expect(file["format"] == "onramp-state" && file["version"] == .integer(1))

        let restored = try TestServer(driver: driver, restoring: (file, original.credentials))
        #expect(try Self.settledCount(restored) == 1, "the saved transaction is there")
        device.server = restored  // the same App Attest key, registered in the saved state, counter and all
        try Self.settledPurchase(on: restored, device: &device)
        #expect(try Self.settledCount(restored) == 2)
        #expect(
            try restored.count("SELECT COUNT(*) AS n FROM app_attest_keys")
                == (try original.count("SELECT COUNT(*) AS n FROM app_attest_keys")))
    }

    @Test(arguments: DatabaseDriver.all)
    func aFileThatDoesNotFitIsRefusedAndWritesNothing(driver: DatabaseDriver) throws {
        let original = try TestServer(driver: driver)
        let snapshot = try StateSnapshot.export(original.database)
        // Into a database that already holds a project.
        let occupied = try TestServer(driver: driver)
        #expect(throws: StateSnapshot.RestoreError.self) {
            try StateSnapshot.restore(snapshot, into: occupied.database)
        }
        #expect(try occupied.count("SELECT COUNT(*) AS n FROM projects") == 1)
        // A file from another schema, or naming a table this schema lacks, into an empty database.
        let empty = try OnrampSandbox(databaseURL: nil, workerInterval: nil)
        defer { empty.shutdown() }
        func altered(_ member: String, _ value: JSONValue) -> JSONValue {
            guard case .object(let members) = snapshot else { return snapshot }
            return .object(members.map { $0.0 == member ? ($0.0, value) : $0 })
        }
        #expect(throws: StateSnapshot.RestoreError.self) {
            try StateSnapshot.restore(altered("schema", .integer(1)), into: empty.database)
        }
        var tables = snapshot["tables"]?.objectValue ?? []
        tables.append(("not_a_table", ["columns": ["x"], "rows": []]))
        #expect(throws: StateSnapshot.RestoreError.self) {
            try StateSnapshot.restore(altered("tables", .object(tables)), into: empty.database)
        }
        // A row that does not fit its table, after good rows: the transaction writes none of them.
        var broken = snapshot["tables"]?.objectValue ?? []
        if let index = broken.firstIndex(where: { $0.0 == "api_keys" }) {
            broken[index].1 = ["columns": ["id", "no_such_column"], "rows": [["k", "v"]]]
        }
        #expect(throws: StateSnapshot.RestoreError.self) {
            try StateSnapshot.restore(altered("tables", .object(broken)), into: empty.database)
        }
        #expect(try empty.database.read { try $0.query("SELECT COUNT(*) AS n FROM projects", []).first?.int("n") } == 0)
    }

    /// Every value is checked against its column before a row is written: bytes in a text column (which the
    /// console then failed to show, 500) and a test clock's offset beyond the API's bound (which trapped the
    /// server on its first call) are refused, and nothing of the file is written.
    @Test(arguments: DatabaseDriver.all)
    func valuesAreCheckedAgainstTheirColumns(driver: DatabaseDriver) throws {
        let original = try TestServer(driver: driver)
        let snapshot = try StateSnapshot.export(original.database)
        let empty = try OnrampSandbox(databaseURL: nil, workerInterval: nil)
        defer { empty.shutdown() }
        func with(_ table: String, _ columns: [String], _ row: [JSONValue]) -> JSONValue {
            guard case .object(let members) = snapshot else { return snapshot }
            var tables = snapshot["tables"]?.objectValue ?? []
            tables.removeAll { $0.0 == table }
            tables.append((table, ["columns": .array(columns.map { .string($0) }), "rows": [.array(row)]]))
            return .object(members.map { $0.0 == "tables" ? ($0.0, .object(tables)) : $0 })
        }
        let projectId = JSONValue.string(original.credentials.projectId)
        let cases: [(String, JSONValue)] = [
            (
                "bytes in a text column",
                with("projects", ["id", "name", "created_at"], [projectId, ["base64": "AAE="], 1])
            ),
            ("text in an integer column", with("projects", ["id", "name", "created_at"], [projectId, "x", "soon"])),
            (
                "an offset of Int64.max",
                with(
                    "test_clocks", ["project_id", "offset_ms", "updated_at"], [projectId, .integer(Int(Int64.max)), 1])
            ),
            ("a negative offset", with("test_clocks", ["project_id", "offset_ms", "updated_at"], [projectId, -1, 1])),
        ]
        for (name, file) in cases {
            #expect(throws: StateSnapshot.RestoreError.self, "\(name)") {
                try StateSnapshot.restore(file, into: empty.database)
            }
        }
        #expect(try empty.database.read { try $0.query("SELECT COUNT(*) AS n FROM projects", []).first?.int("n") } == 0)
        // A clock within the bound restores.
        try StateSnapshot.restore(
            with("test_clocks", ["project_id", "offset_ms", "updated_at"], [projectId, 86_400_000, 1]),
            into: empty.database)
    }
}
