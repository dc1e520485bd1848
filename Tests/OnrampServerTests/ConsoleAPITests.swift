import Foundation
import HTTPServer
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Testing

@testable import OnrampServices

/// The console's JSON routes the CLI calls (`/console/api/projects`): the console token as a bearer token only,
/// loopback only by default, plain JSON errors, and a project made through them is a real one.
@Suite(.blocking) struct ConsoleAPITests {
    static func bearer(_ server: TestServer) -> [(String, String)] {
        [("Authorization", "Bearer \(server.application.consoleToken)")]
    }

    static func projectIds(_ server: TestServer) throws -> [String] {
        let list = try server.request("GET", "/console/api/projects", headers: bearer(server))
        #expect(list.status == 200, "\(list.body)")
        guard case .array(let projects) = list.body["data"] else { return [] }
        return projects.compactMap { $0["id"]?.stringValue }
    }

    @Test(arguments: DatabaseDriver.all)
    func aProjectMadeThroughTheAPIIsListedAndItsKeysWork(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let created = try server.request(
            "POST", "/console/api/projects",
            json: [
                "name": "CLI Wallet", "appIds": ["ABCDE12345.com.example.cli"], "redirectHosts": ["cli.example.com"],
                "keyType": "ed25519",
            ], headers: Self.bearer(server))
        #expect(created.status == 201, "\(created.body)")
        let projectId = try #require(created.body["projectId"]?.stringValue)
        let secretKey = try #require(created.body["stripeSecretKey"]?.stringValue)
        #expect(secretKey.hasPrefix("sk_test_"))
        for field in ["cdpApiKeyId", "cdpApiKeySecret", "stripePublishableKey", "oauthClientId", "oauthClientSecret"] {
            #expect(created.body[field]?.stringValue?.isEmpty == false, "\(field)")
        }
        #expect(try Self.projectIds(server) == [server.projectId, projectId], "oldest first")
        let listed = try server.request("GET", "/console/api/projects", headers: Self.bearer(server))
        #expect(listed.body["object"] == "list")
        guard case .array(let projects) = listed.body["data"] else { throw ConsoleAPIAnswerError() }
        #expect(projects.last?["name"] == "CLI Wallet" && projects.last?["livemode"] == false)
        // The new secret key is a working key of the new project.
        let endpoints = try server.request(
            "GET", "/v1/webhook_endpoints", headers: [("Authorization", "Bearer \(secretKey)")])
        #expect(endpoints.status == 200, "\(endpoints.body)")
        #expect(
            try server.count(
                "SELECT COUNT(*) AS n FROM project_app_ids WHERE project_id = ? AND app_id = ?",
                [.text(projectId), .text("ABCDE12345.com.example.cli")]) == 1)
    }

    @Test(arguments: DatabaseDriver.all)
    func refusalsAnswerPlainErrorsAndWriteNothing(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let before = try Self.projectIds(server)
        func create(_ body: String, headers: [(String, String)]) throws -> (Int, JSONValue) {
            var request = HTTPRequest(method: "POST", path: "/console/api/projects", body: Array(body.utf8))
            request.remoteAddress = "127.0.0.1"
            request.headers.add("Content-Type", "application/json")
            for (name, value) in headers { request.headers.add(name, value) }
            let response = server.application.router.respond(to: request).response
            return (response.status, (try? JSONParser().parse(response.body)) ?? .null)
        }
        let valid = #"{"name":"Refused"}"#
        // No token, a wrong one, and the console's sign-in cookie (a browser's credential) are all refused.
        for headers in [
            [], [("Authorization", "Bearer not-the-console-token")],
            [("Cookie", ConsoleTests.sessionCookie(server.application))],
        ] {
            let (status, body) = try create(valid, headers: headers)
            #expect(status == 401, "\(headers): \(body)")
            #expect(body["error"]?["code"] == "console_token_required", "\(body)")
        }
        // From another address, token or not.
        var remote = HTTPRequest(method: "GET", path: "/console/api/projects")
        remote.remoteAddress = "203.0.113.9"
        remote.headers.add("Authorization", "Bearer \(server.application.consoleToken)")
        let refusedRemote = server.application.router.respond(to: remote).response
        #expect(refusedRemote.status == 403)
        #expect(!String(decoding: refusedRemote.body, as: UTF8.self).contains(server.projectId))
        // Bad input: each is a 400 naming the field, in the plain error shape.
        for (body, param) in [
            (#"{}"#, "name"), (#"{"name":""}"#, "name"), (#"{"name":"x","keyType":"rsa"}"#, "keyType"),
            (#"{"name":"x","colour":"blue"}"#, "colour"), (#"{"name":"x","appIds":"not-a-list"}"#, "appIds"),
            (#"{"name":"x","livemode":"yes"}"#, "livemode"), (#"{"name":"x","livemode":null}"#, "livemode"),
            (#"{"name":"x","keyType":null}"#, "keyType"), (#"{"name":0}"#, "name"),
            (#"{"name":"x","appIds":[1]}"#, "appIds"),
            ("{\"name\":\"\(String(repeating: "n", count: 201))\"}", "name"),
        ] {
            let (status, answer) = try create(body, headers: Self.bearer(server))
            #expect(status == 400, "\(body): \(answer)")
            #expect(answer["error"]?["code"] == "invalid_request" && answer["error"]?["param"]?.stringValue == param)
        }
        let (badAppStatus, badApp) = try create(
            #"{"name":"x","appIds":["not-an-app-id"]}"#, headers: Self.bearer(server))
        #expect(badAppStatus == 400 && badApp["error"]?["code"] == "invalid_request", "\(badApp)")
        let (notJSONStatus, _) = try create("name=x", headers: Self.bearer(server))
        #expect(notJSONStatus == 400)
        let (arrayStatus, array) = try create(#"["x"]"#, headers: Self.bearer(server))
        #expect(arrayStatus == 400 && array["error"]?["code"] == "invalid_request", "\(array)")
        #expect(try Self.projectIds(server) == before, "no refused request made a project")
    }
}

private struct ConsoleAPIAnswerError: Error {}
