import AppAttest
import Dispatch
import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampPlatform
import OnrampRuntime
import OnrampServer
import OnrampServices
import OnrampStore
import OnrampWire

/// `onramp serve`: opens (and migrates) the database, starts the HTTP server and the background
/// workers, and shuts down gracefully on SIGINT or SIGTERM.
enum ServeCommand {
    static let usage = """
        Usage: onramp serve [options]

        Options:
          --port N                      TCP port (default 8080; 0 picks a free one)
          --host ADDRESS                IPv4 address to bind (default 127.0.0.1)
          --database URL                sqlite:PATH or postgres://user@host:port/db (default sqlite:./onramp.db)
          --public-url URL              Base URL clients use to reach this server (default http://HOST:PORT; with
                                        --host 0.0.0.0, http://LAN-ADDRESS:PORT, which a phone on the network opens)
          --trust-appattest-root FILE   Also trust this PEM root for App Attest (repeatable; Apple's root is always trusted)
          --threads N                   Worker threads (default: 16, or 4 per core when that is more; handlers
                                        block on the database, and writers waiting together share one commit)
          --settlement-delay SECONDS    Time a transaction stays IN_PROGRESS in the simulator (default 1)
          --access-log on|off           One log line per request on standard error (default on)
          --request-bodies N            The console's request log keeps the bodies (redacted) of N requests a
                                        second and of every refusal (default 50; 0 keeps none)
          --catalogue FILE              Assets, networks, prices and fees as JSON (default: the built-in catalogue;
                                        `onramp catalogue` prints it as a starting point)
          (environment) ONRAMP_DATA_KEY  64 hex digits keying what is kept sealed or hashed: KYC id numbers and
                                        idempotency records; without it a per-process key is used, so KYC hashes
                                        only mark that a number was given and idempotent replays end at a restart
          --rate-limit N                Calls per second per client address made without a secret: App2App mobile
                                        calls and Stripe publishable-key calls, each limited apart (default 20; 0 = off)
          --project-rate-limit N        App2App mobile calls per second per project, all addresses together
                                        (default 1000; 0 = off)
          --max-connections N           Most open client connections (default: the file-descriptor limit, raised
                                        to its hard limit, less 256; at most 65536)
          --connections-per-address N   Most open connections from one client address (default 256; 0 = off,
                                        e.g. behind a reverse proxy)
          --head-timeout SECONDS        A new connection must send a complete request head within this (default 10)
          --keep-alive-timeout SECONDS  After a response, the next head must be complete within this (default 15)
          --body-timeout SECONDS        Once the head is in, the body must be complete within this (default 30)
          --console-token TOKEN         The sandbox console's operator token, at least 16 bytes (or ONRAMP_CONSOLE_TOKEN;
                                        default: the one kept in ~/.onramp/console-token, or $ONRAMP_HOME, made on the
                                        first start; printed with the console's sign-in link, and used by the CLI)
          --import FILE                 Start from a state file (`onramp state export`); the database must be new
          --export-on-exit FILE         Save the whole state to FILE when the server stops (SIGINT/SIGTERM)
          --console-remote              Let other addresses than loopback use the console (default: loopback only)
          --jwt-single-use              Each CDP API key JWT is good for one request (by default a GET's may be
                                        reused within its lifetime for the request its uris name, as Coinbase
                                        documents; a write's is always good once)
          --allow-local-webhook-targets Let webhook endpoints reach loopback (127.0.0.0/8, ::1, localhost) when
                                        the server listens beyond loopback (on loopback alone they always may)
          --allow-private-webhook-targets
                                        Let webhook endpoints reach private addresses (RFC 1918, 100.64/10,
                                        fc00::/7); link-local and metadata addresses are never reached
        """

