import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends one HTTP request and returns the raw answer. The SDKs talk to the network only through this, so
/// tests can drop a connection or record traffic; ``URLSessionTransport`` is the default.
public protocol HTTPTransport: Sendable {
    /// Sends `request`; throws `URLError` for transport failures (a dropped connection, a timeout).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
