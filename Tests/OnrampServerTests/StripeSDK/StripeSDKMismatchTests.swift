import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// One test per mismatch of `../shared/audits/stripe-ios-sdk.md` §4 (its number in the name), each on a
/// user prepared through the routes that existed before (so each fails on its own on the server the audit
/// observed), sending the SDK's request and decoding into the SDK's model.
@Suite(.blocking) struct StripeSDKMismatchTests {
    /// A server, a signed-in user with KYC collected, and the SDK's client.
    struct Fixture {
        let server: EmbeddedTestServer
        let user: EmbeddedTestServer.User
        let sdk: SDKClient
        var credentials: SDKParameter { ["consumer_session_client_secret": .string(user.consumerSecret)] }

        init() throws {
            server = try EmbeddedTestServer(settlementDelay: 30, transport: .live)
            user = try server.signUpAndAuthorize()
            sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        }

        /// A fresh LinkAuthIntent for the user and the mobile lookup's answer for it.
        func intentLookup() throws -> (intent: String, lookup: SDKLookupResponse, session: SDKSessionWithPublishableKey)
        {
            let intent = try server.backend.postJSON(
                "/v1/link_auth_intent",
                [
                    "email": user.email, "oauth_client_id": server.credentials.oauthClientId,
                    "oauth_scopes": "kyc.status:read,crypto:ramp,auth.persist_login:read",
                ]
            ).string("id")
            let form: [String: SDKParameter] = [
                "request_surface": "ios_crypto_onramp", "session_id": "elements_session_test",
                "link_auth_intent_id": .string(intent), "supported_verification_types": ["SMS", "EMAIL"],
            ]
            let lookup = try sdk.post("consumers/mobile/sessions/lookup", form, as: SDKLookupResponse.self)
            let session = try sdk.post("consumers/mobile/sessions/lookup", form, as: SDKSessionWithPublishableKey.self)
            return (intent, lookup, session)
        }
    }

    @Test func mismatch01ElementsSessionEnablesTheAttestedLinkEndpoints() throws {
        let fixture = try Fixture()
        let session = try fixture.sdk.get(
            "elements/sessions", ["type": "deferred_intent", "deferred_intent": ["mode": "setup"]],
            as: SDKElementsSession.self)
        #expect(session.linkSettings?.linkMobileUseAttestationEndpoints == true)
    }

    @Test func mismatch02And04MobileLookupAnswersASessionWithItsPublishableKey() throws {
        let fixture = try Fixture()
        var form = StripeSDKConformanceTests.testAssertion
        form.merge(
            [
                "request_surface": "ios_crypto_onramp", "email_address": .string(fixture.user.email.lowercased()),
                "email_source": "customer_email",
            ]
        ) { $1 }
        let found = try fixture.sdk.post(
            "consumers/mobile/sessions/lookup", form, as: SDKSessionWithPublishableKey.self)
        #expect(found.publishableKey.hasPrefix("pk_test_"))
    }

    @Test func mismatch02MobileSignUpAnswersASessionWithItsPublishableKey() throws {
        let fixture = try Fixture()
        var form = StripeSDKConformanceTests.testAssertion
        form.merge(
            [
                "request_surface": "ios_crypto_onramp", "email_address": "new-sdk-user@example.com",
                "phone_number": "+14155550100", "locale": "en-US", "country_inferring_method": "PHONE_NUMBER",
            ]
        ) { $1 }
        let created = try fixture.sdk.post("consumers/mobile/sign_up", form, as: SDKSessionWithPublishableKey.self)
        #expect(created.consumerSession.verificationSessions == [.init(type: .signup, state: .started)])
    }

    @Test func mismatch03And05StartVerificationAnswersTheWholeSession() throws {
        let fixture = try Fixture()
        let (_, _, session) = try fixture.intentLookup()
        let started = try fixture.sdk.post(
            "consumers/sessions/start_verification",
            [
                "credentials": ["consumer_session_client_secret": .string(session.consumerSession.clientSecret)],
                "type": "SMS", "locale": "en-US",
            ], as: SDKSessionResponse.self)
        #expect(started.consumerSession.verificationSessions == [.init(type: .sms, state: .started)])
    }

