import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The Link consumer routes the client SDK calls with the publishable key: lookup, sign-up, SMS
/// one-time code (sandbox code `000000`; five wrong codes in 15 minutes lock the consumer) with consent for a
/// LinkAuthIntent, and log out.
struct ConsumerRoutes: Sendable {
    /// The sandbox one-time code.
    static let sandboxCode = "000000"

    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(&router, "POST", "/v1/consumers/sessions/lookup", Operations.lookupConsumerSession) {
            request, caller, body in
            try lookup(caller: caller, body: body)
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
        routes.client(&router, "POST", "/v1/consumers/sessions/log_out", Operations.logOutConsumerSession) {
            request, caller, body in
            let session = try ConsumerSession.require(
                request, body: body, caller: caller, context: context, verified: false)
            try context.database.transaction { connection in
                try connection.execute(
                    "UPDATE consumer_sessions SET logged_out = 1 WHERE secret_hash = ?", [.text(session.secretHash)])
            }
            return ["logged_out": true]
        }
    }

    func lookup(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let now = context.nowMilliseconds
        if let latcs = try fields.optional("link_auth_token_client_secret", maxLength: 128) {
            return try context.database.transaction { connection in
                let hash = APIKeyRepository.secretHash(latcs)
                guard
                    let row = try connection.query(
                        """
                        SELECT consumer_id FROM link_auth_tokens
                        WHERE token_hash = ? AND kind = 'client_secret' AND project_id = ? AND used_at IS NULL
                            AND expires_at > ?
                        """, [.text(hash), .text(caller.projectId), .integer(now)]
                    ).first,
                    try connection.execute(
                        "UPDATE link_auth_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
                        [.integer(now), .text(hash)]) == 1
                else {
                    throw StripeErrors.invalid(
                        "seamless_sign_in_token_invalid",
                        "The link_auth_token_client_secret is invalid, expired or already used.",
                        param: "link_auth_token_client_secret")
                }
                let consumerId = try row.string("consumer_id")
                return try sessionResponse(
                    connection, caller: caller, consumerId: consumerId, intentId: nil, verified: true)
            }
        }
        let consumerId: String?
        let intentId = try fields.optional("link_auth_intent_id", maxLength: 64)
        if let intentId {
            consumerId = try context.database.read { connection in
                try connection.query(
                    "SELECT consumer_id FROM link_auth_intents WHERE id = ? AND project_id = ?",
                    [.text(intentId), .text(caller.projectId)]
                ).first?.string("consumer_id")
            }
            guard consumerId != nil else {
                throw StripeErrors.missing("link_auth_intent", param: "link_auth_intent_id")
            }
        } else {
            let email = try fields.required("email_address", maxLength: 800).lowercased()
            consumerId = try context.database.read { connection in
                try connection.query(
                    "SELECT id FROM link_consumers WHERE project_id = ? AND email = ?",
                    [.text(caller.projectId), .text(email)]
                ).first?.string("id")
            }
        }
        guard let consumerId else { return ["exists": false] }
        return try context.database.transaction { connection in
            try sessionResponse(connection, caller: caller, consumerId: consumerId, intentId: intentId, verified: false)
        }
    }

