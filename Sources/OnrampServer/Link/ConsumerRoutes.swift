import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// The Link consumer routes the client SDK calls with the publishable key, as stripe-ios sends them
/// (`StripePaymentSheet/…/API Bindings/Link/STPAPIClient+Link.swift`): lookup and sign-up (mobile and legacy
/// paths), the SMS one-time code (sandbox code `000000`; five wrong codes in 15 minutes lock the consumer),
/// consent to a LinkAuthIntent (inline or on the full-consent screen), refresh, phone change and log out.
/// Every answer carries the whole ``LinkConsumerSession``. The forms are decoded here
/// (``ConsumerRequests``), the state changes are ``ConsumerService``'s.
struct ConsumerRoutes: Sendable {
    let routes: StripeRoutes
    let service: ConsumerService
    var context: ServerContext { routes.context }
    /// The App Attest check of the mobile paths: the SDK calls them once the elements session enables
    /// attestation (always, here), with an assertion; the legacy paths answer the same, without one.
    private var attestation: StripeAttestation { StripeAttestation(context: context) }

    init(routes: StripeRoutes) {
        self.routes = routes
        service = ConsumerService(context: routes.context)
    }

    func lookupMobileConsumerSession(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try attestation.verifyIfPresent(RequestFields.stripe(body), caller: caller)
        return try lookup(caller: caller, body: body)
    }

    func lookupConsumerSession(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try lookup(caller: caller, body: body)
    }

    func signUpMobileConsumer(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try attestation.verifyIfPresent(RequestFields.stripe(body), caller: caller)
        return try signUp(caller: caller, body: body)
    }

    func signUpConsumerAccount(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        try signUp(caller: caller, body: body)
    }

    /// The sign-up's answer: the session, and the new account's id (`account_id`, which one version of
    /// Android's parser requires).
    private func signUp(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let found = try service.signUp(ConsumerSignUp(RequestFields.stripe(body)), caller: caller)
        return found.json.setting(["account_id": .string(found.opened.consumerId)])
    }

    func startConsumerVerification(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try session(request, body: body, caller: caller, verified: false)
        _ = try VerificationStart(RequestFields.stripe(body))
        return Self.answer(try service.startVerification(session))
    }

    func confirmConsumerVerification(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try session(request, body: body, caller: caller, verified: false)
        let confirmation = try VerificationConfirmation(RequestFields.stripe(body))
        let (verified, intent) = try service.confirmVerification(session, confirmation, caller: caller)
        return .object([("consumer_session", verified.json)] + (intent?.members ?? []))
    }

    func updateConsumerConsent(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try session(request, body: body, caller: caller)
        let update = try ConsentUpdate(RequestFields.stripe(body))
        return .object(try service.updateConsent(session, update, caller: caller).members)
    }

    func refreshConsumerSession(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try session(request, body: body, caller: caller, verified: false)
        return Self.answer(
            try service.change(
                session, .expires(at: service.nowMilliseconds + ConsumerSession.lifetimeMilliseconds)))
    }

    func updateConsumerPhone(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try session(request, body: body, caller: caller)
        let phone = try ConsumerSignUp.phone(RequestFields.stripe(body))
        return Self.answer(try service.updatePhone(session, to: phone))
    }

    func logOutConsumerSession(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let session = try session(request, body: body, caller: caller, verified: false)
        return Self.answer(try service.change(session, .loggedOut))
    }

    /// The consumer session the request names (verified unless `verified` is false).
    private func session(_ request: HTTPRequest, body: JSONValue, caller: StripeCaller, verified: Bool = true) throws
        -> ConsumerSession
    {
        try ConsumerSession.require(request, body: body, caller: caller, context: context, verified: verified)
    }

    /// `{consumer_session}`, as the SDK's `SessionResponse` decodes it.
    private static func answer(_ session: LinkConsumerSession) -> JSONValue {
        ["consumer_session": session.json]
    }

    /// A lookup's answer: the session found, or `exists: false`.
    private func lookup(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        guard let found = try service.lookup(ConsumerLookup(RequestFields.stripe(body)), caller: caller) else {
            return ["exists": false, "error_message": "No Link account has this email address."]
        }
        return found.json
    }
}
