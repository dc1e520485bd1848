import AppAttest
import Foundation
import HTTPServer
import OnrampServer
import OnrampServices
import OnrampStore
import OnrampWire

/// `onramp project …`: operator commands on the same database as the server.
enum ProjectCommand {
    static let usage = """
        Usage: onramp project <subcommand> [options]

        Subcommands:
          create --name NAME [--app-id TEAMID.BUNDLEID]... [--redirect-host HOST]... [--key-type es256|ed25519] [--live]
                 [--env]   (--env prints `export` lines for every key: eval "$(onramp project create … --env)")
          list                                  (every project: id, mode, created, name)
          add-app-id --project ID --app-id TEAMID.BUNDLEID
          add-redirect-host --project ID --redirect-host HOST
          create-key --project ID [--key-type es256|ed25519]
          disable-app2app --project ID          (enable-app2app to undo)
          set-environments --project ID --environment development|production [--environment …]
          add-end-partner --project ID --name NAME [--partner-id ID]
                           (makes the project an aggregator: its orders' X-Onramp-Partner-Id must name one)

        Common options:
          --database URL   sqlite:PATH or postgres://… (default sqlite:./onramp.db)
          --json           Print the result as JSON
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments,
                valueOptions: [
                    "--name", "--app-id", "--redirect-host", "--key-type", "--project", "--database", "--environment",
                    "--partner-id",
                ],
                flagOptions: ["--json", "--help", "--live", "--env"])
            guard let subcommand = args.positional.first, !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            let database = try DatabaseURL.open(args.value("--database") ?? "sqlite:./onramp.db")
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
                if args.flag("--env") {
                    print(exports(credentials))
                    return 0
                }
                output = [
                    "projectId": .string(credentials.projectId), "cdpApiKeyId": .string(credentials.cdpApiKeyId),
                    "cdpApiKeySecret": .string(credentials.cdpApiKeySecret),
                    "stripeSecretKey": .string(credentials.stripeSecretKey),
                    "stripePublishableKey": .string(credentials.stripePublishableKey),
                    "oauthClientId": .string(credentials.oauthClientId),
                    "oauthClientSecret": .string(credentials.oauthClientSecret),
                ]
            case "list":
                let projects = try provisioner.listProjects()
                if !args.flag("--json") {
                    for project in projects {
                        let created = Timestamp.rfc3339(milliseconds: project.createdAt)
                        print("\(project.id)  \(project.livemode ? "live" : "test")  \(created)  \(project.name)")
                    }
                    if projects.isEmpty { print("No projects yet: onramp project create --name NAME") }
                    return 0
                }
                output = .array(
                    projects.map {
                        [
                            "projectId": .string($0.id), "name": .string($0.name), "livemode": .bool($0.livemode),
                            "created": .string(Timestamp.rfc3339(milliseconds: $0.createdAt)),
                        ]
                    })
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

    /// `export` lines for every key of a new project, each value single-quoted for the shell (a PEM key keeps
    /// its line breaks inside the quotes).
    static func exports(_ credentials: ProjectProvisioner.Credentials) -> String {
        [
            ("ONRAMP_PROJECT", credentials.projectId), ("CDP_API_KEY_ID", credentials.cdpApiKeyId),
            ("CDP_API_KEY_SECRET", credentials.cdpApiKeySecret), ("STRIPE_SECRET_KEY", credentials.stripeSecretKey),
            ("STRIPE_PUBLISHABLE_KEY", credentials.stripePublishableKey),
            ("LINK_OAUTH_CLIENT_ID", credentials.oauthClientId),
            ("LINK_OAUTH_CLIENT_SECRET", credentials.oauthClientSecret),
        ].map { "export \($0.0)='\($0.1.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(separator: "\n")
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
