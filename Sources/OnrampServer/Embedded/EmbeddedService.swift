import HTTPServer
import OnrampCore
import OnrampStore

/// The Embedded Components (Stripe-style) onramp: Link sign-in, crypto customers and KYC, wallets,
/// payment methods, onramp sessions, the test-mode hosted pages, and the background step that
/// finishes phone verifications and fulfils paid sessions.
struct EmbeddedService: Sendable {
    let context: ServerContext
    let sessions: OnrampSessionService

    init(context: ServerContext, settlement: any SettlementProvider) {
        self.context = context
        sessions = OnrampSessionService(context: context, settlement: settlement)
    }

    /// Adds every Embedded and Link route, and the OAuth error shape for `/auth/`.
    func register(on router: inout Router) {
        router.setErrorRenderer(OAuthErrorRenderer(), forPathPrefix: "/auth/")
        let routes = StripeRoutes(context: context)
        LinkRoutes(routes: routes).register(on: &router)
        let consumers = ConsumerRoutes(routes: routes)
        consumers.register(on: &router)
        LinkAuthorizePage(consumers: consumers).register(on: &router)
        CryptoInternalRoutes(routes: routes).register(on: &router)
        PaymentMethodRoutes(routes: routes).register(on: &router)
        PaymentIntentRoutes(routes: routes).register(on: &router)
        CardTokens(context: context).register(on: &router, routes: routes)
        PaymentDetailsRoutes(routes: routes).register(on: &router)
        StripeAttestation(context: context).register(on: &router, routes: routes)
        VerificationPageRoutes(context: context).register(on: &router)
        WalletOwnershipRoutes(routes: routes).register(on: &router)
        DeclarationRoutes(routes: routes).register(on: &router)
        ElementsSessionRoutes(routes: routes).register(on: &router)
        CryptoCustomerRoutes(routes: routes, sessions: sessions).register(on: &router)
        OnrampSessionRoutes(routes: routes, sessions: sessions).register(on: &router)
        OnrampQuoteRoutes(routes: routes, sessions: sessions).register(on: &router)
        HostedTestPages(context: context).register(on: &router)
        IdentityVerificationPage(context: context).register(on: &router)
    }

    /// One background step: finish due phone/KYC verifications, then fulfil due sessions.
    func step() throws {
        try finishDueVerifications()
        try sessions.fulfilDueSessions()
    }

    /// Sandbox phone verification: last name `Verified` verifies the phone (and the KYC check when an
    /// id number is on file); any other last name is rejected. Test-mode customers only: live ones
    /// wait for a real provider.
    func finishDueVerifications() throws {
        let now = context.nowMilliseconds
        let due = try context.database.read { connection in
            try !connection.query(
                """
                SELECT id FROM crypto_customers
                WHERE livemode = 0 AND verification_due_at IS NOT NULL AND verification_due_at <= ? LIMIT 1
                """,
                [.integer(now)]
            ).isEmpty
        }
        guard due else { return }
        try context.database.transaction { connection in
            try connection.execute(
                """
                UPDATE crypto_customers SET
                    phone_status = CASE WHEN last_name = 'Verified' THEN 'verified' ELSE 'rejected' END,
                    kyc_status = CASE WHEN id_number_hash IS NULL THEN kyc_status
                        WHEN last_name = 'Verified' THEN 'verified' ELSE 'rejected' END,
                    verification_due_at = NULL
                WHERE livemode = 0 AND verification_due_at IS NOT NULL AND verification_due_at <= ?
                """, [.integer(now)])
        }
    }
}
