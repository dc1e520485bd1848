import Foundation
import OnrampClient
import OnrampTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``StripeSandboxURLProtocol`` on a session configuration, as an app installs it in StripeCore's shared
/// configuration: requests for Stripe's hosts reach the sandbox on a real port, bodies included.
@Suite(.serialized, .blocking) struct StripeSandboxURLProtocolTests {
    static func session(_ sandbox: SandboxServer) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        StripeSandboxURLProtocol.install(in: configuration, sandbox: sandbox.rootURL)
        return URLSession(configuration: configuration)
    }

    @Test func stripeHostsReachTheSandboxWithTheirBodies() async throws {
        let sandbox = try await SandboxServer()
        let session = Self.session(sandbox)
        defer { StripeSandboxURLProtocol.sandboxBaseURL = nil }
        var get = URLRequest(
            url: URL(
                string:
                    "https://api.stripe.com/v1/elements/sessions?type=deferred_intent&deferred_intent%5Bmode%5D=setup")!
        )
        get.setValue("Bearer \(sandbox.credentials.stripePublishableKey)", forHTTPHeaderField: "Authorization")
        let (elements, elementsResponse) = try await session.data(for: get)
        #expect((elementsResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: elements, as: UTF8.self).contains("link_mobile_use_attestation_endpoints"))

        var post = URLRequest(url: URL(string: "https://api.stripe.com/v1/consumers/mobile/sessions/lookup")!)
        post.httpMethod = "POST"
        post.setValue("Bearer \(sandbox.credentials.stripePublishableKey)", forHTTPHeaderField: "Authorization")
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data("email_address=nobody%40example.com&request_surface=ios_crypto_onramp".utf8)
        let (lookup, lookupResponse) = try await session.data(for: post)
        #expect((lookupResponse as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: lookup, as: UTF8.self))")
        #expect(String(decoding: lookup, as: UTF8.self).contains(#""exists":false"#), "the form body arrived")

        let (analytics, analyticsResponse) = try await session.data(from: URL(string: "https://q.stripe.com/?event=x")!)
        #expect((analyticsResponse as? HTTPURLResponse)?.statusCode == 200 && analytics == Data("{}".utf8))
    }

    @Test func otherHostsAreNotTouched() {
        StripeSandboxURLProtocol.sandboxBaseURL = URL(string: "http://127.0.0.1:1")
        defer { StripeSandboxURLProtocol.sandboxBaseURL = nil }
        #expect(StripeSandboxURLProtocol.canInit(with: URLRequest(url: URL(string: "https://api.stripe.com/v1/x")!)))
        #expect(!StripeSandboxURLProtocol.canInit(with: URLRequest(url: URL(string: "https://example.com/v1/x")!)))
        #expect(
            !StripeSandboxURLProtocol.canInit(with: URLRequest(url: URL(string: "https://api.stripe.com.evil.test/")!)))
    }
}
