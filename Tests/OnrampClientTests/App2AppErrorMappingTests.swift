import Foundation
import HTTPServer
import OnrampTestSupport
import Testing

@testable import OnrampClient
@testable import OnrampServer
@testable import OnrampServices

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK types a refusal by the codes the server's CDP error body carries (`errorType`, and the App
/// Attest failure in `errorReason`), rendered here by the server's own renderer: rewording a message
/// changes nothing, and a message alone types nothing.
@Suite(.blocking) struct App2AppErrorMappingTests {
    private func answer(_ refusal: App2AppRefusal) -> HTTPAnswer {
        answer(CDPErrors.httpError(refusing: refusal))
    }

    private func answer(_ error: HTTPError) -> HTTPAnswer {
        let response = CDPErrorRenderer().render(error, requestId: "req_test")
        return HTTPAnswer(
            data: Data(response.body),
            response: HTTPURLResponse(
                url: URL(string: "http://127.0.0.1/")!, statusCode: response.status, httpVersion: nil,
                headerFields: [:])!)
    }

    @Test func anAssertionRefusalIsAnInvalidKeyWhateverItsMessage() {
        #expect(App2AppClient.failure(answer(.assertionFailed(reason: "invalid_signature"))).code == .invalidKey)
        var reworded = CDPErrors.httpError(refusing: .assertionFailed(reason: "counter_not_increased"))
        reworded.message = "Something else entirely."
        #expect(App2AppClient.failure(answer(reworded)).code == .invalidKey)
    }

    @Test func aMessageAloneTypesNothing() {
        let lookalike = HTTPError(status: 400, code: "invalid_request", message: "Purchase assertion failed (x).")
        #expect(App2AppClient.failure(answer(lookalike)).code == .invalidRequest)
    }

    @Test func documentedTypesMapToTheirCodes() {
        #expect(App2AppClient.failure(answer(.staleChallenge)).code == .staleChallenge)
        let limited = HTTPError(status: 429, code: "rate_limit_exceeded", message: "Slow down.")
        #expect(App2AppClient.failure(answer(limited)).code == .rateLimited)
        #expect(App2AppClient.failure(answer(.notEnabled)).code == .forbidden)
    }
}
