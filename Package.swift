// swift-tools-version: 6.0
import PackageDescription

/// OnrampKit: an App2App (Coinbase-style) and Embedded Components (Stripe-style) onramp server, its
/// domain core, and Swift client SDKs. Outside packages cannot be fetched here, so the package uses the
/// toolchain and Debian C libraries through system-library targets (see DESIGN.md and the README).
let package = Package(
    name: "OnrampKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "onramp", targets: ["onramp"]),
        .library(name: "OnrampCore", targets: ["OnrampCore"]),
        .library(name: "OnrampCrypto", targets: ["OnrampCrypto"]),
        .library(name: "AppAttest", targets: ["AppAttest"]),
        .library(name: "OnrampClient", targets: ["OnrampClient"]),
        .library(name: "OnrampBackend", targets: ["OnrampBackend"]),
        .library(name: "PartnerBackendKit", targets: ["PartnerBackendKit"]),
        .executable(name: "partner-backend", targets: ["PartnerBackend"]),
    ],
    targets: [
        // System libraries (module maps only). On a Mac, Homebrew's openssl@3 and libpq are keg-only: their
        // pkg-config folders must be on PKG_CONFIG_PATH (scripts/install-deps.sh prints the line).
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // glibc's <malloc.h> (mallopt: the server caps its malloc arenas). Linux only.
        .systemLibrary(name: "CMalloc"),

        // What differs between Linux and Darwin below everything else: sockets, a coarse clock, descriptor
        // limits, a condition timed on the monotonic clock, thread slots, a file-write watch, malloc arenas.
        // The only place Linux-only calls may appear (PlatformSymbolTests).
        .target(
            name: "OnrampPlatform", dependencies: [.target(name: "CMalloc", condition: .when(platforms: [.linux]))]),

        // Domain: no I/O, no C libraries.
        .target(name: "OnrampCore"),
        // OpenSSL wrappers.
        .target(name: "OnrampCrypto", dependencies: ["COpenSSL", "OnrampWire"]),
        // App Attest verification and the software attester.
        .target(name: "AppAttest", dependencies: ["OnrampCrypto"]),
        // Storage: SQLite and PostgreSQL drivers behind one API.
        .target(name: "OnrampStore", dependencies: ["CSQLite", "CPostgres", "OnrampPlatform"]),
        // The wire: JSON values, parser and writer, the form decoder, percent-encoding, and the wire
        // objects both the server and the client SDKs speak. Pure Swift, no Foundation.
        .target(name: "OnrampWire"),
        // What a server process shares below HTTP: a sleeping lock, a token-bucket rate limiter, the log.
        .target(name: "OnrampRuntime"),
        // HTTP server over libmicrohttpd.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "OnrampWire", "OnrampRuntime", "OnrampPlatform"]),
        // The services: both contracts' domain services, their repositories, the outbox, settlement, webhook
        // delivery and the background workers. No HTTP: it cannot import HTTPServer.
        .target(
            name: "OnrampServices",
            dependencies: [
                "OnrampCore", "OnrampCrypto", "AppAttest", "OnrampStore", "OnrampWire", "OnrampRuntime",
                "OnrampPlatform",
                "CCurl",
            ]),
        // The edge: route tables, each family's authentication, errors and idempotency, pages, the console
        // and the OpenAPI description, over the services.
        .target(
            name: "OnrampServer",
            dependencies: [
                "OnrampServices", "OnrampCore", "OnrampCrypto", "AppAttest", "OnrampStore", "OnrampWire", "HTTPServer",
                "OnrampRuntime",
            ],
            swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]),
        // The app-side SDK: no C library in its dependency closure, so an iOS app can add it.
        .target(name: "OnrampClient", dependencies: ["OnrampCore", "OnrampWire"]),
        // What only a partner's backend (and tests) needs: CDP API key JWT clients, webhook verification, the
        // software App Attest provider. It keeps OpenSSL.
        .target(
            name: "OnrampBackend",
            dependencies: ["OnrampClient", "OnrampCore", "OnrampCrypto", "AppAttest", "OnrampWire"]),
        // The partner backend of both seeds (example): shared logic, and its executable.
        .target(
            name: "PartnerBackendKit",
            dependencies: ["OnrampClient", "OnrampBackend", "OnrampCrypto", "OnrampWire", "HTTPServer"],
            path: "Examples/PartnerBackend/Sources/PartnerBackendKit"),
        .executableTarget(
            name: "PartnerBackend", dependencies: ["PartnerBackendKit", "OnrampCrypto"],
            path: "Examples/PartnerBackend/Sources/PartnerBackend"),
        // The command-line tool.
        .executableTarget(
            name: "onramp",
            dependencies: [
                "OnrampServer", "OnrampServices", "OnrampStore", "OnrampWire", "HTTPServer", "OnrampRuntime",
                "AppAttest",
                "OnrampCrypto", "OnrampClient", "OnrampBackend", "PartnerBackendKit", "OnrampPlatform",
            ]),

        // Helpers shared by the test targets: a raw HTTP client, temporary databases.
        .target(name: "OnrampTestSupport", dependencies: ["OnrampPlatform"], path: "Sources/OnrampTestSupport"),

        .testTarget(name: "OnrampCoreTests", dependencies: ["OnrampCore"]),
        .testTarget(
            name: "OnrampCryptoTests", dependencies: ["OnrampCrypto", "OnrampCore", "OnrampTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "AppAttestTests", dependencies: ["AppAttest", "OnrampCrypto"], exclude: ["Fixtures"]),
        .testTarget(name: "OnrampStoreTests", dependencies: ["OnrampStore", "OnrampRuntime", "OnrampTestSupport"]),
        .testTarget(name: "OnrampWireTests", dependencies: ["OnrampWire"]),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "OnrampWire", "OnrampRuntime", "OnrampTestSupport"]),
        .testTarget(
            name: "OnrampServerTests",
            dependencies: [
                "OnrampServer", "OnrampServices", "OnrampStore", "OnrampWire", "HTTPServer", "OnrampRuntime",
                "OnrampClient", "OnrampBackend", "AppAttest", "OnrampCrypto", "OnrampCore", "OnrampTestSupport",
                "OnrampPlatform",
            ], exclude: ["Golden"]),
        .testTarget(
            name: "OnrampClientTests",
            dependencies: [
                "OnrampClient", "OnrampServer", "OnrampServices", "OnrampStore", "OnrampWire", "HTTPServer",
                "OnrampRuntime", "OnrampBackend", "AppAttest", "OnrampCrypto", "OnrampTestSupport", "PartnerBackendKit",
            ]),
    ]
)
