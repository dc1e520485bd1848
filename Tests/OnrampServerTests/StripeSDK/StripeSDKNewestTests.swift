import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// What the newest StripeCryptoOnramp sources need beyond the calls of ``StripeSDKConformanceTests``
/// (`../shared/audits/stripe-ios-sdk.md`, "Addendum 2026-12-07"): the elements session's mobile-session
/// contract, Apple Pay as the simulator sends it, and the KYC answer every version of its model decodes,
/// each sent as the SDK sends it and checked as the SDK checks it, on SQLite and PostgreSQL. The 3-D Secure
/// intent is in ``StripeSDKConformanceTests/thePaymentIntentLeadsThroughThreeDSecureAndBankDebits(driver:)``.
@Suite(.blocking) struct StripeSDKNewestTests {
    static let elementsQuery: [String: SDKParameter] = [
        "type": "deferred_intent", "deferred_intent": ["mode": "setup", "setup_future_usage": "off_session"],
        "locale": "en-US", "mobile_app_id": "com.example.test",
    ]

    /// The contract header the SDK sends comes back with our revision and a `mobile_payment_element` that
    /// passes every check of `validateMobileSessionContractResponse` and lists the types we offer.
    @Test(arguments: DatabaseDriver.all)
    func theElementsSessionAnswersTheMobileSessionContract(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(driver: driver, transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let reply = try sdk.send(
            "GET", "elements/sessions", Self.elementsQuery, key: nil,
            headers: [(SDKMobileSessionContract.headerName, SDKMobileSessionContract.requestHeader)])
        let header = reply.headers["stripe-mobile-session-contract"]
        #expect(reply.status == 200)
        #expect(header == "major=1; revision=\(MobileSessionContract.ourRevision)")
        #expect(SDKMobileSessionContract.failure(header: header, body: reply.body) == nil, "\(reply.text)")
        let session = try sdk.decoded(SDKMobileElementsSession.self, reply, "elements/sessions")
        let entries = session.mobilePaymentElement.paymentMethodAvailability.entries
        #expect(entries.map(\.paymentMethodType) == ElementsSessionRoutes.paymentMethodTypes)
        #expect(entries.allSatisfy { $0.available })

        // A revision other than ours (the SDK's own changes from build to build) is served with ours.
        let drifted = try sdk.send(
            "GET", "elements/sessions", Self.elementsQuery, key: nil,
            headers: [(SDKMobileSessionContract.headerName, "major=1; revision=a25248386c01a782")])
        #expect(
            SDKMobileSessionContract.failure(
                header: drifted.headers["stripe-mobile-session-contract"], body: drifted.body) == nil)
    }

    /// An SDK from before the contract sends no header and still decodes its elements session.
    @Test func anOlderSDKsElementsSessionStillDecodes() throws {
        let server = try EmbeddedTestServer(transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let session = try sdk.get("elements/sessions", Self.elementsQuery, as: SDKElementsSession.self)
        #expect(session.linkSettings?.linkMobileUseAttestationEndpoints == true)
        #expect(session.paymentMethodPreference.orderedPaymentMethodTypes == ElementsSessionRoutes.paymentMethodTypes)
    }

    /// A major we do not serve, or a header not in the SDK's form, is refused in Stripe's error shape (the SDK
    /// reports `request_failed`), never answered with a contract the client cannot read.
    @Test(arguments: ["major=2; revision=eae9b348c98cf67b", "major=01; revision=eae9b348c98cf67b", "major=1"])
    func anUnsupportedOrMalformedContractIsRefused(header: String) throws {
        let server = try EmbeddedTestServer(transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let reply = try sdk.send(
            "GET", "elements/sessions", Self.elementsQuery, key: nil,
            headers: [(SDKMobileSessionContract.headerName, header)])
        let error = try sdk.decoded(SDKAPIError.self, reply, "elements/sessions")
        #expect(reply.status == 400 && error.error.type == "invalid_request_error")
        let expected = header.hasPrefix("major=2") ? "mobile_session_contract_unsupported" : "parameter_invalid"
        #expect(error.error.code == expected, "\(reply.text)")
        #expect(reply.headers["stripe-mobile-session-contract"] == nil)
    }

    /// The simulator's Apple Pay request: `pk_token` empty, the stub naming the card. Test mode makes a token
    /// and an Apple Pay card method of the stub's card; live mode refuses the empty token in Stripe's shape.
    @Test(arguments: DatabaseDriver.all)
    func theSimulatorsApplePayMakesATestModeCard(driver: DatabaseDriver) throws {
        let simulator: [String: SDKParameter] = [
            "pk_token": "", "pk_token_instrument_name": "Simulated Instrument", "pk_token_payment_network": "Visa",
            "pk_token_transaction_id": "ApplePayStubs~4000000000003220~0~USD~6A1F0C2E-3B4D-4E5F-8A9B-0C1D2E3F4A5B",
        ]
        let server = try EmbeddedTestServer(driver: driver, transport: .live)
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let token = try sdk.post("tokens", simulator, as: SDKToken.self)
        #expect(token.card?.last4 == "3220")
        let method = try sdk.post(
            "payment_methods", ["type": "card", "card": ["token": .string(token.id)]],
            as: SDKApplePayPaymentMethod.self)
        #expect(method.card?.brand == .visa)

        let live = try EmbeddedTestServer(livemode: true, driver: driver, transport: .live)
        let liveSDK = SDKClient(sandbox: live.sandbox, key: live.credentials.stripePublishableKey)
        let (status, refusal) = try liveSDK.error("POST", "tokens", simulator)
        #expect(status == 400 && refusal.error.param == "pk_token" && refusal.error.code == "parameter_invalid")
    }

    /// `KYCDataCollectionResponse` at 13cc52dd requires `nationalities`: an answer without any collected is an
    /// empty array, never absent or null.
    @Test(arguments: DatabaseDriver.all)
    func theKYCAnswerDecodesWithEveryVersionsRequiredFields(driver: DatabaseDriver) throws {
        let server = try EmbeddedTestServer(settlementDelay: 30, driver: driver, transport: .live)
        let user = try server.signUpAndAuthorize()
        let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
        let form: [String: SDKParameter] = [
            "credentials": ["consumer_session_client_secret": .string(user.consumerSecret)], "first_name": "Ada",
            "last_name": "Verified", "line1": "address_full_match", "city": "Paris", "zip": "75001", "country": "FR",
        ]
        let collected = try sdk.post("crypto/internal/kyc_data_collection", form, as: SDKKYCDataCollectionResponse.self)
        #expect(collected.nationalities.isEmpty && collected.residenceCountry == "FR")
        var withNationalities = form
        withNationalities["nationalities"] = ["fr", "DE"]
        let again = try sdk.post(
            "crypto/internal/kyc_data_collection", withNationalities, as: SDKKYCDataCollectionResponse.self)
        #expect(again.nationalities == ["FR", "DE"])
        var wrong = form
        wrong["nationalities"] = ["France"]
        let (status, refusal) = try sdk.error("POST", "crypto/internal/kyc_data_collection", wrong)
        #expect(status == 400 && refusal.error.param == "nationalities")
        let customer = try server.backend.get(
            "/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
        let provided = customer["provided_fields"] as? [String] ?? []
        #expect(provided.contains("nationalities"), "\(customer)")
    }
}
