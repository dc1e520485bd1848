import Foundation
import OnrampTestSupport
import Testing

/// Crypto customers beyond the happy path: KYC tiers before and after collection, address refresh,
/// EU rules, listings, the client-side session lookup and HTTP Basic keys.
@Suite(.serialized, .blocking) struct EmbeddedCustomerTests {
    @Test func tiersMoveFromNotStartedThroughPendingToVerified() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let fresh = try server.backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        #expect(fresh.string("kyc_region") == "us")
        #expect(fresh.string("verifications.1.name") == "kyc_verified")
        #expect(fresh.string("verifications.1.status") == "not_started", "\(fresh)")
        let pending = try server.sdk.post(
            "/v1/crypto/internal/kyc_data_collection",
            [
                user.credentials, ("first_name", "Ada"), ("last_name", "Verified"), ("id_number", "123-45-6789"),
                ("line1", "1 Main St"), ("city", "Austin"), ("state", "TX"), ("zip", "73301"), ("country", "US"),
                ("dob[day]", "1"), ("dob[month]", "2"), ("dob[year]", "1990"),
            ])
        #expect(pending.string("verifications.0.status") == "pending", "\(pending)")
        let verified = try server.waitForCustomer(user) { $0.string("verifications.1.status") == "verified" }
        #expect(verified.string("kyc_tiers.1.verification_status") == "verified", "\(verified)")
        #expect((verified["provided_fields"] as? [String])?.contains("id_number") == true)
        let retrieved = try server.sdk.get("/v1/crypto/internal/kyc_data_retrieve", [user.credentials])
        #expect(retrieved.string("id_number_last4") == "6789")
        #expect(retrieved["dob.year"] as? Int == 1990)
    }

    /// Any last name but `Verified` fails the sandbox's checks, and the KYC check is decided only once an
    /// id number is on file.
    @Test func anotherLastNameFailsThePhoneCheckAndKYCWaitsForAnIdNumber() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let collected = try server.sdk.post(
            "/v1/crypto/internal/kyc_data_collection",
            [
                user.credentials, ("first_name", "Ada"), ("last_name", "Lovelace"), ("line1", "1 Main St"),
                ("city", "Austin"), ("state", "TX"), ("zip", "73301"), ("country", "US"),
                ("dob[day]", "1"), ("dob[month]", "2"), ("dob[year]", "1990"),
            ])
        #expect(collected.status == 200, "\(collected)")
        let rejected = try server.waitForCustomer(user) { $0.string("verifications.0.status") == "rejected" }
        #expect(rejected.string("verifications.0.name") == "phone_verified", "\(rejected)")
        #expect(rejected.string("verifications.1.status") == "not_started", "\(rejected)")
    }

    @Test func refreshConsumerPersonUpdatesTheAddress() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let confirmed = try server.sdk.post("/v1/crypto/internal/refresh_consumer_person", [user.credentials])
        #expect(confirmed.string("address.city") == "San Francisco", "\(confirmed)")
        let updated = try server.sdk.post(
            "/v1/crypto/internal/refresh_consumer_person",
            [user.credentials, ("address[line1]", "2 Market St"), ("address[city]", "Oakland")])
        #expect(updated.string("address.line1") == "2 Market St" && updated.string("address.city") == "Oakland")
    }

    @Test func euCustomersNeedEurosCardsAndL2() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let kyc = try server.sdk.post(
            "/v1/crypto/internal/kyc_data_collection",
            [
                user.credentials, ("first_name", "Ada"), ("last_name", "Verified"), ("id_number", "12345678"),
                ("line1", "1 Rue de Rivoli"), ("city", "Paris"), ("zip", "75001"), ("country", "FR"),
                ("dob[day]", "1"), ("dob[month]", "2"), ("dob[year]", "1990"),
            ])
        #expect(kyc.status == 200)
        let customer = try server.waitForCustomer(user) { $0.string("verifications.1.status") == "verified" }
        #expect(customer.string("kyc_region") == "eu")
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        let usd = try server.createSession(user, token: token, wallet: wallet)
        #expect(usd.string("error.code") == "crypto_onramp_unsupported_country", "\(usd)")
        let euroSession = {
            try server.backend.post(
                "/v1/crypto/onramp_sessions",
                [
                    ("crypto_customer_id", user.customerId), ("payment_token", token), ("source_amount", "40.00"),
                    ("source_currency", "eur"), ("destination_currency", "usdc"), ("destination_network", "base"),
                    ("wallet_address", wallet),
                ], headers: user.oauth)
        }
        // L2 is mandatory for every EU customer, whatever the amount (Stripe's EU KYC guide).
        let beforeL2 = try euroSession()
        #expect(beforeL2.string("error.code") == "crypto_onramp_missing_document_verification", "\(beforeL2)")
        let verification = try server.sdk.post("/v1/crypto/internal/start_identity_verification", [user.credentials])
        let verified = try server.submitPage(
            path: "/embedded/test/identity",
            [
                ("session", verification.string("id")),
                ("token", EmbeddedTestServer.queryValue(verification.string("url"), "token")), ("outcome", "verified"),
            ])
        #expect(verified.status == 200)
        let eur = try euroSession()
        #expect(eur.status == 200 && eur.string("transaction_details.source_currency") == "eur", "\(eur)")
    }

    @Test func walletsAndPaymentTokensAreListed() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.registerWallet(user)
        try server.registerWallet(user, address: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", network: "solana")
        let token = try server.paymentToken(user)
        let wallets = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/crypto_consumer_wallets", headers: user.oauth)
        #expect((wallets["data"] as? [Any])?.count == 2, "\(wallets)")
        #expect(wallets.string("data.0.object") == "crypto.consumer_wallet")
        let tokens = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/payment_tokens", headers: user.oauth)
        #expect(tokens.string("data.0.id") == token)
        #expect(tokens.string("data.0.card.last4") == "4242" && tokens.string("data.0.card.brand") == "visa")
        #expect(!tokens.text.contains("4242424242424242"))
        // Pages: the newest first, `has_more` when more exist; limit out of range is refused.
        let newest = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/crypto_consumer_wallets", [("limit", "1")], headers: user.oauth)
        #expect((newest["data"] as? [Any])?.count == 1 && newest["has_more"] as? Bool == true, "\(newest)")
        let next = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/crypto_consumer_wallets",
            [("limit", "1"), ("starting_after", newest.string("data.0.id"))], headers: user.oauth)
        #expect((next["data"] as? [Any])?.count == 1 && next["has_more"] as? Bool == false, "\(next)")
        #expect(Set([newest.string("data.0.network"), next.string("data.0.network")]) == ["solana", "base"])
        let unknown = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/payment_tokens", [("starting_after", "cpt_nope")],
            headers: user.oauth)
        #expect(unknown.status == 404 && unknown.string("error.code") == "resource_missing", "\(unknown)")
        let tooMany = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)/payment_tokens", [("limit", "101")], headers: user.oauth)
        #expect(tooMany.status == 400 && tooMany.string("error.code") == "parameter_invalid_integer")
    }

    /// A customer holds at most 500 wallets and 500 payment tokens; a known wallet registers again even then.
    @Test func walletsAndPaymentTokensPerCustomerAreCapped() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        let known = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        try server.database.transaction { connection in
            for index in 1..<500 {
                try connection.execute(
                    """
                    INSERT INTO crypto_wallets (id, project_id, customer_id, network, wallet_address, livemode, created_at)
                    SELECT ?, project_id, customer_id, network, ?, livemode, created_at FROM crypto_wallets WHERE wallet_address = ?
                    """, [.text("cwa_filler\(index)"), .text("filler-\(index)"), .text(known)])
                try connection.execute(
                    """
                    INSERT INTO payment_tokens (id, project_id, customer_id, payment_method_id, details, created_at)
                    SELECT ?, project_id, customer_id, payment_method_id, details, created_at FROM payment_tokens WHERE id = ?
                    """, [.text("cpt_filler\(index)"), .text(token)])
            }
        }
        let another = try server.sdk.post(
            "/v1/crypto/internal/wallet",
            [
                user.credentials, ("wallet_address", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"),
                ("network", "solana"),
            ])
        #expect(another.status == 400 && another.string("error.code") == "resource_limit_exceeded", "\(another)")
        #expect(try server.registerWallet(user) == known)
        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
            ])
        let refused = try server.sdk.post(
            "/v1/crypto/internal/payment_token",
            [user.credentials, ("crypto_customer_id", user.customerId), ("payment_method", method.string("id"))])
        #expect(refused.status == 400 && refused.string("error.code") == "resource_limit_exceeded", "\(refused)")
    }

    @Test func clientRetrievesTheSessionWithItsClientSecret() throws {
        let server = try EmbeddedTestServer()
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let session = try server.createSession(
            user, token: try server.paymentToken(user), wallet: try server.registerWallet(user))
        let fetched = try server.sdk.get(
            "/v1/crypto/internal/onramp_session",
            [("crypto_onramp_session", session.string("id")), ("client_secret", session.string("client_secret"))])
        #expect(fetched.string("id") == session.string("id"), "\(fetched)")
        let wrong = try server.sdk.get(
            "/v1/crypto/internal/onramp_session",
            [("crypto_onramp_session", session.string("id")), ("client_secret", "x")])
        #expect(wrong.status == 404)
    }

    @Test func basicAuthWithTheKeyAsUserNameWorks() throws {
        let server = try EmbeddedTestServer()
        let basic = Data("\(server.credentials.stripeSecretKey):".utf8).base64EncodedString()
        let reply = try RawHTTPClient(port: server.port).request(
            "GET", "/v1/crypto/onramp_transaction_limits", headers: [("Authorization", "Basic \(basic)")])
        #expect(reply.status == 200 && reply.text.contains("\"livemode\":false"), "\(reply.text)")
    }

    @Test func liveKeysGiveLivemode() throws {
        let server = try EmbeddedTestServer(livemode: true)
        #expect(server.credentials.stripeSecretKey.hasPrefix("sk_live_"))
        let limits = try server.backend.get("/v1/crypto/onramp_transaction_limits")
        #expect(limits["livemode"] as? Bool == true, "\(limits)")
        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
                ("card[exp_year]", "2034"),
            ])
        #expect(method["livemode"] as? Bool == true)
    }

    @Test func liveKeysCannotUseTheSimulatedVerifications() throws {
        let server = try EmbeddedTestServer(livemode: true)
        let email = "live-\(UUID().uuidString.prefix(8))@example.com"
        let signUp = try server.sdk.post(
            "/v1/consumers/accounts/sign_up",
            [
                ("email_address", email), ("phone_number", "+14155550123"), ("country", "US"),
                ("legal_name", "Ada Verified"),
            ])
        let credential = (
            "credentials[consumer_session_client_secret]", signUp.string("consumer_session.client_secret")
        )
        for (path, form) in [
            ("/v1/consumers/sessions/start_verification", [credential, ("type", "SMS")]),
            ("/v1/consumers/sessions/confirm_verification", [credential, ("type", "SMS"), ("code", "000000")]),
        ] {
            let reply = try server.sdk.post(path, form)
            #expect(reply.status == 403, "\(reply)")
            #expect(reply.string("error.code") == "livemode_not_supported", "\(reply)")
        }
    }
}
