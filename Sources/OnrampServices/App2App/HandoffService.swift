import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The purchase handoff's single-use page, as state: opening it spends the session token, and the
/// page's Confirm or Cancel records the outcome (Confirm through ``TransactionService``). What the page
/// does next is ``SingleUsePage``'s decision; this type stores it, each decision and its write in one
/// transaction. The pages themselves are `HandoffRoutes`'.
package struct HandoffService: Sendable, UsesServiceEnvironment {
    package typealias Record = PurchaseSessionRepository.Record

    package let environment: ServiceEnvironment
    package let testClocks: TestClocks
    package let transactions: TransactionService

    /// The service on the parts of `context` it uses, recording purchases through `transactions`.
    package init(context: ServerContext, transactions: TransactionService) {
        environment = context.environment
        testClocks = context.testClocks
        self.transactions = transactions
    }

    /// What opening the page found.
    package struct Opening: Sendable {
        /// Show the purchase, or the page is spent.
        package let decision: SingleUsePage.Opening
        /// The session as it is after the open.
        package let session: Record
        /// The secret the page's form must send back (only when it is shown; stored hashed).
        package let pageSecret: String?
    }

    /// Runs `body` in the time of the project whose purchase session `token` names (its test clock): the
    /// session's fifteen minutes were set in that time. Real time for an unknown token.
    package func inProjectTime<T>(ofToken token: String?, _ body: () throws -> T) throws -> T {
        guard let token, token.utf8.count <= 64 else { return try body() }
        let projectId = try database.read {
            try PurchaseSessionRepository(connection: $0).find(token: token)?.projectId
        }
        return try testClocks.bound(to: projectId, body)
    }

    /// Opens the page of `token`: the first open within the link's lifetime shows it (and stores the
    /// hash of a fresh page secret); any other open spends it, a session without an outcome ending with
    /// `error` (one with an outcome keeps it). The decision and its write share one transaction, so of
    /// two racing opens one shows the page. `nil` for an unknown token.
    package func open(token: String) throws -> Opening? {
        let now = nowMilliseconds
        let pageSecret = Base64URL.encode(ids.randomBytes(32), padded: false)
        return try database.transaction { connection -> Opening? in
            let sessions = PurchaseSessionRepository(connection: connection)
            guard let session = try sessions.find(token: token) else { return nil }
            var decision = session.page.open(now: now)
            if decision == .show {
                if try sessions.open(key: session.key, pageSecret: pageSecret, now: now) {
                    return Opening(decision: decision, session: session, pageSecret: pageSecret)
                }
                decision = .spent(expired: false)  // a racing open got there first
            }
            _ = try sessions.finish(key: session.key, outcome: .error)
            return Opening(decision: decision, session: try sessions.find(token: token) ?? session, pageSecret: nil)
        }
    }

    /// The page's Confirm (`cancelling` false) or Cancel for `token`, sent with `pageSecret`: records
    /// the outcome ``SingleUsePage`` decides (Confirm: the purchase, through ``TransactionService``) unless
    /// one is recorded already, and returns the session with the outcome that stands. `nil` when the
    /// token is unknown or the secret is not the page's.
    package func submit(token: String, pageSecret: String, cancelling: Bool) throws -> Record? {
        guard let session = try database.read({ try PurchaseSessionRepository(connection: $0).find(token: token) }),
            let storedHash = session.pageSecretHash,
            APIKeyRepository.secretMatches(pageSecret, storedHash: storedHash)
        else { return nil }
        let now = nowMilliseconds
        switch session.page.submit(cancelling: cancelling, now: now) {
        case .replay:
            return session
        case .end(let outcome):
            // Recorded unless a racing request recorded one first; the answer carries the one recorded.
            return try database.transaction { connection in
                let sessions = PurchaseSessionRepository(connection: connection)
                _ = try sessions.finish(key: session.key, outcome: outcome)
                return try sessions.find(token: token) ?? session
            }
        case .proceed:
            try transactions.confirm(
                session: session, purchase: try PurchaseRequest(stored: session.purchase), now: now)
            return try database.read { try PurchaseSessionRepository(connection: $0).find(token: token) } ?? session
        }
    }
}
