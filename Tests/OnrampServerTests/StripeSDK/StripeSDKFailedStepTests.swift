import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// A failed SDK step answers in Stripe's error shape and leaves the customer, the consumer and the
/// session as they were: nothing is half-written.
@Suite(.blocking) struct StripeSDKFailedStepTests {
    static func count(_ server: EmbeddedTestServer, _ table: String) throws -> Int64 {
        try server.database.read { try $0.query("SELECT COUNT(*) AS n FROM \(table)").first?.int("n") ?? -1 }
    }

    @Test func aRefusedKYCUpdateKeepsTheStoredData() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let credentials: SDKParameter = ["consumer_session_client_secret": .string(user.consumerSecret)]
        let before = try sdk.send("POST", "crypto/internal/kyc_data_retrieve", ["credentials": credentials], key: nil)
        let (status, error) = try sdk.error(
            "POST", "crypto/internal/kyc_data_collection",
            [
                "credentials": credentials, "first_name": "Eve", "last_name": "Changed", "line1": "2 Other St",
                "dob": ["day": "31", "month": "2", "year": "1990"],
            ])
        #expect(status == 400 && error.error.type == "invalid_request_error" && error.error.param == "dob")
        let after = try sdk.send("POST", "crypto/internal/kyc_data_retrieve", ["credentials": credentials], key: nil)
        #expect(after.text == before.text, "the refused update changed nothing")
        // 31 February was refused by the calendar, not a range: leap years follow the Gregorian rule.
        #expect(
            KYCCollection.days(inMonth: 2, of: 2000) == 29
                && KYCCollection.days(inMonth: 2, of: 1900) == 28)
        #expect(
            KYCCollection.days(inMonth: 2, of: 1996) == 29
                && KYCCollection.days(inMonth: 4, of: 1996) == 30)
    }

    @Test func aRefusedSignUpOrConsentWritesNothing() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let (consumers, sessions) = (
            try Self.count(server, "link_consumers"), try Self.count(server, "consumer_sessions")
        )
        let (status, error) = try sdk.error(
            "POST", "consumers/mobile/sign_up",
            ["email_address": .string(user.email.lowercased()), "phone_number": "+14155550123"])
        #expect(status == 400 && error.error.code == "link_account_already_exists")
        #expect(
            try Self.count(server, "link_consumers") == consumers && Self.count(server, "consumer_sessions") == sessions
        )

        // consent_update without consent_granted: the intent stays where the code left it.
        let intent = try server.backend.postJSON(
            "/v1/link_auth_intent",
            ["email": user.email, "oauth_client_id": server.credentials.oauthClientId, "oauth_scopes": "crypto:ramp"]
        ).string("id")
        let lookup = try server.sdk.post("/v1/consumers/mobile/sessions/lookup", [("link_auth_intent_id", intent)])
        let credentials: SDKParameter = [
            "consumer_session_client_secret": .string(lookup.string("consumer_session.client_secret"))
        ]
        _ = try sdk.send("POST", "consumers/sessions/start_verification", ["credentials": credentials], key: nil)
        _ = try sdk.send(
            "POST", "consumers/sessions/confirm_verification", ["credentials": credentials, "code": "000000"], key: nil)
        let (missing, missingError) = try sdk.error(
            "POST", "consumers/sessions/consent_update", ["credentials": credentials])
        #expect(missing == 400 && missingError.error.param == "consent_granted")
        let tokens = try server.backend.post("/v1/link_auth_intent/\(intent)/tokens")
        #expect(tokens.status == 403 && tokens.string("error.code") == "link_auth_intent_not_consented", "\(tokens)")
    }

    /// A parameter the call does not take is refused as Stripe refuses it, before anything is written.
    @Test func anUnknownParameterIsRefusedByName() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let consumers = try Self.count(server, "link_consumers")
        let (status, error) = try sdk.error(
            "POST", "consumers/mobile/sign_up",
            ["email_address": "typo@example.com", "phone_number": "+14155550123", "phone_numbr": "+14155550123"])
        #expect(status == 400 && error.error.code == "parameter_unknown" && error.error.param == "phone_numbr")
        #expect(error.error.message == "Received unknown parameter: phone_numbr")
        #expect(try Self.count(server, "link_consumers") == consumers)
        // StripeCore's telemetry and attribution fields ride along with any call.
        let fine = try sdk.send(
            "POST", "consumers/mobile/sessions/lookup",
            [
                "email_address": "nobody@example.com", "muid": "m", "guid": "g", "sid": "s",
                "payment_user_agent": "stripe-ios",
            ],
            key: nil)
        #expect(fine.status == 200, "\(fine.text)")
    }

    @Test func aRefusedShareOrTokenMakesNoPaymentMethod() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let credentials: SDKParameter = ["consumer_session_client_secret": .string(user.consumerSecret)]
        let methods = try Self.count(server, "payment_methods")
        let (shareStatus, shareError) = try sdk.error(
            "POST", "consumers/payment_details/share", ["credentials": credentials, "id": "csmrpd_nope"])
        #expect(shareStatus == 404 && shareError.error.code == "resource_missing")
        let (cardStatus, cardError) = try sdk.error(
            "POST", "consumers/payment_details",
            [
                "credentials": credentials, "type": "card",
                "card": ["number": "4242424242424241", "exp_month": "1", "exp_year": "2034"],
            ])
        #expect(cardStatus == 402 && cardError.error.type == "card_error" && cardError.error.code == "incorrect_number")
        let (tokenStatus, _) = try sdk.error(
            "POST", "crypto/internal/payment_token",
            ["payment_method": "pm_card_visa", "crypto_customer_id": "crc_nope"])
        #expect(tokenStatus == 404)
        #expect(try Self.count(server, "payment_methods") == methods && Self.count(server, "link_payment_details") == 0)
        #expect(try Self.count(server, "payment_tokens") == 0)
    }

    /// A decline rejects the session (the contract's state machine) and reads as a declined PaymentIntent, which
    /// `performCheckout` reports as an error rather than a cancellation.
    @Test func aDeclinedCheckoutReadsAsADeclinedPaymentIntent() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let session = try server.createSession(
            user, token: try server.paymentToken(user, card: "4000000000000002"),
            wallet: try server.registerWallet(user))
        let declined = try server.checkout(user, session.string("id"))
        #expect(declined.string("status") == "rejected", "\(declined)")
        #expect(declined.string("transaction_details.last_error") == "transaction_failed")
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let bySecret = try sdk.get(
            "crypto/internal/onramp_session",
            [
                "crypto_onramp_session": .string(session.string("id")),
                "client_secret": .string(session.string("client_secret")),
            ], as: SDKOnrampSessionResponse.self)
        let id = String(bySecret.paymentIntentClientSecret.split(separator: "_secret_").first ?? "")
        let intent = try sdk.get(
            "payment_intents/\(id)", ["client_secret": .string(bySecret.paymentIntentClientSecret)],
            as: SDKPaymentIntent.self)
        #expect(intent.status == .requiresPaymentMethod && intent.lastPaymentError?.code == "card_declined")
    }
}
