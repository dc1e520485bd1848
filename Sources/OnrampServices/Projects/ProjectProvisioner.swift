import AppAttest
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// Creates projects and their credentials for the operator commands. Secrets are returned once
/// and only their public half or hash is stored.
public struct ProjectProvisioner: Sendable {
    /// The CDP API key algorithm.
    public enum KeyType: String, Sendable {
        /// ES256: an EC P-256 PEM secret; the key id looks like `organizations/…/apiKeys/…`.
        case es256
        /// EdDSA: base64 of seed ‖ public key; the key id is a UUID.
        case ed25519
    }

    /// Everything printed by `onramp project create --json`.
    public struct Credentials: Sendable {
        /// The project id.
        public let projectId: String
        /// The CDP API key id (`kid`).
        public let cdpApiKeyId: String
        /// The CDP API key secret.
        public let cdpApiKeySecret: String
        /// The Stripe-style secret key (`sk_test_…` or `sk_live_…`).
        public let stripeSecretKey: String
        /// The Stripe-style publishable key.
        public let stripePublishableKey: String
        /// The Link OAuth client id.
        public let oauthClientId: String
        /// The Link OAuth client secret.
        public let oauthClientSecret: String

        /// The credentials in ``json``, as the console API answers them; nil when a member is missing.
        public init?(json: JSONValue) {
            func member(_ name: String) -> String? { json[name]?.stringValue }
            guard let projectId = member("projectId"), let cdpApiKeyId = member("cdpApiKeyId"),
                let cdpApiKeySecret = member("cdpApiKeySecret"), let stripeSecretKey = member("stripeSecretKey"),
                let stripePublishableKey = member("stripePublishableKey"), let oauthClientId = member("oauthClientId"),
                let oauthClientSecret = member("oauthClientSecret")
            else { return nil }
            self.init(
                projectId: projectId, cdpApiKeyId: cdpApiKeyId, cdpApiKeySecret: cdpApiKeySecret,
                stripeSecretKey: stripeSecretKey, stripePublishableKey: stripePublishableKey,
                oauthClientId: oauthClientId, oauthClientSecret: oauthClientSecret)
        }

        init(
            projectId: String, cdpApiKeyId: String, cdpApiKeySecret: String, stripeSecretKey: String,
            stripePublishableKey: String, oauthClientId: String, oauthClientSecret: String
        ) {
            self.projectId = projectId
            self.cdpApiKeyId = cdpApiKeyId
            self.cdpApiKeySecret = cdpApiKeySecret
            self.stripeSecretKey = stripeSecretKey
            self.stripePublishableKey = stripePublishableKey
            self.oauthClientId = oauthClientId
            self.oauthClientSecret = oauthClientSecret
        }

        /// The credentials as `onramp project create --json` prints them and the console API answers them.
        public var json: JSONValue {
            [
                "projectId": .string(projectId), "cdpApiKeyId": .string(cdpApiKeyId),
                "cdpApiKeySecret": .string(cdpApiKeySecret), "stripeSecretKey": .string(stripeSecretKey),
                "stripePublishableKey": .string(stripePublishableKey), "oauthClientId": .string(oauthClientId),
                "oauthClientSecret": .string(oauthClientSecret),
            ]
        }
    }

    package let database: any Database
    package let clock: any OnrampCore.Clock
    package let ids: IdGenerator
    /// The serving process's cache of callers, emptied when a key is revoked; nil offline (the CLI).
    package let callers: CallerCache?

    /// Creates a provisioner on `database`.
    public init(
        database: any Database, clock: any OnrampCore.Clock = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.init(database: database, clock: clock, random: random, callers: nil)
    }

    /// Creates a provisioner for a server whose `callers` cache must forget a revoked key.
    package init(
        database: any Database, clock: any OnrampCore.Clock, random: any RandomSource = SystemRandomSource(),
        callers: CallerCache?
    ) {
        self.database = database
        self.clock = clock
        self.ids = IdGenerator(random: random)
        self.callers = callers
    }