    @Test func mismatch03And05ConfirmVerificationAnswersAVerifiedSession() throws {
        let fixture = try Fixture()
        let (_, _, session) = try fixture.intentLookup()
        let credentials: SDKParameter = [
            "consumer_session_client_secret": .string(session.consumerSession.clientSecret)
        ]
        _ = try fixture.sdk.send(
            "POST", "consumers/sessions/start_verification", ["credentials": credentials], key: nil)
        let confirmed = try fixture.sdk.post(
            "consumers/sessions/confirm_verification", ["credentials": credentials, "type": "SMS", "code": "000000"],
            as: SDKSessionResponse.self)
        #expect(confirmed.consumerSession.isVerified)
    }

    @Test func mismatch06ASignUpSessionMayCreateTheCryptoCustomer() throws {
        let fixture = try Fixture()
        let signUp = try fixture.server.sdk.post(
            "/v1/consumers/accounts/sign_up",
            [("email_address", "fresh@example.com"), ("phone_number", "+14155550111"), ("country", "US")])
        let customer = try fixture.sdk.post(
            "crypto/internal/customers",
            [
                "credentials": [
                    "consumer_session_client_secret": .string(signUp.string("consumer_session.client_secret"))
                ]
            ],
            as: SDKCustomerResponse.self)
        #expect(customer.id.hasPrefix("crc_"))
    }

    @Test func mismatch07PlatformSettingsNameThePublishableKey() throws {
        let fixture = try Fixture()
        let settings = try fixture.sdk.get(
            "crypto/internal/platform_settings", ["crypto_customer_id": .string(fixture.user.customerId)],
            as: SDKPlatformSettingsResponse.self)
        #expect(settings.publishableKey == fixture.server.credentials.stripePublishableKey)
        let beforeSignIn = try fixture.sdk.get(
            "crypto/internal/platform_settings", ["ui_mode": "headless", "country_hint": "US"],
            as: SDKPlatformSettingsResponse.self)
        #expect(beforeSignIn.publishableKey == settings.publishableKey)
    }

    @Test func mismatch08PaymentTokenWithoutCredentials() throws {
        let fixture = try Fixture()
        let token = try fixture.sdk.post(
            "crypto/internal/payment_token",
            ["payment_method": "pm_card_visa", "crypto_customer_id": .string(fixture.user.customerId)],
            as: SDKCreatePaymentTokenResponse.self)
        #expect(token.id.hasPrefix("cpt_"))
    }

    @Test func mismatch09TheSessionNamesItsPaymentIntentAndThePaymentIntentDecodes() throws {
        let fixture = try Fixture()
        let server = fixture.server
        try server.collectKYC(fixture.user)
        let session = try server.createSession(
            fixture.user, token: try server.paymentToken(fixture.user), wallet: try server.registerWallet(fixture.user))
        _ = try server.checkout(fixture.user, session.string("id"))
        let bySecret = try fixture.sdk.get(
            "crypto/internal/onramp_session",
            [
                "crypto_onramp_session": .string(session.string("id")),
                "client_secret": .string(session.string("client_secret")),
            ], as: SDKOnrampSessionResponse.self)
        let id = String(bySecret.paymentIntentClientSecret.split(separator: "_secret_").first ?? "")
        let intent = try fixture.sdk.get(
            "payment_intents/\(id)",
            ["client_secret": .string(bySecret.paymentIntentClientSecret), "expand": ["payment_method"]],
            as: SDKPaymentIntent.self)
        #expect(intent.status == .succeeded && intent.clientSecret == bySecret.paymentIntentClientSecret)
    }

    @Test func mismatch10CardsAreSavedAndSharedThroughLink() throws {
        let fixture = try Fixture()
        let saved = try fixture.sdk.post(
            "consumers/payment_details",
            [
                "credentials": fixture.credentials, "type": "card",
                "card": ["number": "4000000000003220", "exp_month": "12", "exp_year": "2034"], "active": true,
            ], as: SDKDetailsResponse.self)
        let shared = try fixture.sdk.post(
            "consumers/payment_details/share",
            [
                "credentials": fixture.credentials, "expand": ["payment_method"],
                "id": .string(saved.redactedPaymentDetails.id),
            ], as: SDKPaymentDetailsShareResponse.self)
        #expect(shared.paymentMethod.id.hasPrefix("pm_") && shared.paymentMethod.type == "card")
    }

