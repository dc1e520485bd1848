import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// A service's refusal reaches each family in that family's shape, its status chosen by the refusal's
/// kind in one place: the Stripe edge keeps the code, CDP names a documented `errorType`, pages and
/// OAuth keep the message.
@Suite struct RefusalMappingTests {
    struct Case: Sendable {
        let kind: OnrampError.Kind
        let status: Int
        let stripeType: String
        let cdpType: String
    }

    static let cases: [Case] = [
        Case(kind: .invalid, status: 400, stripeType: "invalid_request_error", cdpType: "invalid_request"),
        Case(kind: .unauthenticated, status: 401, stripeType: "authentication_error", cdpType: "unauthorized"),
        Case(kind: .forbidden, status: 403, stripeType: "invalid_request_error", cdpType: "forbidden"),
        Case(kind: .notFound, status: 404, stripeType: "invalid_request_error", cdpType: "not_found"),
        Case(kind: .conflict, status: 409, stripeType: "invalid_request_error", cdpType: "already_exists"),
        Case(kind: .tooManyAttempts, status: 429, stripeType: "invalid_request_error", cdpType: "rate_limit_exceeded"),
    ]

    @Test(arguments: cases) func eachKindHasOneStatusInEveryFamily(_ expected: Case) throws {
        let refusal = OnrampError.refusal(
            "sandbox_refusal", "Refused for the test.", parameter: "field", kind: expected.kind)

        let stripe = try #require(StripeErrorRenderer(publicBaseURL: "http://127.0.0.1").resolve(refusal))
        #expect(stripe.status == expected.status)
        #expect(stripe.code == "sandbox_refusal")
        let stripeBody = try JSONParser().parse(
            StripeErrorRenderer(publicBaseURL: "http://127.0.0.1").render(stripe, requestId: "req_1").body)
        #expect(stripeBody["error"]?["type"]?.stringValue == expected.stripeType)
        #expect(stripeBody["error"]?["code"]?.stringValue == "sandbox_refusal")

        let cdp = try #require(CDPErrorRenderer().resolve(refusal))
        #expect(cdp.status == expected.status)
        let cdpBody = try JSONParser().parse(CDPErrorRenderer().render(cdp, requestId: "req_1").body)
        #expect(cdpBody["errorType"]?.stringValue == expected.cdpType)
        #expect(cdpBody["errorMessage"]?.stringValue == "Refused for the test.")

        #expect(try #require(PageErrorRenderer().resolve(refusal)).status == expected.status)
        let oauth = try #require(OAuthErrorRenderer().resolve(refusal))
        #expect(oauth.status == expected.status)
        let oauthBody = try JSONParser().parse(OAuthErrorRenderer().render(oauth, requestId: "req_1").body)
        #expect(oauthBody["error"]?.stringValue == "sandbox_refusal")
    }

    @Test func missingIsStripesResourceMissing() throws {
        let error = try #require(
            StripeErrorRenderer(publicBaseURL: "http://127.0.0.1").resolve(
                OnrampError.missing("crypto customer", parameter: "id")))
        #expect(error.status == 404)
        #expect(error.code == "resource_missing")
        #expect(error.message == "No such crypto customer.")
        #expect(error.param == "id")
    }

    /// A page explains a refusal to the person who opened it, but never a failing store or a bug.
    @Test func pagesExplainRefusalsOnly() {
        #expect(
            PageErrorRenderer.refusalMessage(OnrampError.refusal("invalid_request", "Enter an amount."))
                == "Enter an amount.")
        #expect(
            PageErrorRenderer.refusalMessage(HTTPError(status: 400, code: "x", message: "Bad field.")) == "Bad field.")
        #expect(PageErrorRenderer.refusalMessage(HTTPError(status: 503, code: "busy", message: "Busy.")) == nil)
        #expect(PageErrorRenderer.refusalMessage(StoreError(.busy, "The store is busy.")) == nil)
    }
}
