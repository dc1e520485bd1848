import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The console's JSON routes for the command line (`onramp project list`, `onramp project create`,
/// `onramp project revoke-key`, `onramp logs tail`, `onramp demo --server`): the
/// same operator as the pages, but only by `Authorization: Bearer` with the console token (a cookie never
/// authorizes them, so no page in a browser can drive them) and from loopback unless the console allows
/// remote addresses. Errors are the server's plain JSON errors.
struct ConsoleAPIRoutes: Sendable {
    let access: ConsoleAccess
    let provisioner: ProjectProvisioner
    let requestLog: RequestLog
    /// Redelivers events (`onramp demo --server`'s at-least-once step).
    let webhooks: WebhookOperations

    func register(on router: inout Router) {
        router.setErrorRenderer(PlainErrorRenderer(), forPathPrefix: "/console/api/")
        router.add(Operations.listProjects) { request in
            try access.authorizeBearer(request)
            return Operations.listProjects.success(try listProjects())
        }
        router.add(Operations.listRequests) { request in
            try access.authorizeBearer(request)
            let after = request.queryValue("after")
            guard after.map({ $0.utf8.count <= 64 }) ?? true else {
                throw ConsoleRefusal.invalid("after is a request id.", param: "after")
            }
            let entries = requestLog.after(after, limit: 200).filter { $0.route != "/console/api/requests" }
            return Operations.listRequests.success(["object": "list", "data": .array(entries.map(Self.json))])
        }
        router.add(Operations.createProject) { request in
            try access.authorizeBearer(request)
            return Operations.createProject.success(try createProject(try request.jsonBody()))
        }
        router.add(Operations.redeliverEvent) { request in
            try access.authorizeBearer(request)
            let id = try RequestFields(try request.jsonBody()).required("id", maxLength: 128)
            guard let event = try webhooks.database.read({ try ConsoleRepository(connection: $0).event(id) }) else {
                throw ConsoleRefusal.notFound("No event \(id).", param: "id")
            }
            guard !(try event.string("family") == "stripe" && event.int("livemode") != 0) else {
                throw ConsoleRefusal.invalid(
                    "A live-mode Stripe event is not redelivered.",
                    param: "id")
            }
            return Operations.redeliverEvent.success(
                ["id": .string(id), "redelivered": .bool(try webhooks.redeliver(eventId: id))])
        }
        router.add(Operations.revokeKey) { request in
            try access.authorizeBearer(request)
            let id = try RequestFields(try request.jsonBody()).required("id", maxLength: 256)
            guard let key = try provisioner.revokeKey(id: id) else {
                throw ConsoleRefusal.notFound("No API key \(id).", param: "id")
            }
            return Operations.revokeKey.success(
                ["id": .string(key.id), "projectId": .string(key.projectId), "revoked": .bool(key.disabled)])
        }
    }

    /// Every project, oldest first.
    func listProjects() throws -> JSONValue {
        let projects = try provisioner.listProjects().map { project -> JSONValue in
            [
                "id": .string(project.id), "name": .string(project.name),
                "livemode": .bool(project.livemode),
                "created": .string(Timestamp.rfc3339(milliseconds: project.createdAt)),
            ]
        }
        return ["object": "list", "data": .array(projects)]
    }

    /// A new project and its credentials, each secret shown this once.
    func createProject(_ body: JSONValue) throws -> JSONValue {
        let fields = RequestFields(body)
        guard case .object(let members) = body else {
            throw FieldError(code: "invalid_request", message: "The body must be a JSON object.")
        }
        if let unknown = members.first(where: { !Self.createFields.contains($0.0) }) {
            throw fields.invalid(unknown.0, "Unknown field \(unknown.0); the fields are \(Self.createFields.sorted()).")
        }
        for (field, value) in members where !Self.hasItsType(field, value) {
            throw fields.invalid(field, "\(field) must be \(Self.typeNames[field] ?? "something else").")
        }
        let name = try fields.required("name", maxLength: 200)
        let appIds = try fields.optionalList("appIds", maxCount: 20, maxLength: 200) ?? []
        let redirectHosts = try fields.optionalList("redirectHosts", maxCount: 20, maxLength: 253) ?? []
        let keyTypeName = try fields.optional("keyType", maxLength: 16) ?? "es256"
        guard let keyType = ProjectProvisioner.KeyType(rawValue: keyTypeName) else {
            throw fields.invalid("keyType", "keyType must be es256 or ed25519.")
        }
        let credentials: ProjectProvisioner.Credentials
        do {
            credentials = try provisioner.createProject(
                name: name, appIds: appIds, redirectHosts: redirectHosts, keyType: keyType,
                livemode: try fields.optionalBool("livemode") ?? false)
        } catch let refusal as ProjectProvisioner.ProvisioningError {
            throw ConsoleRefusal.invalid(refusal.message)
        }
        return credentials.json
    }

    /// A request-log entry as `onramp logs tail` reads it.
    static func json(_ entry: RequestLog.Entry) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("requestId", .string(entry.requestId)),
            ("time", .string(Timestamp.rfc3339(milliseconds: Timestamp.milliseconds(entry.time)))),
            ("method", .string(entry.method)), ("route", .string(entry.route)),
            ("status", .integer(Int64(entry.status))),
            ("latencyMs", .string(String(format: "%.1f", entry.seconds * 1000))),
        ]
        if let project = entry.projectId { members.append(("projectId", .string(project))) }
        if let code = entry.errorCode { members.append(("errorCode", .string(code))) }
        if let message = entry.errorMessage { members.append(("errorMessage", .string(message))) }
        return .object(members)
    }

    static let createFields: Set<String> = ["name", "appIds", "redirectHosts", "keyType", "livemode"]

    /// What each field must be: JSON's own types, never a number for a name or null for a default.
    static let typeNames = [
        "name": "a string", "appIds": "an array of strings", "redirectHosts": "an array of strings",
        "keyType": "a string", "livemode": "true or false",
    ]

    private static func hasItsType(_ field: String, _ value: JSONValue) -> Bool {
        switch (field, value) {
        case ("name", .string), ("keyType", .string), ("livemode", .bool): true
        case ("appIds", .array(let items)), ("redirectHosts", .array(let items)):
            items.allSatisfy { if case .string = $0 { true } else { false } }
        default: false
        }
    }
}
