public import Foundation
public import HTTPServer
import OnrampCrypto
import OnrampRuntime
public import OnrampServices
import OnrampStore
import OnrampWire

/// The whole onramp server: every route of both contracts on one router, plus the background
/// workers (settlement). Build it with a ``ServerContext``, then serve ``router`` with an ``HTTPServer``.
public final class OnrampApplication: Sendable {
    /// The context shared by every route.
    public let context: ServerContext
    /// Request metrics, exposed at `/metrics`.
    public let metrics: Metrics
    /// Every route.
    public let router: Router
    /// The last requests answered, for the console's request log; hand it to the ``HTTPServer``.
    public let requestLog: RequestLog
    /// The sandbox console's operator token (its sign-in link is `/console/login?token=…`).
    public let consoleToken: String
    let transactions: TransactionService
    let guestCheckout: GuestCheckoutService
    let offramp: OfframpService
    let embedded: EmbeddedService
    private let workers: BackgroundWorkers

    /// Assembles the application on `context`; applies pending migrations first. The console answers
    /// `consoleToken` (a random one when nil), from loopback addresses only unless `consoleAllowsRemote`; its
    /// request log keeps the bodies of `requestBodiesPerSecond` requests a second (and of every refusal; 0: none).
    public init(
        context: ServerContext, settlement: any SettlementProvider = SimulatedSettlement(),
        consoleToken: String? = nil, consoleAllowsRemote: Bool = false,
        requestBodiesPerSecond: Int = RequestLog.defaultBodiesPerSecond
    ) throws {
        try context.database.migrate(Schema.migrations)
        self.context = context
        let requestLog = RequestLog(bodiesPerSecond: requestBodiesPerSecond)
        self.requestLog = requestLog
        let metrics = Metrics()
        self.metrics = metrics
        let authenticator = CDPAuthenticator(
            database: context.database, callers: context.callers, singleUse: context.jwtSingleUse,
            clocks: context.testClocks)
        let transactions = TransactionService(context: context, settlement: settlement)
        self.transactions = transactions
        var router = Router(fallbackRenderer: PlainErrorRenderer())
        OperationsRoutes.register(on: &router, database: context.database, metrics: metrics)
        let hosted = HostedOnrampService(context: context, transactions: transactions)
        let guestCheckout = GuestCheckoutService(context: context, settlement: settlement)
        self.guestCheckout = guestCheckout
        let verifications = VerificationService(context: context)
        let offramp = OfframpService(context: context)
        self.offramp = offramp
        let webhooks = WebhookSubscriptionService(
            database: context.database, ids: context.ids, clock: context.clock, targets: context.webhookTargets)
        CDPRouteTable(
            app2App: App2AppService(context: context), authenticator: authenticator, testClocks: context.testClocks,
            hosted: hosted, transactions: transactions, guestCheckout: guestCheckout, verifications: verifications,
            offramp: offramp, webhooks: webhooks, context: context
        ).register(on: &router)
        let embedded = EmbeddedService(context: context, settlement: settlement)
        self.embedded = embedded
        StripeRouteTable(context: context, sessions: embedded.sessions, webhooks: webhooks).register(on: &router)
        PageRouteTable(
            context: context, handoff: HandoffService(context: context, transactions: transactions), hosted: hosted,
            offramp: offramp, guestCheckout: guestCheckout, verifications: verifications
        ).register(on: &router)
        let token = consoleToken ?? Base64URL.encode(context.ids.randomBytes(24), padded: false)
        self.consoleToken = token
        let consoleAccess = ConsoleAccess(
            token: token, allowsRemote: consoleAllowsRemote, database: context.database, clock: context.realClock,
            ids: context.ids)
        ConsoleRoutes(
            access: consoleAccess, database: context.database,
            clock: context.clock, requestLog: requestLog, transactions: transactions, orders: guestCheckout,
            sessions: embedded.sessions, offramp: offramp, callers: context.callers, catalogue: context.catalogue
        ).register(on: &router)
        router.setErrorRenderer(PageErrorRenderer(), forPathPrefix: "/console")
        ConsoleAPIRoutes(
            access: consoleAccess,
            provisioner: ProjectProvisioner(
                database: context.database, clock: context.realClock, callers: context.callers),
            requestLog: requestLog, webhooks: WebhookOperations(database: context.database, clock: context.realClock)
        ).register(on: &router)
        APIComponents.register(on: &router)
        self.router = router
        workers = BackgroundWorkers()
    }

    /// Starts the background workers (settlement, webhook delivery, and on PostgreSQL the caller cache's
    /// listener); call once after the HTTP server starts.
    public func startWorkers(interval: TimeInterval = 0.2) {
        let transactions = self.transactions
        context.callers.listen(on: workers, database: context.database)
        WebhookDispatcher(context: context).start(on: workers, interval: min(interval, 0.05))
        let guestCheckout = self.guestCheckout
        let offramp = self.offramp
        workers.start(name: "settlement", interval: interval) {
            do {
                try transactions.advanceDueTransactions()
                try guestCheckout.advanceDueOrders()
                try offramp.advanceDueSells()
            } catch {
                AccessLog.shared.error("settlement step failed: \(type(of: error))")
            }
        }
        let embedded = self.embedded
        workers.start(name: "embedded", interval: interval) {
            do {
                try embedded.step()
            } catch {
                AccessLog.shared.error("embedded step failed: \(type(of: error))")
            }
        }
    }

    /// Starts the janitor that deletes expired single-use rows every `interval` seconds.
    public func startJanitor(interval: TimeInterval = 60) {
        let janitor = Janitor(context: context)
        workers.start(name: "janitor", interval: interval) {
            do {
                try janitor.sweep()
            } catch {
                AccessLog.shared.error("janitor sweep failed: \(type(of: error))")
            }
        }
    }

    /// Stops the background workers and waits for their current step to finish.
    public func stopWorkers() {
        workers.stopAll()
    }
}
