import Foundation
import OnrampTestSupport
import Testing

/// One test per error code of the Embedded contract, in the Stripe error shape.
@Suite(.serialized, .blocking) struct EmbeddedErrorCodeTests {
    private func expectError(
        _ reply: StripeTestClient.Reply, status: Int, code: String, type: String = "invalid_request_error",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == status, "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.string("error.code") == code, "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.string("error.type") == type, "\(reply)", sourceLocation: sourceLocation)
        #expect(!reply.string("error.message").isEmpty, sourceLocation: sourceLocation)
        #expect(reply.headers["request-id"] != nil, sourceLocation: sourceLocation)
    }

    @Test func invalidPhoneFormat() throws {
        let server = try EmbeddedTestServer()
        let reply = try server.sdk.post(
            "/v1/consumers/accounts/sign_up",
            [("email_address", "a@example.com"), ("phone_number", "4155550123"), ("country", "US")])
        expectError(reply, status: 400, code: "invalid_phone_format")
        #expect(reply.string("error.param") == "phone_number")
    }

    @Test func linkAccountAlreadyExists() throws {
        let server = try EmbeddedTestServer()
        let form = [("email_address", "a@example.com"), ("phone_number", "+14155550123"), ("country", "US")]
        #expect(try server.sdk.post("/v1/consumers/accounts/sign_up", form).status == 200)
        expectError(
            try server.sdk.post("/v1/consumers/accounts/sign_up", form), status: 400,
            code: "link_account_already_exists")
    }

    /// A sign-up's own session may act (`SIGNUP/STARTED`, as real Link allows); a later lookup's session
    /// needs the one-time code first.
    @Test func linkAccountNotVerified() throws {
        let server = try EmbeddedTestServer()
        let signUp = try server.sdk.post(
            "/v1/consumers/mobile/sign_up", [("email_address", "a@example.com"), ("phone_number", "+14155550123")])
        let signUpSecret = (
            "credentials[consumer_session_client_secret]", signUp.string("consumer_session.client_secret")
        )
        #expect(try server.sdk.post("/v1/crypto/internal/customers", [signUpSecret]).status == 200)
        let lookup = try server.sdk.post("/v1/consumers/mobile/sessions/lookup", [("email_address", "a@example.com")])
        let reply = try server.sdk.post(
            "/v1/crypto/internal/customers",
            [("credentials[consumer_session_client_secret]", lookup.string("consumer_session.client_secret"))])
        expectError(reply, status: 403, code: "link_account_not_verified")
    }

    @Test func missingCryptoCustomerId() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let reply = try server.sdk.post(
            "/v1/crypto/internal/payment_token", [user.credentials, ("payment_method", "pm_card_visa")])
        expectError(reply, status: 400, code: "missing_crypto_customer_id")
    }

    @Test func seamlessSignInTokenInvalid() throws {
        let server = try EmbeddedTestServer()
        let reply = try server.sdk.post(
            "/v1/consumers/sessions/lookup", [("link_auth_token_client_secret", "latcs_nope")])
        expectError(reply, status: 400, code: "seamless_sign_in_token_invalid")
    }

    @Test func linkAuthIntentErrors() throws {
        let server = try EmbeddedTestServer()
        let arrayScopes = try server.backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": "x@example.com", "oauth_client_id": server.credentials.oauthClientId,
                "oauth_scopes": ["crypto:ramp"],
            ])
        expectError(arrayScopes, status: 400, code: "parameter_invalid")
        #expect(arrayScopes.string("error.param") == "oauth_scopes")
        let unknown = try server.backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": "nobody@example.com", "oauth_client_id": server.credentials.oauthClientId,
                "oauth_scopes": "crypto:ramp",
            ])
        expectError(unknown, status: 404, code: "link_consumer_not_found")
        let wrongClient = try server.backend.postJSON(
            "/v1/link_auth_intent",
            ["email": "nobody@example.com", "oauth_client_id": "lnk_oauth_x", "oauth_scopes": "crypto:ramp"])
        expectError(wrongClient, status: 403, code: "link_oauth_not_enabled")
        let badScope = try server.backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": "nobody@example.com", "oauth_client_id": server.credentials.oauthClientId,
                "oauth_scopes": "admin",
            ])
        expectError(badScope, status: 400, code: "invalid_scope")
    }

    /// Publishable keys ship in apps, so their calls are limited per client address; the secret key is not.
    @Test func publishableKeyCallsAreRateLimited() throws {
        let server = try EmbeddedTestServer(clientRequestsPerSecond: 1)
        let lookup = [("email_address", "someone@example.com")]
        // A burst of two, then one a second: ten quick calls see refusals however slow the machine is.
        let replies = try (0..<10).map { _ in try server.sdk.post("/v1/consumers/sessions/lookup", lookup) }
        #expect(replies.prefix(2).allSatisfy { $0.status == 200 })
        let limited = try #require(replies.first { $0.status == 429 })
        expectError(limited, status: 429, code: "rate_limit")
        #expect(limited.headers["retry-after"] == "1")
        // The secret key (a partner backend, one address for many users) is not limited here.
        let backend = try (0..<5).map { _ in try server.backend.post("/v1/consumers/sessions/lookup", lookup).status }
        #expect(backend == [200, 200, 200, 200, 200])
    }

    @Test func authenticationErrors() throws {
        let server = try EmbeddedTestServer()
        let none = try server.client(key: "sk_test_wrong").get("/v1/crypto/onramp_sessions")
        expectError(none, status: 401, code: "api_key_invalid", type: "authentication_error")
        let publishable = try server.sdk.get("/v1/crypto/onramp_sessions")
        expectError(publishable, status: 403, code: "secret_key_required")
    }

    /// A user with KYC collected under `lastName` and a wallet and card, ready to create sessions.
    private func sessionFixture(
        _ server: EmbeddedTestServer, lastName: String = "Verified", state: String = "CA", kyc: Bool = true
    )
        throws -> (EmbeddedTestServer.User, String, String)
    {
        let user = try server.signUpAndAuthorize()
        if kyc { try server.collectKYC(user, lastName: lastName, state: state) }
        return (user, try server.paymentToken(user), try server.registerWallet(user))
    }

    @Test func missingMinimumIdentityVerification() throws {
        let server = try EmbeddedTestServer()
        let (user, token, wallet) = try sessionFixture(server, kyc: false)
        expectError(
            try server.createSession(user, token: token, wallet: wallet), status: 400,
            code: "crypto_onramp_missing_minimum_identity_verification")
    }

    @Test func missingIdentityVerification() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let kyc = try server.sdk.post(
            "/v1/crypto/internal/kyc_data_collection",
            [
                user.credentials, ("first_name", "Ada"), ("last_name", "Verified"), ("line1", "1 Main St"),
                ("city", "Austin"),
                ("state", "TX"), ("zip", "73301"), ("country", "US"),
            ])
        #expect(kyc.status == 200)
        _ = try server.waitForCustomer(user) {
            ($0["verifications"] as? [[String: Any]])?.first?["status"] as? String == "verified"
        }
        let token = try server.paymentToken(user)
        let wallet = try server.registerWallet(user)
        expectError(
            try server.createSession(user, token: token, wallet: wallet), status: 400,
            code: "crypto_onramp_missing_identity_verification")
    }

    @Test func missingDocumentVerification() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user, firstName: "Challenge")
        let reply = try server.createSession(
            user, token: try server.paymentToken(user), wallet: try server.registerWallet(user))
        expectError(reply, status: 400, code: "crypto_onramp_missing_document_verification")
    }

    @Test func unsupportedCountryForNewYork() throws {
        let server = try EmbeddedTestServer()
        let (user, token, wallet) = try sessionFixture(server, state: "NY")
        expectError(
            try server.createSession(user, token: token, wallet: wallet), status: 400,
            code: "crypto_onramp_unsupported_country")
    }

    @Test func invalidSourceDestinationPair() throws {
        let server = try EmbeddedTestServer()
        let (user, token, wallet) = try sessionFixture(server)
        let reply = try server.createSession(user, token: token, wallet: wallet, network: "polygon")
        expectError(reply, status: 400, code: "crypto_onramp_invalid_source_destination_pair")
    }

    @Test func unsupportableCustomer() throws {
        let server = try EmbeddedTestServer()
        let (user, token, wallet) = try sessionFixture(server, lastName: "Lovelace")
        expectError(
            try server.createSession(user, token: token, wallet: wallet), status: 400,
            code: "crypto_onramp_unsupportable_customer")
    }

    @Test func sourceAndDestinationAmountTogether() throws {
        let server = try EmbeddedTestServer()
        let (user, token, wallet) = try sessionFixture(server)
        let reply = try server.createSession(user, token: token, wallet: wallet, extra: [("destination_amount", "10")])
        expectError(reply, status: 400, code: "amount_choice_invalid")
    }

    @Test func walletAndCardValidation() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let wallet = try server.sdk.post(
            "/v1/crypto/internal/wallet", [user.credentials, ("wallet_address", "0x1234"), ("network", "base")])
        expectError(wallet, status: 400, code: "crypto_invalid_wallet_address")
        let card = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4242424242424241"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
            ])
        expectError(card, status: 402, code: "incorrect_number", type: "card_error")
    }

    @Test func kycRetrieveReturnsOnlyTheLastFourDigits() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let kyc = try server.sdk.get("/v1/crypto/internal/kyc_data_retrieve", [user.credentials])
        #expect(kyc.string("id_number_last4") == "0000", "\(kyc)")
        #expect(!kyc.text.contains("000000000"))
        let stored = try server.database.read { try $0.query("SELECT * FROM crypto_customers", []) }
        #expect(!stored.description.contains("000000000"))
    }
}
