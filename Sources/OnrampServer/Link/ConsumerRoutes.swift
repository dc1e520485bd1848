import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The Link consumer routes the client SDK calls with the publishable key, as stripe-ios sends them
/// (`StripePaymentSheet/…/API Bindings/Link/STPAPIClient+Link.swift`): lookup and sign-up (mobile and legacy
/// paths), the SMS one-time code (sandbox code `000000`; five wrong codes in 15 minutes lock the consumer),
/// consent to a LinkAuthIntent (inline or on the full-consent screen), refresh, phone change and log out.
/// Every answer carries the whole ``LinkConsumerSession``.
struct ConsumerRoutes: Sendable {
    /// The sandbox one-time code.
    static let sandboxCode = "000000"

    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        // The SDK calls the mobile paths once the elements session enables attestation (always, here), with
        // an App Attest assertion; the legacy paths answer the same, without one.
        let attestation = StripeAttestation(context: context)
        routes.client(
            &router, "POST", "/v1/consumers/mobile/sessions/lookup", Operations.lookupMobileConsumerSession
        ) { _, caller, body in
            try attestation.verifyIfPresent(StripeErrors.fields(body), caller: caller)
            return try lookup(caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/sessions/lookup", Operations.lookupConsumerSession) {
            _, caller, body in
            try lookup(caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/mobile/sign_up", Operations.signUpMobileConsumer) {
            _, caller, body in
            try attestation.verifyIfPresent(StripeErrors.fields(body), caller: caller)
            return try signUp(caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/accounts/sign_up", Operations.signUpConsumerAccount) {
            _, caller, body in
            try signUp(caller: caller, body: body)
        }
        routes.client(
            &router, "POST", "/v1/consumers/sessions/start_verification", Operations.startConsumerVerification
        ) { request, caller, body in
            try startVerification(request, caller: caller, body: body)
        }
        routes.client(
            &router, "POST", "/v1/consumers/sessions/confirm_verification", Operations.confirmConsumerVerification
        ) { request, caller, body in
            try confirmVerification(request, caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/sessions/consent_update", Operations.updateConsumerConsent) {
            request, caller, body in
            try updateConsent(request, caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/sessions/refresh", Operations.refreshConsumerSession) {
            request, caller, body in
            try changeSession(
                request, caller: caller, body: body,
                .expires(at: context.nowMilliseconds + ConsumerSession.lifetimeMilliseconds))
        }
        routes.client(&router, "POST", "/v1/consumers/accounts/update_phone", Operations.updateConsumerPhone) {
            request, caller, body in
            try updatePhone(request, caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/consumers/sessions/log_out", Operations.logOutConsumerSession) {
            request, caller, body in
            try changeSession(request, caller: caller, body: body, .loggedOut)
        }
    }

    /// Applies `change` to the request's session and answers `{consumer_session}` as the SDK's
    /// `SessionResponse` decodes it.
    private func changeSession(
        _ request: HTTPRequest, caller: StripeCaller, body: JSONValue, _ change: ConsumerSession.Change
    ) throws -> JSONValue {
        let session = try ConsumerSession.require(
            request, body: body, caller: caller, context: context, verified: false)
        return try context.database.transaction { connection in
            try session.apply(change, on: connection)
            return ["consumer_session": try session.wire(connection).json]
        }
    }

    /// Looks a consumer up by seamless sign-in secret, LinkAuthIntent or email and opens a session.
    func lookup(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let now = context.nowMilliseconds
        if let latcs = try fields.optional("link_auth_token_client_secret", maxLength: 128) {
            return try context.database.transaction { connection in
                guard
                    let consumerId = try LinkAuthIntents(context: context).redeemClientSecret(
                        connection, latcs, projectId: caller.projectId, now: now)
                else {
                    throw StripeErrors.invalid(
                        "seamless_sign_in_token_invalid",
                        "The link_auth_token_client_secret is invalid, expired or already used.",
                        param: "link_auth_token_client_secret")
                }
                let session = try ConsumerSession.create(
                    connection, context: context, projectId: caller.projectId, consumerId: consumerId,
                    linkAuthIntentId: nil, verifiedBy: .linkAuthToken)
                return try found(connection, session, caller: caller)
            }
        }
        if let intentId = try fields.optional("link_auth_intent_id", maxLength: 64) {
            return try context.database.transaction { connection in
                guard
                    let intent = try LinkAuthIntents(context: context).current(
                        connection, id: intentId, projectId: caller.projectId, now: now)
                else { throw StripeErrors.missing("link_auth_intent", param: "link_auth_intent_id") }
                let session = try ConsumerSession.create(
                    connection, context: context, projectId: caller.projectId, consumerId: intent.consumerId,
                    linkAuthIntentId: intentId, verifiedBy: nil)
                return try found(
                    connection, session, caller: caller,
                    consent: intent.status.isTerminal ? nil : try LinkConsentScreen(connection, intent: intent))
            }
        }
        let email = try fields.required("email_address", maxLength: 800).lowercased()
        return try context.database.transaction { connection in
            guard
                let consumerId = try LinkConsumerRepository(connection: connection).id(
                    email: email, projectId: caller.projectId)
            else { return ["exists": false, "error_message": "No Link account has this email address."] }
            let session = try ConsumerSession.create(
                connection, context: context, projectId: caller.projectId, consumerId: consumerId,
                linkAuthIntentId: nil, verifiedBy: nil)
            return try found(connection, session, caller: caller)
        }
    }

    /// Creates a Link account; its first session counts as verified (`SIGNUP/STARTED`), as real Link's does.
    func signUp(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let email = try fields.required("email_address", maxLength: 800).lowercased()
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
            throw fields.invalid("email_address", "email_address is not an email address.")
        }
        let phone = try Self.phone(fields)
        let country = try fields.optional("country", maxLength: 2)?.uppercased() ?? Self.country(of: phone)
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw fields.invalid("country", "country is an ISO 3166-1 alpha-2 code.")
        }
        let legalName = try fields.optional("legal_name", maxLength: 200) ?? ""
        let consumerId = context.ids.id(prefix: IdPrefix.linkConsumer)
        return try context.database.transaction { connection in
            // One statement decides, so parallel sign-ups with one email get one account and the
            // others this error (a check then an insert let the loser hit the unique index: a 500).
            let inserted = try LinkConsumerRepository(connection: connection).insert(
                id: consumerId, projectId: caller.projectId, email: email, phone: phone, country: country,
                legalName: legalName, now: context.nowMilliseconds)
            guard inserted else {
                throw StripeErrors.invalid(
                    "link_account_already_exists", "A Link account with this email already exists.",
                    param: "email_address")
            }
            let session = try ConsumerSession.create(
                connection, context: context, projectId: caller.projectId, consumerId: consumerId,
                linkAuthIntentId: nil, verifiedBy: .signUp)
            return try found(connection, session, caller: caller)
        }
    }

    /// The `phone_number` field as E.164; a bad one gets the message whose start
    /// `CryptoOnrampCoordinator.handlePhoneFormatError` (stripe-ios) turns into `invalidPhoneFormat`.
    static func phone(_ fields: RequestFields) throws -> PhoneNumber {
        do {
            return try PhoneNumber(e164: try fields.required("phone_number", maxLength: 32))
        } catch let error as OnrampError {
            throw StripeErrors.invalid(
                "invalid_phone_format", "There was an issue parsing the phone number. \(error.developerMessage)",
                param: "phone_number")
        }
    }

    /// The country a sign-up without `country` is in: the SDK infers it from the phone number
    /// (`country_inferring_method=PHONE_NUMBER`); here `+1` is the US and anything else needs `country`.
    static func country(of phone: PhoneNumber) throws -> String {
        guard phone.e164.hasPrefix("+1") else {
            throw StripeErrors.invalid(
                "parameter_missing", "Send country for phone numbers outside +1.", param: "country")
        }
        return "US"
    }

    /// The answer of a lookup or sign-up that found the consumer: the session, the publishable key the SDK
    /// sends the consumer's calls with, and the consent screen to show when a LinkAuthIntent awaits it.
    private func found(
        _ connection: any SQLConnection, _ session: ConsumerSession, caller: StripeCaller,
        consent: LinkConsentScreen? = nil
    ) throws -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("exists", true), ("consumer_session", try session.wire(connection).json),
        ]
        if let key = try caller.clientPublishableKey(connection) {
            members.append(("publishable_key", .string(key)))
        }
        if let consent { members.append(("consent_ui", consent.json)) }
        return .object(members)
    }

    func startVerification(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try ConsumerSession.require(
            request, body: body, caller: caller, context: context, verified: false)
        let type = try StripeErrors.fields(body).optional("type", maxLength: 16) ?? "SMS"
        guard type == "SMS" else {
            throw StripeErrors.invalid("parameter_invalid", "Only type=SMS is supported.", param: "type")
        }
        return try context.database.transaction { connection in
            try session.apply(.otpStarted, on: connection)
            return ["consumer_session": try session.with(otpStarted: true).wire(connection).json]
        }
    }

    func confirmVerification(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try ConsumerSession.require(
            request, body: body, caller: caller, context: context, verified: false)
        let fields = StripeErrors.fields(body)
        let code = try fields.required("code", maxLength: 16)
        let consent = try fields.optionalBool("consent_granted")
        let now = context.nowMilliseconds
        guard session.otpStarted || session.verified else { throw OneTimeCodeRefusal.notStarted }
        // Check and count in one transaction, holding the consumer row on PostgreSQL, so parallel
        // guesses cannot all pass the limit; failures count by when they happened, over 15 minutes.
        let refusal = try context.database.transaction { connection -> OneTimeCodeRefusal? in
            try LinkConsumerRepository(connection: connection).lock(
                id: session.consumerId, dialect: context.database.dialect)
            let failures = try ConsumerSession.otpFailures(
                connection, consumerId: session.consumerId, since: now - ConsumerSession.otpLockoutMilliseconds)
            guard failures < ConsumerSession.maximumOTPFailures else { return .locked }
            guard ConstantTime.equals(Array(code.utf8), Array(Self.sandboxCode.utf8)) else {
                try session.apply(.otpFailed(at: now), on: connection)
                return .wrongCode
            }
            return nil
        }
        if let refusal { throw refusal }
        return try context.database.transaction { connection in
            try session.apply(.verified(by: .sms), on: connection)
            let verified = session.with(verifiedBy: .sms)
            let members: [(String, JSONValue)] = [("consumer_session", try verified.wire(connection).json)]
            guard let intentId = session.linkAuthIntentId else { return .object(members) }
            let intent = try LinkAuthIntents(context: context).advance(
                connection, id: intentId, projectId: caller.projectId, consent: consent, now: now)
            return .object(members + (try outcome(connection, of: intent, session: verified, caller: caller)))
        }
    }

    /// The full-consent screen's answer (`LinkController.updateConsentStatus`): after the one-time code,
    /// the consumer allows or denies the LinkAuthIntent the session was opened for.
    func updateConsent(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        guard let granted = try StripeErrors.fields(body).optionalBool("consent_granted") else {
            throw StripeErrors.invalid(
                "parameter_missing", "Missing consent_granted.", param: "consent_granted")
        }
        guard let intentId = session.linkAuthIntentId, session.verifiedBy == .sms else {
            throw StripeErrors.invalid(
                "link_auth_intent_missing",
                "This consumer session was not opened for a LinkAuthIntent and verified with its one-time code.")
        }
        return try context.database.transaction { connection in
            let intent = try LinkAuthIntents(context: context).advance(
                connection, id: intentId, projectId: caller.projectId, consent: granted, now: context.nowMilliseconds)
            return .object(try outcome(connection, of: intent, session: session, caller: caller))
        }
    }

    /// Where a LinkAuthIntent stands after a verification or consent, and the customer once it is consented.
    private func outcome(
        _ connection: any SQLConnection, of intent: LinkAuthIntents.Record, session: ConsumerSession,
        caller: StripeCaller
    ) throws -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("link_auth_intent", ["id": .string(intent.id), "status": .string(intent.status.rawValue)])
        ]
        if intent.status == .consented {
            let customer = try CryptoCustomer.getOrCreate(
                connection, context: context, projectId: caller.projectId, consumerId: session.consumerId,
                livemode: caller.livemode)
            members.append(("crypto_customer_id", .string(customer)))
        }
        return members
    }

    /// Changes the consumer's phone number (`PaymentSheetLinkAccount.updatePhoneNumber`).
    func updatePhone(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        let phone = try Self.phone(StripeErrors.fields(body))
        return try context.database.transaction { connection in
            try LinkConsumerRepository(connection: connection).setPhone(id: session.consumerId, phone)
            return ["consumer_session": try session.wire(connection).json]
        }
    }
}

/// Why a Link one-time code was not accepted. Turned into the Stripe error here, once.
enum OneTimeCodeRefusal: Error, Equatable, HTTPErrorConvertible {
    /// `start_verification` was not called for the session (400 `consumer_verification_not_started`).
    case notStarted
    /// Too many wrong codes in the last 15 minutes (429 `consumer_verification_locked`).
    case locked
    /// The code is not the one sent (400 `consumer_verification_code_invalid`, parameter `code`).
    case wrongCode

    var httpError: HTTPError {
        switch self {
        case .notStarted:
            StripeErrors.invalid(
                "consumer_verification_not_started", "Call start_verification before confirming a code.")
        case .locked:
            StripeErrors.invalid(
                "consumer_verification_locked", "Too many wrong codes; try again in 15 minutes.", status: 429)
        case .wrongCode:
            StripeErrors.invalid(
                "consumer_verification_code_invalid", "The one-time code is not correct.", param: "code")
        }
    }
}
