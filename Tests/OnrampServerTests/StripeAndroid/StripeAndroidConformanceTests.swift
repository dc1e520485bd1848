import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Every call stripe-android's `crypto-onramp` makes in the seed's flow, encoded as it encodes them
/// (``AndroidSDKClient``) and answered into models of what its parsers require (``AndroidModels``), on SQLite and
/// PostgreSQL over real HTTP (`../shared/audits/stripe-android-2026.md` §3).
@Suite(.blocking) struct StripeAndroidConformanceTests {
    static let surface = AndroidParameter.value("request_surface", "android_crypto_onramp")
    /// What Play Integrity gives the app, as it travels (the sandbox cannot check a verdict: any token in test
    /// mode).
    static let integrity: [AndroidParameter] = [
        .value("android_verification_token", "eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.sandbox-integrity-token"),
        .value("app_id", "com.example.wallet"),
    ]
    static let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

    /// Sign-up and authorize with Play Integrity fields, the one-time code and full consent, KYC with
    /// nationalities, identity start, a wallet registered and deleted by `DELETE` with its parameters in the
    /// query, a card through Link, the payment token, checkout through the PaymentIntent, and the session's
    /// `fulfillment_complete` with its event.
    @Test(arguments: DatabaseDriver.all)
    func theWholeAndroidFlowDecodes(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: driver, transport: .live)
        let sdk = AndroidSDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let email = "android-\(UUID().uuidString.prefix(8).lowercased())@example.com"

        // OnrampCoordinator.configure → LinkController.configure → elements/sessions.
        let elements = try sdk.get(
            "elements/sessions",
            [
                .value("type", "deferred_intent"), .value("locale", "en-US"),
                .map("deferred_intent", [.value("mode", "setup"), .value("setup_future_usage", "off_session")]),
            ], as: AndroidElementsSession.self)
        #expect(elements.paymentMethodPreference.object == "payment_method_preference")
        #expect(elements.linkSettings?.linkMobileUseAttestationEndpoints == true)

        // hasLinkAccount, then registerLinkUser: the mobile paths with Play Integrity.
        let lookupBase: [AndroidParameter] =
            [Self.surface, .value("session_id", "elements_session_android"), .value("email_source", "customer_email")]
            + Self.integrity + [.list("supported_verification_types", ["SMS"])]
        let unknown = try sdk.post(
            "consumers/mobile/sessions/lookup", lookupBase + [.value("email_address", email)],
            as: AndroidLookupResponse.self)
        #expect(unknown.exists == false)
        let signUp = try sdk.post(
            "consumers/mobile/sign_up",
            [
                .value("email_address", email), .value("phone_number", "+14155550123"), .value("country", "US"),
                .value("country_inferring_method", "PHONE_NUMBER"), .value("locale", "en-US"),
                .value("legal_name", "Ada Verified"),
                .value("consent_action", "entered_phone_number_email_clicked_signup_crypto_onramp"), Self.surface,
                .value("amount", "5000"), .value("currency", "usd"),
            ] + Self.integrity, as: AndroidSignUpResponse.self)
        #expect(!signUp.accountId.isEmpty)
        #expect(signUp.consumerSession.redactedPhoneNumber.hasSuffix("23"))
        #expect(signUp.consumerSession.has("signup", "started"))

