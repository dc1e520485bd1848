import Foundation
import OnrampClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends through URLSession and records each request path; optionally loses the answer of the first
/// `dropping` requests whose path ends with `dropSuffix` after the server handled them (a dropped connection).
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let inner = URLSessionTransport()
    private let lock = NSLock()
    private var paths: [String] = []
    private var dropsLeft: Int
    private var lostBodies: [Data] = []
    let dropSuffix: String

    init(dropping: Int = 0, dropSuffix: String = "/v2/onramp/mobile/sessions") {
        dropsLeft = dropping
        self.dropSuffix = dropSuffix
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        lock.withLock { paths.append("\(request.httpMethod ?? "GET") \(path)") }
        let (data, response) = try await inner.send(request)
        let drop = lock.withLock {
            guard path.hasSuffix(dropSuffix), dropsLeft > 0 else { return false }
            dropsLeft -= 1
            lostBodies.append(data)
            return true
        }
        if drop { throw URLError(.networkConnectionLost) }
        return (data, response)
    }

    var requests: [String] { lock.withLock { paths } }
    var lost: [Data] { lock.withLock { lostBodies } }

    func count(_ suffix: String) -> Int { requests.filter { $0.hasSuffix(suffix) }.count }
}