    /// Revokes API key `id` for good: every request signed or authenticated with it is refused from now on
    /// (at once on this instance, within a second on the others: ``CallerCache``). Revoking a revoked key
    /// changes nothing. The key as it now stands; nil when there is none.
    package func revokeKey(id: String) throws -> APIKeyRecord? {
        let revoked = try database.transaction { connection -> APIKeyRecord? in
            let keys = APIKeyRepository(connection: connection)
            guard try keys.find(id: id) != nil else { return nil }
            _ = try keys.disable(id: id)
            return try keys.find(id: id)
        }
        if revoked != nil { callers?.invalidate() }
        return revoked
    }

    /// Creates a project with its App IDs, redirect hosts and one key of each kind.
    public func createProject(
        name: String, appIds: [String], redirectHosts: [String], keyType: KeyType, livemode: Bool = false
    ) throws -> Credentials {
        for appId in appIds { try Self.validateAppId(appId) }
        for host in redirectHosts { try Self.validateRedirectEntry(host) }
        let projectId = ids.uuid()
        let now = Timestamp.milliseconds(clock.now())
        let mode = livemode ? "live" : "test"
        let stripeSecret = "sk_\(mode)_" + ids.base62(length: 32)
        let publishable = "pk_\(mode)_" + ids.base62(length: 32)
        let oauthClientId = "lnk_oauth_" + ids.base62(length: 24)
        let oauthClientSecret = "lnk_oauth_secret_" + ids.base62(length: 32)
        let cdpKey = try makeCDPKey(keyType)
        try database.transaction { connection in
            let projects = ProjectRepository(connection: connection)
            try projects.insert(id: projectId, name: name, createdAt: now)
            for appId in appIds { try projects.addAppId(appId, to: projectId) }
            for host in redirectHosts { try projects.addRedirectHost(host, to: projectId) }
            let keys = APIKeyRepository(connection: connection)
            try keys.insert(
                id: cdpKey.id, projectId: projectId, kind: cdpKey.kind, publicKey: cdpKey.publicKey, secret: nil,
                livemode: livemode, createdAt: now)
            try keys.insert(
                id: ids.id(prefix: IdPrefix.apiKey, length: 24), projectId: projectId, kind: .stripeSecret,
                publicKey: nil,
                secret: stripeSecret, livemode: livemode, createdAt: now)
            try keys.insert(
                id: ids.id(prefix: IdPrefix.apiKey, length: 24), projectId: projectId, kind: .stripePublishable,
                publicKey: publishable, secret: publishable, livemode: livemode, createdAt: now)
            try keys.insert(
                id: oauthClientId, projectId: projectId, kind: .oauthClient, publicKey: nil, secret: oauthClientSecret,
                livemode: livemode, createdAt: now)
        }
        return Credentials(
            projectId: projectId, cdpApiKeyId: cdpKey.id, cdpApiKeySecret: cdpKey.secret,
            stripeSecretKey: stripeSecret, stripePublishableKey: publishable, oauthClientId: oauthClientId,
            oauthClientSecret: oauthClientSecret)
    }

    /// Every project, oldest first.
    public func listProjects() throws -> [(id: String, name: String, livemode: Bool, createdAt: Int64)] {
        try database.read { try ProjectRepository(connection: $0).list() }.map {
            (id: $0.id, name: $0.name, livemode: $0.livemode, createdAt: $0.createdAt)
        }
    }

    /// Adds another CDP API key to a project; returns its id and secret.
    public func createKey(projectId: String, keyType: KeyType) throws -> (id: String, secret: String) {
        let key = try makeCDPKey(keyType)
        try database.transaction { connection in
            guard try ProjectRepository(connection: connection).find(projectId) != nil else {
                throw ProvisioningError(message: "no project \(projectId)")
            }
            try APIKeyRepository(connection: connection).insert(
                id: key.id, projectId: projectId, kind: key.kind, publicKey: key.publicKey, secret: nil,
                livemode: false, createdAt: Timestamp.milliseconds(clock.now()))
        }
        return (key.id, key.secret)
    }

    /// Adds an App ID (`TEAMID.bundle.id`).
    public func addAppId(_ appId: String, projectId: String) throws {
        try Self.validateAppId(appId)
        try database.transaction { connection in
            let projects = ProjectRepository(connection: connection)
            guard try projects.find(projectId) != nil else {
                throw ProvisioningError(message: "no project \(projectId)")
            }
            try projects.addAppId(appId, to: projectId)
        }
    }

