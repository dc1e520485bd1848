import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Every call the StripeCryptoOnramp iOS SDK makes, sent exactly as it encodes it (``SDKClient``,
/// ``SDKFormEncoder``) and answered into models that require what its decoders require (``SDKModels``), on
/// SQLite and PostgreSQL. The call list and parameters are those of `../shared/audits/stripe-ios-sdk.md`
/// §3, read from stripe-ios (`STPAPIClient+CryptoOnramp.swift`, its tests `STPAPIClient+CryptoOnrampTests`
/// and `CryptoOnrampCoordinatorTests`, `STPAPIClient+Link.swift`, `STPAPIClient+PaymentSheet.swift`).
@Suite(.blocking) struct StripeSDKConformanceTests {
    /// The SDK's `request_surface` for this SDK.
    static let surface: SDKParameter = "ios_crypto_onramp"
    /// `StripeAttest.testmodeAssertion()`'s fields: what a test-mode app sends without a working App Attest.
    static let testAssertion: [String: SDKParameter] = [
        "app_id": "com.example.test", "device_id": "test-device-id", "key_id": "TestKeyID",
        "ios_assertion_object": "AQID",
    ]

    /// The SDK's encoding matches the bodies stripe-ios's own request tests assert
    /// (`STPAPIClient+CryptoOnrampTests.swift`, commit 7bd2baf4).
    @Test func theEncoderWritesWhatTheSDKTestsExpect() {
        #expect(
            SDKFormEncoder.encode(["credentials": ["consumer_session_client_secret": "cscs_1"]])
                == "credentials[consumer_session_client_secret]=cscs_1")
        #expect(
            SDKFormEncoder.encode(["line1": "123 Fake Street", "state": "New York", "dob": ["day": "31"]])
                == "dob[day]=31&line1=123%20Fake%20Street&state=New%20York")
        #expect(
            SDKFormEncoder.encode(["supported_verification_types": ["SMS", "EMAIL"], "flag": true, "plus": "a+b"])
                == "flag=true&plus=a%2Bb&supported_verification_types[0]=SMS&supported_verification_types[1]=EMAIL")
    }

    /// Coordinator creation, sign-up, LinkAuthIntent with the one-time code and the full-consent screen,
    /// KYC, identity start, wallet, a card through Link, Apple Pay, the payment token, checkout through the
    /// PaymentIntent, refresh, phone change, log out and seamless sign-in: every answer decodes.
    @Test(arguments: DatabaseDriver.all)
    func theWholeSDKFlowDecodes(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 0, driver: driver, transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let email = "sdk-\(UUID().uuidString.prefix(8).lowercased())@example.com"

        // CryptoOnrampCoordinator.create → LinkController.create → elements/sessions (no payment_method_types),
        // with the 2026 SDK's mobile-session contract, checked as the SDK checks it.
        let elementsReply = try sdk.send(
            "GET", "elements/sessions",
            [
                "type": "deferred_intent", "key": .string(server.credentials.stripePublishableKey),
                "deferred_intent": ["mode": "setup", "setup_future_usage": "off_session"], "locale": "en-US",
                "mobile_app_id": "com.example.test", "mobile_session_id": "B2C1C7F5-2F5C-4B0F-9A1E-7D6C8E2A9B10",
            ], key: nil,
            headers: [(SDKMobileSessionContract.headerName, SDKMobileSessionContract.requestHeader)])
        #expect(
            SDKMobileSessionContract.failure(
                header: elementsReply.headers["stripe-mobile-session-contract"], body: elementsReply.body) == nil)
        let elements = try sdk.decoded(SDKElementsSession.self, elementsReply, "elements/sessions")
        #expect(elements.linkSettings?.linkMobileUseAttestationEndpoints == true, "DeviceCanUseNativeLink")
        #expect(!elements.paymentMethodPreference.orderedPaymentMethodTypes.isEmpty)

        // hasLinkAccount: mobile lookup, unknown email.
        var lookupFields: [String: SDKParameter] = [
            "request_surface": Self.surface, "session_id": .string(elements.sessionId),
            "email_address": .string(email), "email_source": "customer_email",
            "supported_verification_types": ["SMS", "EMAIL"], "do_not_log_consumer_funnel_event": true,
        ]
        lookupFields.merge(Self.testAssertion) { $1 }
        let unknown = try sdk.post("consumers/mobile/sessions/lookup", lookupFields, as: SDKLookupResponse.self)
        #expect(!unknown.exists)

        // registerLinkUser: mobile sign-up; a bad phone first.
        var signUpFields: [String: SDKParameter] = [
            "request_surface": Self.surface, "email_address": .string(email), "phone_number": "+14155550123",
            "locale": "en-US", "country_inferring_method": "PHONE_NUMBER", "legal_name": "Ada Verified",
            "consent_action": "entered_phone_number_email_clicked_signup_crypto_onramp",
        ]
        signUpFields.merge(Self.testAssertion) { $1 }
        var badPhone = signUpFields
        badPhone["phone_number"] = "555"
        let (phoneStatus, phoneError) = try sdk.error("POST", "consumers/mobile/sign_up", badPhone)
        #expect(phoneStatus == 400)
        #expect(
            phoneError.error.message?.hasPrefix("There was an issue parsing the phone number") == true,
            "CryptoOnrampCoordinator.handlePhoneFormatError matches this prefix")
        let signUp = try sdk.post("consumers/mobile/sign_up", signUpFields, as: SDKSessionWithPublishableKey.self)
        #expect(signUp.consumerSession.isVerified, "SIGNUP/STARTED counts as signed in")
        #expect(signUp.consumerSession.emailAddress == email)
        #expect(signUp.publishableKey.hasPrefix("pk_test_"))
        let afterSignUp = try sdk.post(
            "crypto/internal/customers",
            ["credentials": ["consumer_session_client_secret": .string(signUp.consumerSession.clientSecret)]],
            as: SDKCustomerResponse.self)

        // authorize(linkAuthIntentId:): lookup by intent, one-time code, full consent.
        let intent = try server.backend.postJSON(
            "/v1/link_auth_intent",
            [
                "email": email, "oauth_client_id": server.credentials.oauthClientId,
                "oauth_scopes": "kyc.status:read,crypto:ramp,auth.persist_login:read",
            ]
        ).string("id")
        var intentLookup = lookupFields
        intentLookup["email_address"] = nil
        intentLookup["email_source"] = nil
        intentLookup["link_auth_intent_id"] = .string(intent)
        let lookup = try sdk.post("consumers/mobile/sessions/lookup", intentLookup, as: SDKLookupResponse.self)
        let session = try sdk.post(
            "consumers/mobile/sessions/lookup", intentLookup, as: SDKSessionWithPublishableKey.self)
        #expect(lookup.exists && !session.consumerSession.isVerified)
        let pane = try #require(lookup.consentUi?.consentPane, "without consent_ui the SDK never sends consent")
        #expect(pane.scopesSection?.scopes.count == 3)
        let consumerKey = session.publishableKey
        let credentials: SDKParameter = [
            "consumer_session_client_secret": .string(session.consumerSession.clientSecret)
        ]
        let started = try sdk.post(
            "consumers/sessions/start_verification", ["credentials": credentials, "type": "SMS", "locale": "en-US"],
            as: SDKSessionResponse.self, key: consumerKey)
        #expect(started.consumerSession.verificationSessions == [.init(type: .sms, state: .started)])
        let confirmed = try sdk.post(
            "consumers/sessions/confirm_verification",
            ["credentials": credentials, "type": "SMS", "code": "000000", "request_surface": Self.surface],
            as: SDKSessionResponse.self, key: consumerKey)
        #expect(confirmed.consumerSession.verificationSessions == [.init(type: .sms, state: .verified)])
        let consent = try sdk.send(
            "POST", "consumers/sessions/consent_update", ["credentials": credentials, "consent_granted": true],
            key: consumerKey)
        #expect(consent.status == 200 && !consent.text.contains("\"error\""), "EmptyResponse: \(consent.text)")
        let tokens = try server.backend.post("/v1/link_auth_intent/\(intent)/tokens")
        #expect(tokens.status == 200 && tokens.string("link_auth_token").hasPrefix("lat_"), "\(tokens)")
        let customer = try sdk.post(
            "crypto/internal/customers", ["credentials": credentials], as: SDKCustomerResponse.self)
        #expect(customer.id == afterSignUp.id)

        // attachKYCInfo (14 parameters), verifyKYCInfo (POST), KYC refresh, verifyIdentity, wallet.
        let kyc: [String: SDKParameter] = [
            "credentials": credentials, "first_name": "Ada", "last_name": "Verified", "id_number": "000000000",
            "id_type": "social_security_number", "line1": "address_full_match", "line2": "Apt 2",
            "city": "San Francisco", "state": "CA", "zip": "94103", "country": "US",
            "dob": ["day": "31", "month": "3", "year": "1975"],
        ]
        var kycWithNationality = kyc
        kycWithNationality["nationalities"] = ["us"]
        kycWithNationality["birth_country"] = "US"
        kycWithNationality["birth_city"] = "Boston"
        let collected = try sdk.post(
            "crypto/internal/kyc_data_collection", kycWithNationality, as: SDKKYCDataCollectionResponse.self)
        #expect(collected.personId.hasPrefix("cperson_"))
        #expect(collected.nationalities == ["US"] && collected.residenceCountry == "US")
        let retrieved = try sdk.post(
            "crypto/internal/kyc_data_retrieve", ["credentials": credentials], as: SDKRetrieveKYCInfoResponse.self)
        #expect(
            retrieved.idNumberLast4 == "0000" && retrieved.dob.year == 1975 && retrieved.idType == .socialSecurityNumber
        )
        var refresh = kyc
        refresh["id_number"] = nil
        refresh["id_number_last4"] = "0000"
        let refreshed = try sdk.send("POST", "crypto/internal/refresh_consumer_person", refresh, key: nil)
        #expect(refreshed.status == 200, "\(refreshed.text)")
        let identity = try sdk.post(
            "crypto/internal/start_identity_verification", ["credentials": credentials, "is_mobile": true],
            as: SDKStartIdentityVerificationResponse.self)
        #expect(URL(string: identity.url) != nil && identity.ephemeralKey.hasPrefix("ek_"))
        let wallet = try sdk.post(
            "crypto/internal/wallet",
            [
                "credentials": credentials, "wallet_address": "0x52908400098527886E0F7030069857D2E4169EE7",
                "network": "base",
            ], as: SDKRegisterWalletResponse.self)
        #expect(wallet.id.hasPrefix("cwa_"))

        // collectPaymentMethod(.card) through Link, then createCryptoPaymentToken.
        let platform = try sdk.get(
            "crypto/internal/platform_settings", ["crypto_customer_id": .string(customer.id), "ui_mode": "headless"],
            as: SDKPlatformSettingsResponse.self)
        let saved = try sdk.post(
            "consumers/payment_details",
            [
                "credentials": credentials, "request_surface": Self.surface, "type": "card",
                "card": ["number": "4242424242424242", "exp_month": "12", "exp_year": "2034"],
                "billing_email_address": .string(email),
                "billing_address": ["country_code": "US", "postal_code": "94103"],
                "active": true,
            ], as: SDKDetailsResponse.self, key: consumerKey)
        #expect(saved.redactedPaymentDetails.type == .card && saved.redactedPaymentDetails.cardDetails?.last4 == "4242")
        let listed = try sdk.post(
            "consumers/payment_details/list",
            ["credentials": credentials, "request_surface": Self.surface, "types": ["CARD", "BANK_ACCOUNT"]],
            as: SDKDetailsListResponse.self, key: consumerKey)
        #expect(listed.redactedPaymentDetails.map(\.id) == [saved.redactedPaymentDetails.id])
        let shared = try sdk.post(
            "consumers/payment_details/share",
            [
                "credentials": credentials, "request_surface": Self.surface, "expand": ["payment_method"],
                "id": .string(saved.redactedPaymentDetails.id), "payment_method_options": ["card": ["cvc": "123"]],
                "expected_payment_method_type": "card",
            ], as: SDKPaymentDetailsShareResponse.self, key: platform.publishableKey)
        let token = try sdk.post(
            "crypto/internal/payment_token",
            [
                "payment_method": .string(shared.paymentMethod.id), "crypto_customer_id": .string(customer.id),
                "ui_mode": "headless",
            ], as: SDKCreatePaymentTokenResponse.self)
        #expect(token.id.hasPrefix("cpt_"))

        // Apple Pay: Token+API then PaymentMethod+API, on the platform client, as the simulator sends it (its
        // payment data is empty; StripeApplePay `Token+API.swift` at 0032a69d).
        let applePay = try sdk.post(
            "tokens",
            [
                "pk_token": "",
                "pk_token_instrument_name": "Simulated Instrument", "pk_token_payment_network": "Visa",
                "pk_token_transaction_id": "ApplePayStubs~4242424242424242~0~USD~AAAA",
                "card": ["name": "Ada Verified", "address_country": "US"],
            ], as: SDKToken.self, key: platform.publishableKey)
        #expect(applePay.type == .card && applePay.card?.last4 == "4242")
        let applePayMethod = try sdk.post(
            "payment_methods", ["type": "card", "card": ["token": .string(applePay.id)]],
            as: SDKApplePayPaymentMethod.self, key: platform.publishableKey)
        #expect(applePayMethod.card?.brand == .visa)

        // performCheckout: the backend checks out, the SDK reads the session and then the PaymentIntent.
        let user = EmbeddedTestServer.User(
            email: email, consumerSecret: session.consumerSession.clientSecret, customerId: customer.id,
            accessToken: tokens.string("access_token"), refreshToken: tokens.string("refresh.refresh_token"))
        _ = try server.waitForCustomer(user) { reply in
            (reply["verifications"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String != "pending" } == true
        }
        let onramp = try server.createSession(
            user, token: token.id, wallet: "0x52908400098527886E0F7030069857D2E4169EE7")
        let sessionId = onramp.string("id")
        #expect(try server.checkout(user, sessionId).status == 200)
        let bySecret = try sdk.get(
            "crypto/internal/onramp_session",
            ["crypto_onramp_session": .string(sessionId), "client_secret": .string(onramp.string("client_secret"))],
            as: SDKOnrampSessionResponse.self)
        let intentId = String(bySecret.paymentIntentClientSecret.split(separator: "_secret_").first ?? "")
        let paymentIntent = try sdk.get(
            "payment_intents/\(intentId)",
            ["client_secret": .string(bySecret.paymentIntentClientSecret), "expand": ["payment_method"]],
            as: SDKPaymentIntent.self, key: platform.publishableKey)
        let total = onramp.string("transaction_details.source_total_amount")
        #expect(paymentIntent.status == .succeeded, "\(paymentIntent)")
        #expect(paymentIntent.amount == Int(total.replacingOccurrences(of: ".", with: "")), "minor units of \(total)")
        #expect(paymentIntent.paymentMethodTypes == ["card"] && paymentIntent.currency == "usd")

        // Session refresh, phone change, log out.
        let extended = try sdk.post(
            "consumers/sessions/refresh",
            ["credentials": credentials, "request_surface": Self.surface, "supported_verification_types": ["SMS"]],
            as: SDKSessionResponse.self, key: consumerKey)
        #expect(extended.consumerSession.isVerified)
        let phone = try sdk.post(
            "consumers/accounts/update_phone",
            ["credentials": credentials, "phone_number": "+14155550199", "request_surface": Self.surface],
            as: SDKSessionResponse.self, key: consumerKey)
        #expect(phone.consumerSession.redactedFormattedPhoneNumber.hasSuffix("99"))
        let loggedOut = try sdk.post(
            "consumers/sessions/log_out", ["credentials": credentials, "request_surface": Self.surface],
            as: SDKSessionResponse.self, key: consumerKey)
        #expect(loggedOut.consumerSession.clientSecret == session.consumerSession.clientSecret)

        // authenticateUserWithToken: the partner's stored token → client secret → mobile lookup → customers.
        let latcs = try server.backend.post(
            "/v1/link_auth_tokens/client_secret", [("link_auth_token", tokens.string("link_auth_token"))]
        ).string("link_auth_token_client_secret")
        var seamless = intentLookup
        seamless["link_auth_intent_id"] = nil
        seamless["link_auth_token_client_secret"] = .string(latcs)
        let signedIn = try sdk.post(
            "consumers/mobile/sessions/lookup", seamless, as: SDKSessionWithPublishableKey.self)
        #expect(signedIn.consumerSession.verificationSessions == [.init(type: .linkAuthToken, state: .verified)])
        let again = try sdk.post(
            "crypto/internal/customers",
            ["credentials": ["consumer_session_client_secret": .string(signedIn.consumerSession.clientSecret)]],
            as: SDKCustomerResponse.self)
        #expect(again.id == customer.id)
    }

    /// The PaymentIntent `performCheckout` and `STPPaymentHandler` read for a 3-D Secure card: `requires_action`
    /// with a `redirect_to_url` to the hosted challenge, `requires_capture` once it passed (which
    /// `checkoutResult` completes, so the SDK checks out again), `succeeded` after; and a bank debit:
    /// `requires_confirmation` without its mandate (`paymentFailed`), then `processing` (which `checkoutResult`
    /// completes for `us_bank_account` only).
    @Test(arguments: DatabaseDriver.all)
    func thePaymentIntentLeadsThroughThreeDSecureAndBankDebits(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 30, driver: driver, transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        func intent(_ session: StripeTestClient.Reply) throws -> SDKPaymentIntent {
            let bySecret = try sdk.get(
                "crypto/internal/onramp_session",
                [
                    "crypto_onramp_session": .string(session.string("id")),
                    "client_secret": .string(session.string("client_secret")),
                ], as: SDKOnrampSessionResponse.self)
            let id = String(bySecret.paymentIntentClientSecret.split(separator: "_secret_").first ?? "")
            return try sdk.get(
                "payment_intents/\(id)",
                ["client_secret": .string(bySecret.paymentIntentClientSecret), "expand": ["payment_method"]],
                as: SDKPaymentIntent.self)
        }

        let card = try server.createSession(
            user, token: try server.paymentToken(user, card: "4000000000003220"), wallet: wallet)
        #expect(try intent(card).status == .requiresPaymentMethod, "before checkout")
        _ = try server.checkout(user, card.string("id"))
        let challenged = try intent(card)
        #expect(challenged.status == .requiresAction)
        let url = try #require(challenged.nextAction?.redirectToUrl?.url)
        #expect(
            challenged.nextAction?.type == "redirect_to_url" && url.hasPrefix(server.baseURL + "/embedded/test/3ds"))
        let answered = try server.submitPage(
            path: "/embedded/test/3ds",
            [
                ("session", card.string("id")), ("token", EmbeddedTestServer.queryValue(url, "token")),
                ("outcome", "complete"),
            ])
        #expect(answered.status == 200)
        let authorised = try intent(card)
        #expect(authorised.status == .requiresCapture, "STPPaymentHandler counts this as handled")
        #expect(authorised.checkoutCompletes == true, "performCheckout goes on to the second checkout")
        _ = try server.checkout(user, card.string("id"))
        let captured = try intent(card)
        #expect(captured.status == .succeeded && captured.checkoutCompletes == true)

        let method = try server.sdk.post(
            "/v1/payment_methods",
            [
                ("type", "us_bank_account"), ("us_bank_account[routing_number]", "110000000"),
                ("us_bank_account[account_number]", "000123456789"),
            ])
        let bank = try server.createSession(
            user, token: try server.token(user, paymentMethod: method.string("id")), wallet: wallet)
        _ = try server.checkout(user, bank.string("id"))
        let unmandated = try intent(bank)
        #expect(unmandated.status == .requiresConfirmation && unmandated.checkoutCompletes == false, "no mandate yet")
        _ = try server.checkout(
            user, bank.string("id"),
            [
                ("mandate_data[customer_acceptance][type]", "online"),
                ("mandate_data[customer_acceptance][online][ip_address]", "203.0.113.7"),
            ])
        let debited = try intent(bank)
        #expect(debited.status == .processing && debited.checkoutCompletes == true, "\(debited)")
    }

    /// A PaymentIntent is read with its client secret under a publishable key; another secret, another
    /// project's key or no secret gets Stripe's error shape.
    @Test func thePaymentIntentNeedsItsClientSecret() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let session = try server.createSession(
            user, token: try server.paymentToken(user), wallet: try server.registerWallet(user))
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let intentId = "pi_" + session.string("id").dropFirst("cos_".count)
        let (missing, missingError) = try sdk.error("GET", "payment_intents/\(intentId)", [:])
        #expect(
            missing == 400 && missingError.error.code == "parameter_missing"
                && missingError.error.param == "client_secret")
        let (wrong, wrongError) = try sdk.error(
            "GET", "payment_intents/\(intentId)", ["client_secret": .string(intentId + "_secret_000000000000")])
        #expect(wrong == 404 && wrongError.error.code == "resource_missing")
        let backend = SDKClient(sandbox: server.sandbox, key: server.credentials.stripeSecretKey)
        #expect(try backend.get("payment_intents/\(intentId)", [:], as: SDKPaymentIntent.self).id == intentId)
    }
}
