import OnrampCore
import OnrampStore

/// The Embedded Components (Stripe-style) onramp: Link sign-in, crypto customers and KYC, wallets,
/// payment methods, onramp sessions, the test-mode hosted pages, and the background step that
/// finishes phone verifications and fulfils paid sessions.
package struct EmbeddedService: Sendable {
    package let context: ServerContext
    package let sessions: OnrampSessionService

    package init(context: ServerContext, settlement: any SettlementProvider) {
        self.context = context
        sessions = OnrampSessionService(context: context, settlement: settlement)
    }

    /// One background step: finish due phone/KYC verifications, then fulfil due sessions.
    package func step() throws {
        try finishDueVerifications()
        try sessions.fulfilDueSessions()
    }

    /// Sandbox phone and KYC verification for test-mode customers whose checks are due
    /// (``SandboxVerification``: last name `Verified` passes them, any other fails them); the KYC check
    /// is decided only when an id number is on file. Live customers wait for a real provider.
    /// The due times are in each customer's project time (its test clock), compared there.
    package func finishDueVerifications() throws {
        let realNow = Timestamp.milliseconds(context.realClock.now())
        guard try context.database.read({ try CryptoCustomerRepository.hasDueVerifications(realNow: realNow, on: $0) })
        else {
            return
        }
        try context.database.transaction { connection in
            for due in try CryptoCustomerRepository.dueVerifications(realNow: realNow, limit: 500, on: connection) {
                let outcome = SandboxVerification.outcome(lastName: due.lastName)
                try CryptoCustomerRepository.record(
                    phone: outcome, kyc: due.hasIdNumber ? outcome : nil, of: due, on: connection)
            }
        }
    }
}