    /// The wallet's own management UI (`STPAPIClient+Link.swift` `updatePaymentDetails`, `deletePaymentDetails`):
    /// a new expiry and billing details, `is_default`, then deleting the default (the oldest left takes its
    /// place). Another consumer's details and a bad expiry are refused and change nothing.
    @Test func linkPaymentDetailsAreUpdatedAndDeleted() throws {
        let fixture = try Fixture()
        func save(_ number: String) throws -> SDKConsumerPaymentDetails {
            try fixture.sdk.post(
                "consumers/payment_details",
                [
                    "credentials": fixture.credentials, "type": "card",
                    "card": ["number": .string(number), "exp_month": "12", "exp_year": "2034"],
                ], as: SDKDetailsResponse.self
            ).redactedPaymentDetails
        }
        let first = try save("4242424242424242")
        let second = try save("5555555555554444")
        #expect(first.isDefault && !second.isDefault)

        let updated = try fixture.sdk.post(
            "consumers/payment_details/\(second.id)",
            [
                "credentials": fixture.credentials, "exp_month": "3", "exp_year": "2031", "is_default": true,
                "billing_email_address": "Ada@Example.com",
                "billing_address": ["country_code": "US", "postal_code": "94107"],
                "request_surface": "ios_payment_element",
            ], as: SDKDetailsResponse.self
        ).redactedPaymentDetails
        #expect(updated.id == second.id && updated.isDefault)
        #expect(updated.cardDetails?.expMonth == 3 && updated.cardDetails?.expYear == 2031)
        let (badStatus, bad) = try fixture.sdk.error(
            "POST", "consumers/payment_details/\(first.id)",
            ["credentials": fixture.credentials, "exp_month": "13", "exp_year": "2031"])
        #expect(badStatus == 402 && bad.error.code == "invalid_expiry_year")
        let other = try fixture.server.signUpAndAuthorize()
        let (foreignStatus, _) = try fixture.sdk.error(
            "DELETE", "consumers/payment_details/\(first.id)",
            ["credentials": ["consumer_session_client_secret": .string(other.consumerSecret)]])
        #expect(foreignStatus == 404)

        let listed = try fixture.sdk.post(
            "consumers/payment_details/list", ["credentials": fixture.credentials], as: SDKDetailsListResponse.self
        ).redactedPaymentDetails
        #expect(listed.map(\.isDefault) == [false, true])
        #expect(listed.first?.cardDetails?.expMonth == 12, "the refused update changed nothing")

        let deleted = try fixture.sdk.send(
            "DELETE", "consumers/payment_details/\(second.id)", ["credentials": fixture.credentials], key: nil)
        #expect(deleted.status == 200 && deleted.text == "{}", "\(deleted.text)")
        let left = try fixture.sdk.post(
            "consumers/payment_details/list", ["credentials": fixture.credentials], as: SDKDetailsListResponse.self
        ).redactedPaymentDetails
        #expect(left.map(\.id) == [first.id] && left.first?.isDefault == true)
        let (againStatus, _) = try fixture.sdk.error(
            "DELETE", "consumers/payment_details/\(second.id)", ["credentials": fixture.credentials])
        #expect(againStatus == 404)
    }

    @Test func mismatch10ApplePayTokensBecomePaymentMethods() throws {
        let fixture = try Fixture()
        let token = try fixture.sdk.post(
            "tokens", ["pk_token": "{}", "pk_token_transaction_id": "ApplePayStubs~5555555555554444~0~USD~A"],
            as: SDKToken.self)
        let method = try fixture.sdk.post(
            "payment_methods", ["type": "card", "card": ["token": .string(token.id)]], as: SDKApplePayPaymentMethod.self
        )
        #expect(method.card?.brand == .mastercard)
        let (status, reused) = try fixture.sdk.error(
            "POST", "payment_methods", ["type": "card", "card": ["token": .string(token.id)]])
        #expect(status == 400 && reused.error.code == "token_already_used", "a token is spent once")
    }

    @Test func mismatch11KYCCollectionAnswersAPersonId() throws {
        let fixture = try Fixture()
        let collected = try fixture.sdk.post(
            "crypto/internal/kyc_data_collection",
            [
                "credentials": fixture.credentials, "first_name": "Ada", "last_name": "Verified", "line1": "1 Main St",
                "city": "San Francisco", "state": "CA", "zip": "94103", "country": "US",
                "dob": ["day": "1", "month": "2", "year": "1990"],
            ], as: SDKKYCDataCollectionResponse.self)
        #expect(collected.personId.hasPrefix("cperson_") && collected.firstName == "Ada")
    }

