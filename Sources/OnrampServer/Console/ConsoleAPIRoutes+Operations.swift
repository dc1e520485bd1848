import HTTPServer
import OnrampServices
import OnrampWire

extension ConsoleAPIRoutes {
    /// The console's JSON routes: the console token as a bearer token, plain JSON errors.
    enum Operations {
        private static let security = [["consoleToken"]]

        /// A project as the list shows it.
        static let project = APISchema.object(
            [
                "id": .string, "name": .string, "livemode": .boolean,
                "created": .string.described("RFC 3339, UTC."),
            ], required: ["id", "name", "livemode", "created"])

        /// A new project's credentials; each secret appears in this answer only.
        static let credentials = APISchema.object(
            [
                "projectId": .string, "cdpApiKeyId": .string, "cdpApiKeySecret": .string,
                "stripeSecretKey": .string, "stripePublishableKey": .string, "oauthClientId": .string,
                "oauthClientSecret": .string,
            ],
            required: [
                "projectId", "cdpApiKeyId", "cdpApiKeySecret", "stripeSecretKey", "stripePublishableKey",
                "oauthClientId", "oauthClientSecret",
            ])

        /// What a new project is made with.
        static let createRequest = APISchema.object(
            [
                "name": .string(minLength: 1, maxLength: 200),
                "appIds": .array(.string(maxLength: 200)).described("TEAMID.BUNDLEID, at most 20."),
                "redirectHosts": .array(.string(maxLength: 253)).described("Hosts or `scheme://`, at most 20."),
                "keyType": .enumeration(["es256", "ed25519"]), "livemode": .boolean,
            ], required: ["name"])

        /// `GET /console/api/projects`.
        static let listProjects = APIOperation(
            "GET /console/api/projects", id: "listConsoleAPIProjects", summary: "Lists every project, oldest first.",
            tag: "Console", security: security,
            responses: [
                .json(
                    200, "The projects.",
                    .object(["object": .constant("list"), "data": .array(project)], required: ["object", "data"]))
            ] + OperationsRoutes.Operations.errors)

        /// A request-log entry.
        static let logEntry = APISchema.object(
            [
                "requestId": .string, "time": .string.described("When it was answered, RFC 3339."), "method": .string,
                "route": .string.described("The route pattern, not the path."), "status": .integer,
                "latencyMs": .string, "projectId": .string, "errorCode": .string, "errorMessage": .string,
            ], required: ["requestId", "time", "method", "route", "status", "latencyMs"])

        /// `GET /console/api/requests`.
        static let listRequests = APIOperation(
            "GET /console/api/requests", id: "listConsoleAPIRequests",
            summary: "The request log after the request `after` (all it keeps when absent), oldest first, 200 at most.",
            tag: "Console", security: security,
            query: [
                APIParameter("after", APISchema.string(maxLength: 64).described("A request id from a previous answer."))
            ],
            responses: [
                .json(
                    200, "The requests.",
                    .object(["object": .constant("list"), "data": .array(logEntry)], required: ["object", "data"]))
            ] + OperationsRoutes.Operations.errors)

        /// `POST /console/api/projects`.
        static let createProject = APIOperation(
            "POST /console/api/projects", id: "createConsoleAPIProject",
            summary: "Creates a project with one key of each kind and answers its secrets, once.", tag: "Console",
            security: security, body: .json(createRequest),
            responses: [.json(201, "The project's credentials.", credentials)] + OperationsRoutes.Operations.errors)

        /// `POST /console/api/events/redeliver`.
        static let redeliverEvent = APIOperation(
            "POST /console/api/events/redeliver", id: "redeliverConsoleAPIEvent",
            summary: "Delivers an event again to every endpoint it went to (not a live-mode Stripe event).",
            tag: "Console", security: security,
            body: .json(.object(["id": .string(minLength: 1, maxLength: 128)], required: ["id"])),
            responses: [
                .json(
                    200, "Whether a delivery was queued again.",
                    .object(["id": .string(), "redelivered": .boolean], required: ["id", "redelivered"]))
            ] + OperationsRoutes.Operations.errors)
        /// `POST /console/api/keys/revoke`.
        static let revokeKey = APIOperation(
            "POST /console/api/keys/revoke", id: "revokeConsoleAPIKey",
            summary:
                "Revokes an API key for good: refused at once on this instance, within a second on the others.",
            tag: "Console", security: security,
            body: .json(.object(["id": .string(minLength: 1, maxLength: 256)], required: ["id"])),
            responses: [
                .json(
                    200, "The key as it now stands.",
                    .object(
                        ["id": .string(), "projectId": .string(), "revoked": .boolean],
                        required: ["id", "projectId", "revoked"]))
            ] + OperationsRoutes.Operations.errors)
    }
}
