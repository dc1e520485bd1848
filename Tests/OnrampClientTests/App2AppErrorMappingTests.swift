import Foundation
import HTTPServer
import Testing

@testable import OnrampClient
@testable import OnrampServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK types a refusal by the codes the server's CDP error body carries (`errorType`, and the App
/// Attest failure in `errorReason`), rendered here by the server's own renderer: rewording a message
/// changes nothing, and a message alone types nothing.
@Suite struct App2AppErrorMappingTests {
    private func answer(_ error: HTTPError) -> HTTPAnswer {
        let response = CDPErrorRenderer().render(error, requestId: "req_test")
        return HTTPAnswer(
            data: Data(response.body),
            response: HTTPURLResponse(
                url: URL(string: "http://127.0.0.1/")!, statusCode: response.status, httpVersion: nil,
                headerFields: [:])!)
    }

    @Test func anAssertionRefusalIsAnInvalidKeyWhateverItsMessage() {
        #expect(App2AppClient.failure(answer(.purchaseAssertionFailed("invalid_signature"))).code == .invalidKey)
        var reworded = HTTPError.purchaseAssertionFailed("counter_not_increased")
        reworded.message = "Something else entirely."
        #expect(App2AppClient.failure(answer(reworded)).code == .invalidKey)
    }

    @Test func aMessageAloneTypesNothing() {
        let lookalike = HTTPError(status: 400, code: "invalid_request", message: "Purchase assertion failed (x).")
        #expect(App2AppClient.failure(answer(lookalike)).code == .invalidRequest)
    }

    @Test func documentedTypesMapToTheirCodes() {
        let stale = HTTPError(status: 422, code: "stale_attestation", message: "Challenge expired.")
        #expect(App2AppClient.failure(answer(stale)).code == .staleChallenge)
        let limited = HTTPError(status: 429, code: "rate_limit_exceeded", message: "Slow down.")
        #expect(App2AppClient.failure(answer(limited)).code == .rateLimited)
        let forbidden = HTTPError(status: 403, code: "forbidden", message: "Not enabled.")
        #expect(App2AppClient.failure(answer(forbidden)).code == .forbidden)
    }
}