        // authorize(linkAuthIntentId): lookup by intent, one-time code, consent.
        let intent = try server.backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": email, "oauth_client_id": server.credentials.oauthClientId,
                "oauth_scopes": "kyc.status:read,crypto:ramp,auth.persist_login:read",
            ]
        ).string("id")
        let lookup = try sdk.post(
            "consumers/mobile/sessions/lookup", lookupBase + [.value("link_auth_intent_id", intent)],
            as: AndroidLookupResponse.self)
        let session = try #require(lookup.consumerSession)
        let consumerKey = try #require(lookup.publishableKey)
        let credentials = androidCredentials(session.clientSecret)
        let started = try sdk.post(
            "consumers/sessions/start_verification",
            [Self.surface, credentials, .value("type", "SMS"), .value("locale", "en-US")],
            as: AndroidSessionResponse.self, key: consumerKey)
        #expect(started.consumerSession.has("sms", "started"))
        let confirmed = try sdk.post(
            "consumers/sessions/confirm_verification",
            [Self.surface, credentials, .value("type", "SMS"), .value("code", "000000")],
            as: AndroidSessionResponse.self, key: consumerKey)
        #expect(confirmed.consumerSession.has("sms", "verified"))
        let consent = try sdk.send(
            "POST", "consumers/sessions/consent_update",
            [Self.surface, credentials, .value("consent_granted", "true")], key: consumerKey)
        #expect(consent.status == 200, "\(consent.text)")
        let refreshed = try sdk.post(
            "consumers/sessions/refresh",
            [
                .value("app_id", "com.example.wallet"), Self.surface, credentials,
                .list("supported_verification_types", ["SMS"]),
            ],
            as: AndroidSessionResponse.self, key: consumerKey)
        #expect(refreshed.consumerSession.clientSecret == session.clientSecret)
        let tokens = try server.backend.post("/v1/link_auth_intent/\(intent)/tokens")
        let customer = try sdk.post("crypto/internal/customers", [credentials], as: AndroidIdResponse.self)
        #expect(customer.id.hasPrefix("crc_"))

        // collectKycData (with Android's list encoding), retrieveKycInfo (POST), identity, wallet set and delete.
        let kyc: [AndroidParameter] = [
            credentials, .value("first_name", "Ada"), .value("last_name", "Verified"), .value("id_number", "000000000"),
            .value("id_type", "social_security_number"),
            .map("dob", [.value("day", "15"), .value("month", "6"), .value("year", "1990")]),
            .value("line1", "address_full_match"), .value("line2", ""), .value("city", "San Francisco"),
            .value("state", "CA"), .value("zip", "94103"), .value("country", "US"),
            .list("nationalities", ["US"]), .value("birth_country", "US"), .value("birth_city", "Boston"),
        ]
        let collected = try sdk.send("POST", "crypto/internal/kyc_data_collection", kyc)
        #expect(collected.status == 200, "\(collected.text)")
        let retrieved = try sdk.post(
            "crypto/internal/kyc_data_retrieve", [credentials], as: AndroidKycRetrieveResponse.self)
        #expect(retrieved.dob.year == 1990 && retrieved.idNumberLast4 == "0000" && retrieved.address?.zip == "94103")
        let identity = try sdk.post(
            "crypto/internal/start_identity_verification", [credentials, .value("is_mobile", "true")],
            as: AndroidStartIdentityVerificationResponse.self)
        #expect(URL(string: identity.url) != nil)
        let walletForm: [AndroidParameter] = [
            credentials, .value("wallet_address", Self.wallet), .value("network", "base"),
        ]
        let registered = try sdk.post("crypto/internal/wallet", walletForm, as: AndroidIdResponse.self)
        let deleted = try sdk.send(
            "DELETE", "crypto/internal/wallet", [.value("wallet_token", registered.id), credentials])
        #expect(deleted.status == 200, "DELETE with its parameters in the query: \(deleted.text)")
        _ = try sdk.post("crypto/internal/wallet", walletForm, as: AndroidIdResponse.self)

        // createCryptoPaymentToken: platform settings, a card through Link shared with the platform's key, the token.
        let platform = try sdk.get(
            "crypto/internal/platform_settings",
            [.value("crypto_customer_id", customer.id), .value("ui_mode", "headless")],
            as: AndroidPlatformSettings.self,
            consumerSecret: session.clientSecret)
        let details = try sdk.post(
            "consumers/payment_details",
            [
                Self.surface, credentials, .value("type", "card"), .value("billing_email_address", email),
                .map(
                    "card",
                    [.value("number", "4242424242424242"), .value("exp_month", "12"), .value("exp_year", "2034")]),
                .map("billing_address", [.value("country_code", "US"), .value("postal_code", "94103")]),
                .value("active", "true"),
            ], as: AndroidPaymentDetailsResponse.self, key: consumerKey)
        #expect(details.redactedPaymentDetails.cardDetails.last4 == "4242")
        let shared = try sdk.post(
            "consumers/payment_details/share",
            [
                Self.surface, .value("id", details.redactedPaymentDetails.id),
                .value("expected_payment_method_type", "card"), credentials,
            ], as: AndroidShareResponse.self, key: platform.publishableKey)
        let token = try sdk.post(
            "crypto/internal/payment_token",
            [
                .value("crypto_customer_id", customer.id), .value("payment_method", shared.paymentMethod.id),
                .value("ui_mode", "headless"),
            ], as: AndroidIdResponse.self)

        // performCheckout: the partner's backend creates and checks out the session; the SDK reads it and its
        // PaymentIntent (with the platform's key), then the session is fulfilled.
        let user = EmbeddedTestServer.User(
            email: email, consumerSecret: session.clientSecret, customerId: customer.id,
            accessToken: tokens.string("access_token"), refreshToken: tokens.string("refresh.refresh_token"))
        _ = try server.waitForCustomer(user) { reply in
            (reply["verifications"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String != "pending" } == true
        }
        let onramp = try server.createSession(user, token: token.id, wallet: Self.wallet)
        let sessionId = onramp.string("id")
        #expect(try server.checkout(user, sessionId).status == 200)
        let read = try sdk.get(
            "crypto/internal/onramp_session",
            [.value("crypto_onramp_session", sessionId), .value("client_secret", onramp.string("client_secret"))],
            as: AndroidOnrampSession.self)
        let intentId = String(read.paymentIntentClientSecret.split(separator: "_secret_").first ?? "")
        let paymentIntent = try sdk.get(
            "payment_intents/\(intentId)",
            [.value("client_secret", read.paymentIntentClientSecret), .list("expand", ["payment_method"])],
            as: AndroidPaymentIntent.self, key: platform.publishableKey)
        #expect(paymentIntent.completes, "\(paymentIntent)")
        #expect(
            try server.waitForSession(sessionId, status: "fulfillment_complete").string("status")
                == "fulfillment_complete")
        let events = try server.backend.get("/v1/events", [("type", "crypto.onramp_session.updated")])
        let statuses = (events["data"] as? [[String: Any]] ?? []).compactMap {
            (($0["data"] as? [String: Any])?["object"] as? [String: Any])?["status"] as? String
        }
        #expect(statuses.contains("fulfillment_complete"), "\(events)")
    }

    /// Live mode: Play Integrity cannot be checked offline, so a present token (with its `app_id`) is taken and a
    /// mobile call with neither an App Attest assertion nor a token is refused in Stripe's shape, as is a token
    /// without its `app_id`.
    @Test func liveModeNeedsAnAttestationOnTheMobilePaths() throws {
        let server = try EmbeddedTestServer(livemode: true, transport: .live)
        let sdk = AndroidSDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let lookup: [AndroidParameter] = [Self.surface, .value("email_address", "live@example.com")]
        let missing = try sdk.send("POST", "consumers/mobile/sessions/lookup", lookup)
        let missingError = try sdk.decode(AndroidAPIError.self, "lookup", missing)
        #expect(missing.status == 400 && missingError.error.code == "link_failed_to_attest_request", "\(missing.text)")
        let noApp = try sdk.send(
            "POST", "consumers/mobile/sessions/lookup", lookup + [Self.integrity[0]])
        let noAppError = try sdk.decode(AndroidAPIError.self, "lookup", noApp)
        #expect(noApp.status == 400 && noAppError.error.param == "app_id")
        let attested = try sdk.post(
            "consumers/mobile/sessions/lookup", lookup + Self.integrity, as: AndroidLookupResponse.self)
        #expect(attested.exists == false)
    }

    /// `kyc_data_retrieve` before a date of birth is on file is refused in Stripe's shape: both SDKs require a
    /// name and a date of birth, and an answer with nulls fails to parse on the device.
    @Test func retrievingKYCBeforeItIsCollectedIsRefused() throws {
        let server = try EmbeddedTestServer(settlementDelay: 30, transport: .live)
        let user = try server.signUpAndAuthorize()
        let sdk = AndroidSDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let reply = try sdk.send("POST", "crypto/internal/kyc_data_retrieve", [androidCredentials(user.consumerSecret)])
        let error = try sdk.decode(AndroidAPIError.self, "kyc_data_retrieve", reply)
        #expect(reply.status == 400 && error.error.code == "kyc_data_missing", "\(reply.text)")
    }

    /// `java.net.URLEncoder`'s encoding, as the SDK sends every key and value.
    @Test func theEncoderWritesWhatURLEncoderWrites() {
        #expect(
            AndroidParameter.encode([androidCredentials("cscs_1 x"), .list("types", ["SMS", "EMAIL"]), .list("e", [])])
                == "credentials%5Bconsumer_session_client_secret%5D=cscs_1+x&types%5B%5D=SMS&types%5B%5D=EMAIL&e=")
    }
}
