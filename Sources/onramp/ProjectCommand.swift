import AppAttest
import Foundation
import HTTPServer
import OnrampServer
import OnrampServices
import OnrampStore
import OnrampWire

/// `onramp project …`: operator commands. `create`, `list` and `revoke-key` ask the running server (its admin
/// routes, with the console token) unless `--database` names a database to work on offline; the others work on
/// the database (`--database`, or `./onramp.db` where the server started).
enum ProjectCommand {
    static let usage = """
        Usage: onramp project <subcommand> [options]

        Subcommands (the running server's, or with --database the database's):
          create --name NAME [--app-id TEAMID.BUNDLEID]... [--redirect-host HOST]... [--key-type es256|ed25519] [--live]
                 [--env]   (--env prints `export` lines for every key: eval "$(onramp project create … --env)")
          list                                  (every project: id, mode, created, name)
          revoke-key --key ID                   (for good; refused at once by the server, within a second by
                                                 every other instance on its database)

        Subcommands on the database (--database, default ./onramp.db where `onramp serve` started):
          add-app-id --project ID --app-id TEAMID.BUNDLEID
          add-redirect-host --project ID --redirect-host HOST
          create-key --project ID [--key-type es256|ed25519]
          disable-app2app --project ID          (enable-app2app to undo)
          set-environments --project ID --environment development|production [--environment …]
          add-end-partner --project ID --name NAME [--partner-id ID]
                           (makes the project an aggregator: its orders' X-Onramp-Partner-Id must name one)

        Common options:
          --server URL          The running server these ask (default http://127.0.0.1:8080)
          --console-token TOKEN Its console token (or ONRAMP_CONSOLE_TOKEN; default: the one a server started
                                without either keeps in ~/.onramp/console-token, or $ONRAMP_HOME)
          --database URL        Work on this database instead (sqlite:PATH, made if new, or postgres://…)
          --json                Print the result as JSON
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments,
                valueOptions: [
                    "--name", "--app-id", "--redirect-host", "--key-type", "--project", "--database", "--environment",
                    "--partner-id", "--server", "--console-token", "--key",
                ],
                flagOptions: ["--json", "--help", "--live", "--env"])
            guard let subcommand = args.positional.first, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            if ["create", "list", "revoke-key"].contains(subcommand), args.value("--database") == nil {
                return try throughServer(subcommand, args)
            }
            let database = try CommandDatabase.open(args)
            defer { database.close() }
            try database.migrate(Schema.migrations)
            let provisioner = ProjectProvisioner(database: database)
            let output: JSONValue
            switch subcommand {
            case "create":
                guard let name = args.value("--name"), !name.isEmpty else {
                    throw Arguments.UsageError(description: "create needs --name")
                }
                let credentials = try provisioner.createProject(
                    name: name, appIds: args.values("--app-id"), redirectHosts: args.values("--redirect-host"),
                    keyType: try keyType(args), livemode: args.flag("--live"))
                return printCreated(credentials.json, args)
            case "list":
                return printList(
                    try provisioner.listProjects().map {
                        (
                            id: $0.id, name: $0.name, livemode: $0.livemode,
                            created: Timestamp.rfc3339(milliseconds: $0.createdAt)
                        )
                    }, args)
            case "revoke-key":
                let id = try required(args, "--key")
                guard let key = try provisioner.revokeKey(id: id) else {
                    throw Arguments.UsageError(description: "no API key \(id)")
                }
                output = ["id": .string(key.id), "projectId": .string(key.projectId), "revoked": .bool(key.disabled)]
            case "add-app-id":
                let project = try required(args, "--project")
                try provisioner.addAppId(try required(args, "--app-id"), projectId: project)
                output = ["projectId": .string(project), "appId": .string(try required(args, "--app-id"))]
            case "add-redirect-host":
                let project = try required(args, "--project")
                try provisioner.addRedirectHost(try required(args, "--redirect-host"), projectId: project)
                output = [
                    "projectId": .string(project), "redirectHost": .string(try required(args, "--redirect-host")),
                ]
            case "create-key":
                let project = try required(args, "--project")
                let key = try provisioner.createKey(projectId: project, keyType: try keyType(args))
                output = [
                    "projectId": .string(project), "cdpApiKeyId": .string(key.id),
                    "cdpApiKeySecret": .string(key.secret),
                ]
            case "disable-app2app", "enable-app2app":
                let project = try required(args, "--project")
                try provisioner.setApp2AppEnabled(subcommand == "enable-app2app", projectId: project)
                output = ["projectId": .string(project), "app2appEnabled": .bool(subcommand == "enable-app2app")]
            case "set-environments":
                let project = try required(args, "--project")
                let names = args.values("--environment")
                let environments = names.compactMap(AppAttestEnvironment.init(rawValue:))
                guard environments.count == names.count else {
                    throw Arguments.UsageError(description: "environments are development and/or production")
                }
                try provisioner.setAllowedEnvironments(Set(environments), projectId: project)
                output = [
                    "projectId": .string(project),
                    "environments": .array(args.values("--environment").map(JSONValue.string)),
                ]
            case "add-end-partner":
                let project = try required(args, "--project")
                let partnerId = try provisioner.addEndPartner(
                    name: try required(args, "--name"), partnerId: args.value("--partner-id"), projectId: project)
                output = ["projectId": .string(project), "partnerId": .string(partnerId)]
            default:
                throw Arguments.UsageError(description: "unknown subcommand \(subcommand)")
            }
            if args.flag("--json") {
                print(output.serializedString)
            } else if case .object(let members) = output {
                for (name, value) in members { print("\(name): \(value.stringValue ?? value.serializedString)") }
            }
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp project: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp project: \(error)")
            return 1
        }
    }

    /// `create`, `list` and `revoke-key` through the running server's admin routes.
    private static func throughServer(_ subcommand: String, _ args: Arguments) throws -> Int32 {
        let server = try ServerConnection.from(args)
        if subcommand == "revoke-key" {
            let revoked = try server.post("/console/api/keys/revoke", ["id": .string(try required(args, "--key"))])
            if args.flag("--json") {
                print(revoked.serializedString)
            } else {
                print(
                    "revoked \(revoked["id"]?.stringValue ?? "") of project \(revoked["projectId"]?.stringValue ?? "")")
            }
            return 0
        }
        if subcommand == "list" {
            let answer = try server.get("/console/api/projects")
            guard case .array(let projects) = answer["data"] else {
                throw ServerConnection.Failure(description: "\(server.base) answered an unexpected project list")
            }
            return printList(
                projects.map {
                    (
                        id: $0["id"]?.stringValue ?? "", name: $0["name"]?.stringValue ?? "",
                        livemode: $0["livemode"]?.boolValue ?? false, created: $0["created"]?.stringValue ?? ""
                    )
                }, args)
        }
        guard let name = args.value("--name"), !name.isEmpty else {
            throw Arguments.UsageError(description: "create needs --name")
        }
        let keyType = try keyType(args)
        let created = try server.post(
            "/console/api/projects",
            [
                "name": .string(name), "appIds": .array(args.values("--app-id").map(JSONValue.string)),
                "redirectHosts": .array(args.values("--redirect-host").map(JSONValue.string)),
                "keyType": .string(keyType.rawValue), "livemode": .bool(args.flag("--live")),
            ])
        return printCreated(created, args)
    }

    /// Prints a new project's credentials: `export` lines with `--env`, JSON with `--json`, else one per line.
    private static func printCreated(_ credentials: JSONValue, _ args: Arguments) -> Int32 {
        if args.flag("--env") {
            print(exports(credentials))
        } else if args.flag("--json") {
            print(credentials.serializedString)
        } else if case .object(let members) = credentials {
            for (name, value) in members { print("\(name): \(value.stringValue ?? value.serializedString)") }
        }
        return 0
    }

    /// Prints the projects, one line each (or JSON with `--json`).
    private static func printList(
        _ projects: [(id: String, name: String, livemode: Bool, created: String)], _ args: Arguments
    ) -> Int32 {
        if args.flag("--json") {
            let list = projects.map { project -> JSONValue in
                [
                    "projectId": .string(project.id), "name": .string(project.name),
                    "livemode": .bool(project.livemode), "created": .string(project.created),
                ]
            }
            print(JSONValue.array(list).serializedString)
            return 0
        }
        for project in projects {
            print("\(project.id)  \(project.livemode ? "live" : "test")  \(project.created)  \(project.name)")
        }
        if projects.isEmpty { print("No projects yet: onramp project create --name NAME") }
        return 0
    }

    /// The `export` name of each credential a new project answers with.
    private static let exportNames = [
        ("projectId", "ONRAMP_PROJECT"), ("cdpApiKeyId", "CDP_API_KEY_ID"), ("cdpApiKeySecret", "CDP_API_KEY_SECRET"),
        ("stripeSecretKey", "STRIPE_SECRET_KEY"), ("stripePublishableKey", "STRIPE_PUBLISHABLE_KEY"),
        ("oauthClientId", "LINK_OAUTH_CLIENT_ID"), ("oauthClientSecret", "LINK_OAUTH_CLIENT_SECRET"),
    ]

    /// `export` lines for every key of a new project, each value single-quoted for the shell (a PEM key keeps
    /// its line breaks inside the quotes).
    static func exports(_ credentials: JSONValue) -> String {
        exportNames.map { key, name in
            let value = credentials[key]?.stringValue ?? ""
            return "export \(name)='\(value.replacingOccurrences(of: "'", with: "'\\''"))'"
        }.joined(separator: "\n")
    }

    private static func required(_ args: Arguments, _ name: String) throws -> String {
        guard let value = args.value(name), !value.isEmpty else {
            throw Arguments.UsageError(description: "missing \(name)")
        }
        return value
    }

    private static func keyType(_ args: Arguments) throws -> ProjectProvisioner.KeyType {
        guard let type = ProjectProvisioner.KeyType(rawValue: args.value("--key-type") ?? "es256") else {
            throw Arguments.UsageError(description: "--key-type is es256 or ed25519")
        }
        return type
    }
}