    func signUp(caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        let email = try fields.required("email_address", maxLength: 800).lowercased()
        guard email.contains("@"), !email.hasPrefix("@"), !email.hasSuffix("@") else {
            throw fields.invalid("email_address", "email_address is not an email address.")
        }
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(e164: try fields.required("phone_number", maxLength: 32))
        } catch let error as OnrampError {
            throw StripeErrors.invalid("invalid_phone_format", error.developerMessage, param: "phone_number")
        }
        let country = try fields.required("country", maxLength: 2).uppercased()
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw fields.invalid("country", "country is an ISO 3166-1 alpha-2 code.")
        }
        let legalName = try fields.optional("legal_name", maxLength: 200) ?? ""
        let consumerId = context.ids.id(prefix: IdPrefix.linkConsumer)
        return try context.database.transaction { connection in
            // One statement decides, so parallel sign-ups with one email get one account and the
            // others this error (a check then an insert let the loser hit the unique index: a 500).
            let inserted = try connection.execute(
                """
                INSERT INTO link_consumers (id, project_id, email, email_hash, phone, country, legal_name, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (project_id, email) DO NOTHING
                """,
                [
                    .text(consumerId), .text(caller.projectId), .text(email),
                    .text(APIKeyRepository.secretHash(email)), .text(phone.e164), .text(country), .text(legalName),
                    .integer(context.nowMilliseconds),
                ])
            guard inserted == 1 else {
                throw StripeErrors.invalid(
                    "link_account_already_exists", "A Link account with this email already exists.",
                    param: "email_address")
            }
            return try sessionResponse(
                connection, caller: caller, consumerId: consumerId, intentId: nil, verified: false)
        }
    }

    func startVerification(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try ConsumerSession.require(
            request, body: body, caller: caller, context: context, verified: false)
        let type = try StripeErrors.fields(body).optional("type", maxLength: 16) ?? "SMS"
        guard type == "SMS" else {
            throw StripeErrors.invalid("parameter_invalid", "Only type=SMS is supported.", param: "type")
        }
        try context.database.transaction { connection in
            try connection.execute(
                "UPDATE consumer_sessions SET otp_started = 1 WHERE secret_hash = ?", [.text(session.secretHash)])
        }
        return ["consumer_session": ["verification_sessions": [["type": "SMS", "state": "started"]]]]
    }

    func confirmVerification(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        guard !caller.livemode else { throw StripeErrors.liveModeUnsupported("SMS verification") }
        let session = try ConsumerSession.require(
            request, body: body, caller: caller, context: context, verified: false)
        let fields = StripeErrors.fields(body)
        let code = try fields.required("code", maxLength: 16)
        let consent = try fields.optionalBool("consent_granted")
        let now = context.nowMilliseconds
        guard session.otpStarted || session.verified else {
            throw StripeErrors.invalid(
                "consumer_verification_not_started", "Call start_verification before confirming a code.")
        }
        // Check and count in one transaction, holding the consumer row on PostgreSQL, so parallel
        // guesses cannot all pass the limit; failures count by when they happened, over 15 minutes.
        let attempt = try context.database.transaction { connection -> OTPAttempt in
            let lock = context.database.dialect == .postgres ? " FOR UPDATE" : ""
            _ = try connection.query("SELECT id FROM link_consumers WHERE id = ?\(lock)", [.text(session.consumerId)])
            let failures =
                try connection.query(
                    """
                    SELECT COALESCE(SUM(otp_failures), 0) AS failures FROM consumer_sessions
                    WHERE consumer_id = ? AND last_otp_failure_at > ?
                    """,
                    [.text(session.consumerId), .integer(now - ConsumerSession.otpLockoutMilliseconds)]
                ).first?.int("failures") ?? 0
            guard failures < ConsumerSession.maximumOTPFailures else { return .locked }
            guard ConstantTime.equals(Array(code.utf8), Array(Self.sandboxCode.utf8)) else {
                try connection.execute(
                    """
                    UPDATE consumer_sessions SET otp_failures = otp_failures + 1, last_otp_failure_at = ?
                    WHERE secret_hash = ?
                    """, [.integer(now), .text(session.secretHash)])
                return .wrongCode
            }
            return .accepted
        }
        switch attempt {
        case .locked:
            throw StripeErrors.invalid(
                "consumer_verification_locked", "Too many wrong codes; try again in 15 minutes.", status: 429)
        case .wrongCode:
            throw StripeErrors.invalid(
                "consumer_verification_code_invalid", "The one-time code is not correct.", param: "code")
        case .accepted:
            break
        }
        return try context.database.transaction { connection in
            try connection.execute(
                "UPDATE consumer_sessions SET verified = 1 WHERE secret_hash = ?", [.text(session.secretHash)])
            var members: [(String, JSONValue)] = [
                ("consumer_session", ["verification_sessions": [["type": "SMS", "state": "verified"]]])
            ]
            guard let intentId = session.linkAuthIntentId else { return .object(members) }
            let intent = try LinkAuthIntents(context: context).advance(
                connection, id: intentId, projectId: caller.projectId, consent: consent, now: now)
            members.append(("link_auth_intent", ["id": .string(intentId), "status": .string(intent.status.rawValue)]))
            if intent.status == .consented {
                let customer = try CryptoCustomer.getOrCreate(
                    connection, context: context, projectId: caller.projectId, consumerId: session.consumerId,
                    livemode: caller.livemode)
                members.append(("crypto_customer_id", .string(customer)))
                if intent.scopes.contains("auth.persist_login:read") {
                    members.append(
                        (
                            "link_auth_token",
                            .string(
                                try LinkAuthIntents(context: context).issueLinkAuthToken(
                                    connection, projectId: caller.projectId, consumerId: session.consumerId))
                        ))
                }
            }
            return .object(members)
        }
    }

    private func sessionResponse(
        _ connection: any SQLConnection, caller: StripeCaller, consumerId: String, intentId: String?, verified: Bool
    ) throws -> JSONValue {
        let secret = try ConsumerSession.create(
            connection, context: context, projectId: caller.projectId, consumerId: consumerId,
            linkAuthIntentId: intentId, verified: verified)
        let email =
            try connection.query("SELECT email FROM link_consumers WHERE id = ?", [.text(consumerId)]).first?
            .string("email") ?? ""
        let verifications: JSONValue = verified ? [["type": "SMS", "state": "verified"]] : []
        return [
            "exists": true,
            "consumer_session": [
                "client_secret": .string(secret), "email_address": .string(ConsumerSession.redacted(email)),
                "verification_sessions": verifications,
            ],
        ]
    }
}

/// The outcome of checking a one-time code.
private enum OTPAttempt {
    case accepted, wrongCode, locked
}
