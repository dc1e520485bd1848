import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends Stripe's SDK traffic to an onramp sandbox instead of Stripe: requests for `api.stripe.com` and
/// `uploads.stripe.com` go to the same path on ``sandboxBaseURL``; the SDK's analytics hosts
/// (`q.stripe.com`, `m.stripe.com`) are answered `200 {}` here.
///
/// The real `StripeCryptoOnramp` SDK builds every `URLSession` it uses (the coordinator's client, Link's
/// `STPAPIClient.shared`, the platform client of `performCheckout`, the Identity client, the file upload)
/// from StripeCore's `StripeAPIConfiguration.sharedUrlSessionConfiguration`, so adding this protocol to that
/// configuration before the first `STPAPIClient` exists reaches all of them (see the README). The forwarded
/// request is sent on a session of its own, without this protocol.
public final class StripeSandboxURLProtocol: URLProtocol {
    private let forwardedTask = Mutex<URLSessionDataTask?>(nil)

    private static let base = Mutex<URL?>(nil)
    private static let forwarding = URLSession(configuration: .ephemeral)

    /// The hosts whose requests go to the sandbox.
    public static let apiHosts: Set<String> = ["api.stripe.com", "uploads.stripe.com"]
    /// The analytics hosts answered locally.
    public static let analyticsHosts: Set<String> = ["q.stripe.com", "m.stripe.com"]

    /// Where requests go (`http://127.0.0.1:8080`); `nil` lets every request through untouched.
    public static var sandboxBaseURL: URL? {
        get { base.withLock { $0 } }
        set { base.withLock { $0 = newValue } }
    }

    /// Points `configuration`'s sessions at `sandbox`: sets ``sandboxBaseURL`` and puts this protocol first.
    public static func install(in configuration: URLSessionConfiguration, sandbox: URL) {
        sandboxBaseURL = sandbox
        let others = (configuration.protocolClasses ?? []).filter { $0 != StripeSandboxURLProtocol.self }
        configuration.protocolClasses = [StripeSandboxURLProtocol.self] + others
    }

    override public class func canInit(with request: URLRequest) -> Bool {
        guard sandboxBaseURL != nil, let host = request.url?.host?.lowercased() else { return false }
        return apiHosts.contains(host) || analyticsHosts.contains(host)
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The request with its scheme, host and port replaced by the sandbox's (path and query kept).
    static func rewritten(_ request: URLRequest, to sandbox: URL) -> URLRequest? {
        guard let url = request.url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let target = URLComponents(url: sandbox, resolvingAgainstBaseURL: false)
        else { return nil }
        parts.scheme = target.scheme
        parts.host = target.host
        parts.port = target.port
        parts.percentEncodedPath = target.percentEncodedPath.trimmingSuffix("/") + parts.percentEncodedPath
        var forwarded = request
        forwarded.url = parts.url
        // Apple's URLSession hands a protocol the body as a stream; swift-corelibs-foundation keeps `httpBody`
        // (and setting `httpBodyStream` there clears it).
        if request.httpBody == nil, let stream = request.httpBodyStream { forwarded.httpBody = Self.read(stream) }
        return forwarded
    }

    override public func startLoading() {
        guard let url = request.url, let sandbox = Self.sandboxBaseURL else { return }
        if Self.analyticsHosts.contains(url.host?.lowercased() ?? "") {
            let owner = Owner(self)
            DispatchQueue.global().async {
                guard let loader = owner.loader, let client = loader.client else { return }
                let response = HTTPURLResponse(
                    url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": "application/json"])
                if let response { client.urlProtocol(loader, didReceive: response, cacheStoragePolicy: .notAllowed) }
                client.urlProtocol(loader, didLoad: Data("{}".utf8))
                client.urlProtocolDidFinishLoading(loader)
            }
            return
        }
        guard let forwarded = Self.rewritten(request, to: sandbox) else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        // `startLoading` runs on the loading session's work queue, and swift-corelibs-foundation puts every
        // session's queues on one shared queue: creating or resuming the forwarded task from here, or reporting
        // from the forwarded task's completion, would wait on that queue forever. Both happen on another queue.
        let owner = Owner(self)
        DispatchQueue.global().async {
            let dataTask = Self.forwarding.dataTask(with: forwarded) { data, response, error in
                DispatchQueue.global().async {
                    guard let loader = owner.loader, let client = loader.client else { return }
                    if let error {
                        client.urlProtocol(loader, didFailWithError: error)
                        return
                    }
                    if let response {
                        client.urlProtocol(loader, didReceive: response, cacheStoragePolicy: .notAllowed)
                    }
                    if let data { client.urlProtocol(loader, didLoad: data) }
                    client.urlProtocolDidFinishLoading(loader)
                }
            }
            owner.loader?.forwardedTask.withLock { $0 = dataTask }
            dataTask.resume()
        }
    }

    override public func stopLoading() {
        forwardedTask.withLock { $0?.cancel() }
    }

    /// Hands the loading protocol to the forwarding task's completion, which URLSession runs on its own queue
    /// (`URLProtocol` is not `Sendable`; its client may be called from any thread).
    private struct Owner: @unchecked Sendable {
        weak var loader: StripeSandboxURLProtocol?
        init(_ loader: StripeSandboxURLProtocol) { self.loader = loader }
    }

    private static func read(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
