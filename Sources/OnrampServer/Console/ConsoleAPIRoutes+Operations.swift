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

        /// `POST /console/api/projects`.
        static let createProject = APIOperation(
            "POST /console/api/projects", id: "createConsoleAPIProject",
            summary: "Creates a project with one key of each kind and answers its secrets, once.", tag: "Console",
            security: security, body: .json(createRequest),
            responses: [.json(201, "The project's credentials.", credentials)] + OperationsRoutes.Operations.errors)
    }
}