    /// Caps glibc's malloc arenas at one per core (at least two) unless `MALLOC_ARENA_MAX` says otherwise.
    /// glibc gives a thread that finds the arenas locked one of its own, up to 8 per core, and each keeps
    /// the pages it touched: with 16 handler threads, `bench/memory.sh` (2,000 idle keep-alive connections
    /// and a load run) peaked at 104.1 MB, and at 87.7 MB with two arenas; `bench/http.sh` gave the same
    /// `/livez` and `/healthz` rates either way (two alternating runs each: 0.46–0.55 of nginx).
    static func limitMallocArenas() {
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        MallocArenas.limit(to: max(2, ProcessInfo.processInfo.activeProcessorCount))
    }

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments,
                valueOptions: [
                    "--port", "--host", "--database", "--public-url", "--trust-appattest-root", "--threads",
                    "--settlement-delay", "--access-log", "--rate-limit", "--project-rate-limit", "--catalogue",
                    "--max-connections", "--connections-per-address", "--head-timeout", "--keep-alive-timeout",
                    "--body-timeout", "--console-token", "--import", "--export-on-exit", "--request-bodies",
                ],
                flagOptions: [
                    "--help", "--jwt-single-use", "--console-remote", "--allow-local-webhook-targets",
                    "--allow-private-webhook-targets",
                ])
            if args.flag("--help") {
                print(usage)
                return 0
            }
            limitMallocArenas()
            let port = try args.integer("--port", default: 8080, in: 0...65535)
            let host = args.value("--host") ?? "127.0.0.1"
            // Handlers wait on commits (an fsync each on SQLite by default); the writers waiting together
            // share one, so the thread count bounds the commit group: 2 per core on one pinned core made
            // 2.4 attested sessions per commit and 1,012 sessions/s, 16 threads 6.8 and 2,036/s.
            let threads = try args.integer(
                "--threads", default: max(16, 4 * ProcessInfo.processInfo.activeProcessorCount), in: 1...256)
            let databaseURL = args.value("--database") ?? "sqlite:./onramp.db"
            guard let delay = Double(args.value("--settlement-delay") ?? "1"), delay >= 0, delay <= 3600 else {
                throw Arguments.UsageError(description: "--settlement-delay must be between 0 and 3600 seconds")
            }
            let catalogue =
                try args.value("--catalogue").map {
                    try Catalogue(jsonData: Data(contentsOf: URL(fileURLWithPath: $0)))
                } ?? .standard
            try catalogue.validate()
            let rateLimit = try args.integer("--rate-limit", default: 20, in: 0...1_000_000)
            let projectRateLimit = try args.integer("--project-rate-limit", default: 1000, in: 0...1_000_000)
            var roots = [AppleAppAttestRoot.certificate]
            for path in args.values("--trust-appattest-root") {
                roots.append(try X509Certificate(pemRepresentation: String(contentsOfFile: path, encoding: .utf8)))
            }
            AccessLog.shared.configure(enabled: args.value("--access-log") != "off")
            let requestBodies = try args.integer(
                "--request-bodies", default: RequestLog.defaultBodiesPerSecond, in: 0...100_000)

            let termination = TerminationSignal()
            let connections = try connectionLimits(args)
            if let file = args.value("--export-on-exit") { try StateCommand.checkDestination(file) }
            let database = try DatabaseURL.open(databaseURL)
            if let warning = dataKeyWarning(databaseURL: databaseURL) { printError(warning) }
            if let file = args.value("--import") {
                try database.migrate(Schema.migrations)
                try StateCommand.restore(file, into: database)
            }
            let (server, application) = try start(
                database: database, host: host, port: port, threads: max(2, threads), connections: connections,
                jwtSingleUse: args.flag("--jwt-single-use"),
                publicURL: args.value("--public-url"), roots: roots, settlementDelay: delay,
                rateLimits: (
                    rateLimit == 0 ? nil : Double(rateLimit), projectRateLimit == 0 ? nil : Double(projectRateLimit)
                ),
                catalogue: catalogue, requestBodies: requestBodies,
                console: (try consoleToken(args) ?? OnrampHome.consoleToken(), args.flag("--console-remote")),
                webhookTargets: .forServer(
                    listeningOn: host, allowLocal: args.flag("--allow-local-webhook-targets"),
                    allowPrivate: args.flag("--allow-private-webhook-targets")))
            print("onramp listening on http://\(host):\(server.port) (database \(DatabaseURL.redacted(databaseURL)))")
            if host == "0.0.0.0" {
                print("links and phones on this network: \(application.context.publicBaseURL)")
            }
            let consoleHost = host == "0.0.0.0" ? "127.0.0.1" : host
            // A token the operator chose is theirs to know; only the kept one is printed.
            if try consoleToken(args) == nil {
                print("console: http://\(consoleHost):\(server.port)/console/login?token=\(application.consoleToken)")
            } else {
                print("console: http://\(consoleHost):\(server.port)/console (sign in with your console token)")
            }
            for (path, root) in zip(args.values("--trust-appattest-root"), roots.dropFirst()) {
                print("app attest: also trusting \(root.subject) (\(path)) beside Apple's root")
            }
            fflush(nil)
            termination.wait()
            AccessLog.shared.info("shutting down: finishing in-flight requests")
            server.shutdown(gracePeriod: 30)
            application.stopWorkers()
            if let file = args.value("--export-on-exit") {
                try StateCommand.write(try StateSnapshot.export(database), to: file)
            }
            database.close()
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp serve: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp serve: \(error)")
            return 1
        }
    }

    /// The console token from `--console-token` or `ONRAMP_CONSOLE_TOKEN` (at least 16 bytes); nil for
    /// the one ``OnrampHome`` keeps.
    static func consoleToken(_ args: Arguments) throws -> String? {
        guard let token = args.value("--console-token") ?? ProcessInfo.processInfo.environment["ONRAMP_CONSOLE_TOKEN"],
            !token.isEmpty
        else { return nil }
        guard token.utf8.count >= 16, token.utf8.count <= 256 else {
            throw Arguments.UsageError(description: "the console token must be 16 to 256 bytes")
        }
        return token
    }

    /// `ONRAMP_DATA_KEY` (64 hex digits), the key of what is kept sealed or hashed (KYC id numbers,
    /// idempotency records).
    /// What `serve` says at start when it runs without `ONRAMP_DATA_KEY` on a database other instances may
    /// share (PostgreSQL, or a SQLite file another process has open): each instance then keys its sealed and
    /// hashed values with a random key of its own.
    static func dataKeyWarning(databaseURL: String) -> String? {
        guard ProcessInfo.processInfo.environment["ONRAMP_DATA_KEY"] == nil else { return nil }
        guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else { return nil }
        return """
            onramp serve: warning: ONRAMP_DATA_KEY is not set, so this instance seals and hashes with a random key of \
            its own: OTP codes, Headless payment links, idempotency records and App2App session tokens made by another \
            instance (or before a restart) will not open here. Set the same 64-hex-digit key on every instance.
            """
    }

    private static func dataKey() throws -> [UInt8]? {
        guard let text = ProcessInfo.processInfo.environment["ONRAMP_DATA_KEY"] else { return nil }
        guard let key = Hex.decode(text), key.count == 32 else {
            throw Arguments.UsageError(description: "ONRAMP_DATA_KEY must be 64 hex digits")
        }
        return key
    }

    /// The connection caps and deadlines from the options, over the defaults.
    private static func connectionLimits(_ args: Arguments) throws -> ConnectionLimits {
        var limits = ConnectionLimits.fromDescriptorLimit()
        limits.total = try args.integer("--max-connections", default: limits.total, in: 16...65_536)
        limits.reserve = min(limits.reserve, max(1, limits.total / 16))
        let perAddress = try args.integer("--connections-per-address", default: 256, in: 0...65_536)
        limits.perAddress = perAddress == 0 ? nil : perAddress
        for (option, keyPath) in [
            ("--head-timeout", \ConnectionLimits.headSeconds), ("--keep-alive-timeout", \.keepAliveSeconds),
            ("--body-timeout", \.bodySeconds),
        ] {
            guard let text = args.value(option) else { continue }
            guard let seconds = Double(text), seconds >= 1, seconds <= 3600 else {
                throw Arguments.UsageError(description: "\(option) must be between 1 and 3600 seconds")
            }
            limits[keyPath: keyPath] = seconds
        }
        return limits
    }

    private static func start(
        database: any Database, host: String, port: Int, threads: Int, connections: ConnectionLimits,
        jwtSingleUse: Bool, publicURL: String?,
        roots: [X509Certificate], settlementDelay: Double, rateLimits: (client: Double?, project: Double?),
        catalogue: Catalogue, requestBodies: Int, console: (token: String?, allowsRemote: Bool),
        webhookTargets: WebhookTargetPolicy
    ) throws -> (HTTPServer, OnrampApplication) {
        // Bind first: the public URL (in every onrampUrl) needs the port, also when it is picked (0).
        let socket = try ListeningSocket.bind(host: host, port: port)
        // On every interface, links name the address other devices reach (a phone cannot open 0.0.0.0).
        let displayHost = host == "0.0.0.0" ? (LANAddress.first() ?? "127.0.0.1") : host
        let context = ServerContext(
            database: database, catalogue: catalogue,
            publicBaseURL: publicURL ?? "http://\(displayHost):\(socket.port)",
            appAttestRoots: roots, settlementDelay: settlementDelay, clientRequestsPerSecond: rateLimits.client,
            projectRequestsPerSecond: rateLimits.project, jwtSingleUse: jwtSingleUse,
            dataKey: try dataKey(), webhookTargets: webhookTargets)
        let application = try OnrampApplication(
            context: context, settlement: SimulatedSettlement(catalogue: catalogue), consoleToken: console.token,
            consoleAllowsRemote: console.allowsRemote, requestBodiesPerSecond: requestBodies)
        let server = HTTPServer(
            configuration: ServerConfiguration(
                host: host, port: socket.port, threadCount: threads, connections: connections,
                livenessPath: OperationsRoutes.livenessPath),
            router: application.router, metrics: application.metrics, requestLog: application.requestLog)
        try server.start(on: socket)
        application.startWorkers()
        application.startJanitor()
        return (server, application)
    }
}

extension DatabaseURL {
    /// The URL with any password replaced by `***`, for printing.
    static func redacted(_ url: String) -> String {
        guard let components = URLComponents(string: url), components.password != nil else { return url }
        var copy = components
        copy.password = "***"
        return copy.string ?? "postgres://…"
    }
}