    @Test func mismatch13TheIntentLookupAsksForConsentAndConsentUpdateRecordsIt() throws {
        let fixture = try Fixture()
        let (intent, lookup, session) = try fixture.intentLookup()
        #expect(lookup.consentUi?.consentPane?.allowButtonLabel == "Allow")
        let credentials: SDKParameter = [
            "consumer_session_client_secret": .string(session.consumerSession.clientSecret)
        ]
        _ = try fixture.sdk.send(
            "POST", "consumers/sessions/start_verification", ["credentials": credentials], key: nil)
        _ = try fixture.sdk.send(
            "POST", "consumers/sessions/confirm_verification", ["credentials": credentials, "code": "000000"], key: nil)
        let consent = try fixture.sdk.send(
            "POST", "consumers/sessions/consent_update", ["credentials": credentials, "consent_granted": true],
            key: session.publishableKey)
        #expect(consent.status == 200, "\(consent.text)")
        #expect(try fixture.server.backend.post("/v1/link_auth_intent/\(intent)/tokens").status == 200)
    }

    @Test func mismatch14TheSeamlessSignInTokenReachesThePartner() throws {
        let fixture = try Fixture()
        let (intent, _, session) = try fixture.intentLookup()
        let credentials: SDKParameter = [
            "consumer_session_client_secret": .string(session.consumerSession.clientSecret)
        ]
        _ = try fixture.sdk.send(
            "POST", "consumers/sessions/start_verification", ["credentials": credentials], key: nil)
        _ = try fixture.sdk.send(
            "POST", "consumers/sessions/confirm_verification",
            ["credentials": credentials, "code": "000000", "consent_granted": true], key: nil)
        let tokens = try fixture.server.backend.post("/v1/link_auth_intent/\(intent)/tokens")
        #expect(tokens.string("link_auth_token").hasPrefix("lat_"), "\(tokens)")
    }

    @Test func mismatch15KYCDataIsRetrievedByPost() throws {
        let fixture = try Fixture()
        try fixture.server.collectKYC(fixture.user)
        let retrieved = try fixture.sdk.post(
            "crypto/internal/kyc_data_retrieve", ["credentials": fixture.credentials],
            as: SDKRetrieveKYCInfoResponse.self)
        #expect(retrieved.firstName == "Ada")
    }

    @Test func mismatch16LogOutAnswersTheSession() throws {
        let fixture = try Fixture()
        let loggedOut = try fixture.sdk.post(
            "consumers/sessions/log_out", ["credentials": fixture.credentials, "request_surface": "ios_crypto_onramp"],
            as: SDKSessionResponse.self)
        #expect(loggedOut.consumerSession.clientSecret == fixture.user.consumerSecret)
    }

    @Test func mismatch17RefreshAndPhoneChangeAnswerTheSession() throws {
        let fixture = try Fixture()
        let refreshed = try fixture.sdk.post(
            "consumers/sessions/refresh", ["credentials": fixture.credentials], as: SDKSessionResponse.self)
        #expect(refreshed.consumerSession.isVerified)
        let changed = try fixture.sdk.post(
            "consumers/accounts/update_phone", ["credentials": fixture.credentials, "phone_number": "+14155550142"],
            as: SDKSessionResponse.self)
        #expect(changed.consumerSession.redactedFormattedPhoneNumber.hasSuffix("42"))
    }

    @Test func mismatch19XRPLWalletsAndErrorsInTheSDKsTerms() throws {
        let fixture = try Fixture()
        let (_, wallet) = try fixture.sdk.error(
            "POST", "crypto/internal/wallet",
            ["credentials": fixture.credentials, "wallet_address": "rXYZ", "network": "dogecoin"])
        #expect(wallet.error.param == "network")
        let xrpl = try fixture.sdk.post(
            "crypto/internal/wallet",
            [
                "credentials": fixture.credentials, "wallet_address": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
                "network": "xrpl",
            ],
            as: SDKRegisterWalletResponse.self)
        #expect(xrpl.network == "xrpl", "CryptoNetwork.xrpl is a network the SDK sends")
        let (_, phone) = try fixture.sdk.error(
            "POST", "consumers/mobile/sign_up", ["email_address": "p@example.com", "phone_number": "12"])
        #expect(phone.error.message?.hasPrefix("There was an issue parsing the phone number") == true)
    }
}
