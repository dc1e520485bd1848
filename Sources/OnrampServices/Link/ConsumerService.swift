import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// Link consumers and their sessions as stripe-ios drives them: lookup and sign-up open a session, the
/// one-time code verifies it (sandbox code `000000`; five wrong codes in 15 minutes lock the consumer),
/// and a verified session answers its LinkAuthIntent's consent. Each change and what it reads back
/// share one transaction; answers are the wire objects (``LinkConsumerSession``) and outcomes.
package struct ConsumerService: Sendable, UsesServiceEnvironment {
    /// The sandbox one-time code.
    package static let sandboxCode = "000000"

    package let environment: ServiceEnvironment
    package let intents: LinkAuthIntents

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        intents = LinkAuthIntents(context: context)
    }

    /// What a lookup or sign-up found: the new session, the publishable key the SDK sends the consumer's
    /// calls with, and the consent screen to show when a LinkAuthIntent awaits it.
    package struct Found: Sendable {
        /// The session opened, as stored.
        package let opened: ConsumerSession
        /// The session as the SDK reads it.
        package let session: LinkConsumerSession
        package let publishableKey: String?
        package let consent: LinkConsentScreen?

        /// `{exists: true, consumer_session, publishable_key?, consent_ui?}`.
        package var json: JSONValue {
            var members: [(String, JSONValue)] = [("exists", true), ("consumer_session", session.json)]
            if let publishableKey { members.append(("publishable_key", .string(publishableKey))) }
            if let consent { members.append(("consent_ui", consent.json)) }
            return .object(members)
        }
    }

    /// Where a LinkAuthIntent stands after a verification or consent, and its customer once consented.
    package struct IntentOutcome: Sendable {
        package let intentId: String
        package let status: LinkAuthIntent.Status
        package let cryptoCustomerId: String?

        /// `link_auth_intent` and, once consented, `crypto_customer_id`.
        package var members: [(String, JSONValue)] {
            var members: [(String, JSONValue)] = [
                ("link_auth_intent", ["id": .string(intentId), "status": .string(status.rawValue)])
            ]
            if let cryptoCustomerId { members.append(("crypto_customer_id", .string(cryptoCustomerId))) }
            return members
        }
    }

    /// Looks a consumer up and opens a session: by seamless sign-in secret (single use; the session is
    /// verified), by LinkAuthIntent (with its consent screen while it awaits consent) or by email.
    /// `nil` when no consumer has the email.
    package func lookup(_ lookup: ConsumerLookup, caller: StripeCaller) throws -> Found? {
        let now = nowMilliseconds
        return try database.transaction { connection -> Found? in
            switch lookup {
            case .seamlessSignIn(let clientSecret):
                guard
                    let consumerId = try intents.redeemClientSecret(
                        connection, clientSecret, projectId: caller.projectId, now: now)
                else {
                    throw OnrampError.refusal(
                        "seamless_sign_in_token_invalid",
                        "The link_auth_token_client_secret is invalid, expired or already used.",
                        parameter: "link_auth_token_client_secret")
                }
                return try open(
                    connection, caller: caller, consumerId: consumerId, intentId: nil, verifiedBy: .linkAuthToken,
                    now: now)
            case .linkAuthIntent(let id):
                guard let intent = try intents.current(connection, id: id, projectId: caller.projectId, now: now)
                else { throw OnrampError.missing("link_auth_intent", parameter: "link_auth_intent_id") }
                return try open(
                    connection, caller: caller, consumerId: intent.consumerId, intentId: id, verifiedBy: nil, now: now,
                    consent: intent.status.isTerminal ? nil : try LinkConsentScreen(connection, intent: intent))
            case .email(let email):
                guard
                    let consumerId = try LinkConsumerRepository(connection: connection).id(
                        email: email, projectId: caller.projectId)
                else { return nil }
                return try open(
                    connection, caller: caller, consumerId: consumerId, intentId: nil, verifiedBy: nil, now: now)
            }
        }
    }

    /// Creates a Link account and its first session, which counts as verified (`SIGNUP/STARTED`), as
    /// real Link's does.
    package func signUp(_ signUp: ConsumerSignUp, caller: StripeCaller) throws -> Found {
        let consumerId = ids.id(prefix: IdPrefix.linkConsumer)
        let now = nowMilliseconds
        return try database.transaction { connection in
            // One statement decides, so parallel sign-ups with one email get one account and the
            // others this error (a check then an insert let the loser hit the unique index: a 500).
            let inserted = try LinkConsumerRepository(connection: connection).insert(
                id: consumerId, projectId: caller.projectId, email: signUp.email, phone: signUp.phone,
                country: signUp.country, legalName: signUp.legalName, now: now)
            guard inserted else {
                throw OnrampError.refusal(
                    "link_account_already_exists", "A Link account with this email already exists.",
                    parameter: "email_address")
            }
            return try open(
                connection, caller: caller, consumerId: consumerId, intentId: nil, verifiedBy: .signUp, now: now)
        }
    }

    /// Applies `change` (a refresh, a log-out) to `session`; returns the session as the SDK reads it.
    package func change(_ session: ConsumerSession, _ change: ConsumerSession.Change) throws -> LinkConsumerSession {
        try database.transaction { connection in
            try session.apply(change, on: connection)
            return try session.wire(connection)
        }
    }

    /// Sends the one-time code (in this sandbox: records that it was sent).
    package func startVerification(_ session: ConsumerSession) throws -> LinkConsumerSession {
        try database.transaction { connection in
            try session.apply(.otpStarted, on: connection)
            return try session.with(otpStarted: true).wire(connection)
        }
    }

    /// Checks the one-time code: a wrong one counts toward the lockout; the right one verifies the
    /// session and, for a session opened for a LinkAuthIntent, advances the intent with the inline consent.
    package func confirmVerification(
        _ session: ConsumerSession, _ confirmation: VerificationConfirmation, caller: StripeCaller
    )
        throws -> (session: LinkConsumerSession, intent: IntentOutcome?)
    {
        let now = nowMilliseconds
        guard session.otpStarted || session.verified else { throw OneTimeCodeRefusal.notStarted }
        // Check and count in one transaction, holding the consumer row on PostgreSQL, so parallel
        // guesses cannot all pass the limit; failures count by when they happened, over 15 minutes.
        let refusal = try database.transaction { connection -> OneTimeCodeRefusal? in
            try LinkConsumerRepository(connection: connection).lock(id: session.consumerId)
            let failures = try ConsumerSession.otpFailures(
                connection, consumerId: session.consumerId, since: now - ConsumerSession.otpLockoutMilliseconds)
            guard failures < ConsumerSession.maximumOTPFailures else { return .locked }
            guard ConstantTime.equals(Array(confirmation.code.utf8), Array(Self.sandboxCode.utf8)) else {
                try session.apply(.otpFailed(at: now), on: connection)
                return .wrongCode
            }
            return nil
        }
        if let refusal { throw refusal }
        return try database.transaction { connection in
            try session.apply(.verified(by: .sms), on: connection)
            let verified = session.with(verifiedBy: .sms)
            let wire = try verified.wire(connection)
            guard let intentId = session.linkAuthIntentId else { return (wire, nil) }
            let intent = try intents.advance(
                connection, id: intentId, projectId: caller.projectId, consent: confirmation.consentGranted, now: now)
            return (wire, try outcome(connection, of: intent, session: verified, caller: caller, now: now))
        }
    }

    /// The full-consent screen's answer (`LinkController.updateConsentStatus`): after the one-time code,
    /// the consumer allows or denies the LinkAuthIntent the session was opened for.
    package func updateConsent(_ session: ConsumerSession, _ update: ConsentUpdate, caller: StripeCaller) throws
        -> IntentOutcome
    {
        guard let intentId = session.linkAuthIntentId, session.verifiedBy == .sms else {
            throw OnrampError.refusal(
                "link_auth_intent_missing",
                "This consumer session was not opened for a LinkAuthIntent and verified with its one-time code.")
        }
        let now = nowMilliseconds
        return try database.transaction { connection in
            let intent = try intents.advance(
                connection, id: intentId, projectId: caller.projectId, consent: update.granted, now: now)
            return try outcome(connection, of: intent, session: session, caller: caller, now: now)
        }
    }

    /// Changes the consumer's phone number (`PaymentSheetLinkAccount.updatePhoneNumber`).
    package func updatePhone(_ session: ConsumerSession, to phone: PhoneNumber) throws -> LinkConsumerSession {
        try database.transaction { connection in
            try LinkConsumerRepository(connection: connection).setPhone(id: session.consumerId, phone)
            return try session.wire(connection)
        }
    }

    /// Opens a session for `consumerId` (verified by `verifiedBy` when given) inside the caller's
    /// transaction.
    private func open(
        _ connection: any SQLConnection, caller: StripeCaller, consumerId: String, intentId: String?,
        verifiedBy: ConsumerSession.Verification.Kind?, now: Int64, consent: LinkConsentScreen? = nil
    ) throws -> Found {
        let session = try ConsumerSession.create(
            connection, ids: ids, now: now, projectId: caller.projectId, consumerId: consumerId,
            linkAuthIntentId: intentId, verifiedBy: verifiedBy)
        return Found(
            opened: session, session: try session.wire(connection),
            publishableKey: try caller.clientPublishableKey(connection),
            consent: consent)
    }

    private func outcome(
        _ connection: any SQLConnection, of intent: LinkAuthIntents.Record, session: ConsumerSession,
        caller: StripeCaller, now: Int64
    ) throws -> IntentOutcome {
        let customer =
            intent.status == .consented
            ? try CryptoCustomerRepository.getOrCreate(
                connection, ids: ids, now: now, projectId: caller.projectId, consumerId: session.consumerId,
                livemode: caller.livemode) : nil
        return IntentOutcome(intentId: intent.id, status: intent.status, cryptoCustomerId: customer)
    }
}