    /// An allowlist entry: a bare host name (`app.example.com`, `*.example.com`) for https redirects, or an
    /// app's own URL scheme written `scheme://` (`onrampdemo://`) for the hosted onramp's app redirects.
    package static func validateRedirectEntry(_ entry: String) throws {
        if entry.hasSuffix("://") {
            let scheme = entry.dropLast(3).lowercased()
            guard let first = scheme.first, first.isASCII, first.isLetter, scheme.utf8.count <= 64,
                scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }),
                !RedirectScheme.web.contains(scheme)
            else {
                throw ProvisioningError(
                    message: "an app scheme entry is written scheme:// (not http, https or javascript)")
            }
            return
        }
        guard !entry.isEmpty, entry.utf8.count <= 253, !entry.contains("/"), !entry.contains(":") else {
            throw ProvisioningError(
                message:
                    "a redirect host is a bare host name such as app.example.com, or an app scheme such as myapp://")
        }
    }

    /// Adds a redirect host (or app scheme, see ``validateRedirectEntry(_:)``) to the allowlist.
    public func addRedirectHost(_ host: String, projectId: String) throws {
        try Self.validateRedirectEntry(host)
        try database.transaction { connection in
            let projects = ProjectRepository(connection: connection)
            guard try projects.find(projectId) != nil else {
                throw ProvisioningError(message: "no project \(projectId)")
            }
            try projects.addRedirectHost(host, to: projectId)
        }
    }

    /// Registers an end partner of an aggregator project (which a project with one is), under `partnerId` or a
    /// new id; returns the id its orders send as `X-Onramp-Partner-Id`.
    public func addEndPartner(name: String, partnerId: String? = nil, projectId: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 200 else {
            throw ProvisioningError(message: "an end partner's name is 1 to 200 bytes")
        }
        let id = partnerId ?? ids.uuid().lowercased()
        guard (1...128).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ProvisioningError(message: "a partner id is 1 to 128 visible ASCII characters")
        }
        do {
            try database.transaction { connection in
                guard try ProjectRepository(connection: connection).find(projectId) != nil else {
                    throw ProvisioningError(message: "no project \(projectId)")
                }
                try EndPartnerRepository(connection: connection).add(
                    partnerId: id, name: name, projectId: projectId, now: Timestamp.milliseconds(clock.now()))
            }
        } catch let error as StoreError where error.code == .constraintViolation {
            throw ProvisioningError(message: "\(id) is already an end partner of \(projectId)")
        }
        return id
    }

    /// Turns App2App off (or back on) for a project.
    public func setApp2AppEnabled(_ enabled: Bool, projectId: String) throws {
        try database.transaction { connection in
            guard try ProjectRepository(connection: connection).setApp2AppEnabled(enabled, for: projectId) else {
                throw ProvisioningError(message: "no project \(projectId)")
            }
        }
    }

    /// Restricts the App Attest environments a project accepts (at least one).
    public func setAllowedEnvironments(_ environments: Set<AppAttestEnvironment>, projectId: String) throws {
        guard !environments.isEmpty else {
            throw ProvisioningError(message: "environments are development and/or production")
        }
        try database.transaction { connection in
            guard try ProjectRepository(connection: connection).setAllowedEnvironments(environments, for: projectId)
            else { throw ProvisioningError(message: "no project \(projectId)") }
        }
    }

    /// An operator mistake (unknown project, malformed App ID).
    public struct ProvisioningError: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        public let message: String
        public var description: String { message }
    }

    package static func validateAppId(_ appId: String) throws {
        let parts = appId.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10,
            parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
            !parts[1].isEmpty, appId.count <= 255
        else { throw ProvisioningError(message: "an App ID is TEAMID.bundle.id with a 10-character team id") }
    }

    private func makeCDPKey(_ type: KeyType) throws -> (
        id: String, secret: String, publicKey: String, kind: APIKeyRecord.Kind
    ) {
        switch type {
        case .es256:
            let key = try P256.PrivateKey()
            let id = "organizations/\(ids.uuid())/apiKeys/\(ids.uuid())"
            return (id, try key.ecPEMRepresentation, try key.publicKey.pemRepresentation, .cdpES256)
        case .ed25519:
            let key = try Ed25519.PrivateKey()
            let secret = Base64.encode(try key.seed + key.publicKey.rawRepresentation)
            return (ids.uuid(), secret, Base64.encode(key.publicKey.rawRepresentation), .cdpEd25519)
        }
    }
}
