import Foundation
import OnrampCore
import OnrampCrypto
import OnrampRuntime
import OnrampStore

/// What every part of the server shares: storage, time, randomness, the catalogue and settings.
/// Time and randomness are injected so expiry and ids are testable.
public struct ServerContext: Sendable {
    /// The database (SQLite or PostgreSQL).
    public let database: any Database
    /// The source of the current time: the injected clock, plus the test clock of the project a request
    /// acts for (``TestClocks/bound(to:_:)``).
    public let clock: any OnrampCore.Clock
    /// Prefixed ids, UUIDs and tokens.
    public let ids: IdGenerator
    /// Assets, networks, prices and fees.
    public let catalogue: Catalogue
    /// The base URL clients reach this server at (`http://127.0.0.1:8080`), for `onrampUrl` and pages.
    public let publicBaseURL: String
    /// Trust anchors for App Attest: Apple's root plus any test roots the operator added.
    public let appAttestRoots: [X509Certificate]
    /// Seconds a transaction spends `IN_PROGRESS` before the settlement simulator completes it.
    public let settlementDelay: TimeInterval
    /// Seconds the simulated KYC and identity review takes before a test-mode verification is decided.
    public let verificationDelay: TimeInterval
    /// Limits the App2App mobile calls (made without an API key) per client address and per project.
    public let mobileRateLimits: MobileRateLimits
    /// Limits calls made with a Stripe publishable key (public, shipped in apps: Link sign-in, one-time
    /// codes, client-side session calls) per client address (`nil`: no limit). Secret-key calls are not
    /// limited here.
    public let publishableKeyRateLimiter: RateLimiter?
    /// Whether a CDP API key JWT for a read is good for one request only (its nonce remembered until it
    /// expires); by default a read's JWT may be reused within its lifetime for the request its `uris`
    /// name, as Coinbase's documented `export JWT=…` flow does. A write's JWT is always good once.
    public let jwtSingleUse: Bool
    /// Which addresses webhook deliveries may reach (and endpoints may name).
    public let webhookTargets: WebhookTargetPolicy
    /// The key of what is kept sealed or hashed (KYC id numbers, idempotency records), so a copy of the
    /// database alone reveals or brute-forces nothing. Never stored in the database.
    package let dataKey: [UInt8]
    /// The keys idempotency records are sealed and hashed with, derived from ``dataKey``.
    package let idempotencySecrets: IdempotencySecrets
    /// Keys, access tokens and test-clock offsets kept between requests (``CallerCache``).
    package let callers = CallerCache()

    /// Creates a context. `dataKey` (32 bytes, for example from `ONRAMP_DATA_KEY`) keys what is kept
    /// sealed or hashed; without it a random key is used for this process. `clientRequestsPerSecond`
    /// (`nil`: off) sets both per-address limits (App2App mobile calls, Stripe publishable-key calls; each
    /// has buckets of its own, bursting to twice the rate); `projectRequestsPerSecond` the App2App mobile
    /// calls' per-project limit; `jwtSingleUse` makes each CDP JWT good for one request; `webhookTargets` which
    /// addresses deliveries may reach (by default that of a server listening on loopback alone).
    public init(
        database: any Database, clock: any OnrampCore.Clock = SystemClock(),
        random: any RandomSource = SystemRandomSource(),
        catalogue: Catalogue = .standard, publicBaseURL: String, appAttestRoots: [X509Certificate],
        settlementDelay: TimeInterval = 1, verificationDelay: TimeInterval = 2, clientRequestsPerSecond: Double? = 20,
        projectRequestsPerSecond: Double? = 1000, jwtSingleUse: Bool = false, dataKey: [UInt8]? = nil,
        webhookTargets: WebhookTargetPolicy = WebhookTargetPolicy()
    ) {
        self.jwtSingleUse = jwtSingleUse
        self.webhookTargets = webhookTargets
        self.database = database
        // Requests acting for a test-mode project see its test clock's time (see TestClocks).
        self.clock = ShiftedClock(base: clock)
        self.ids = IdGenerator(random: random)
        self.catalogue = catalogue
        self.publicBaseURL = publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
        self.appAttestRoots = appAttestRoots
        self.settlementDelay = settlementDelay
        self.verificationDelay = verificationDelay
        self.mobileRateLimits = MobileRateLimits(
            addressRate: clientRequestsPerSecond, projectRate: projectRequestsPerSecond)
        self.publishableKeyRateLimiter = clientRequestsPerSecond.map { RateLimiter(ratePerSecond: $0, burst: 2 * $0) }
        // Without a configured key the hashes only mark that a value was provided (the key dies with the process).
        self.dataKey = dataKey ?? random.bytes(32)
        self.idempotencySecrets = IdempotencySecrets(dataKey: self.dataKey)
    }

    /// The projects' test clocks.
    package var testClocks: TestClocks { TestClocks(database: database, clock: realClock, callers: callers) }

    /// The injected clock without any project's test clock: for leases and other exclusion between
    /// workers, and for times another party checks against its own clock (JWTs, webhook signatures).
    package var realClock: any OnrampCore.Clock { (clock as? ShiftedClock)?.base ?? clock }

    /// The database, clock and ids, as the services hold them.
    package var environment: ServiceEnvironment { ServiceEnvironment(database: database, clock: clock, ids: ids) }

    /// The current time in stored milliseconds (the bound project's time).
    package var nowMilliseconds: Int64 { Timestamp.milliseconds(clock.now()) }

    /// The current real time in stored milliseconds, whatever project is bound: for leases and other
    /// exclusion between workers, which a test clock must not move.
    package var realNowMilliseconds: Int64 { Timestamp.milliseconds(realClock.now()) }
}
