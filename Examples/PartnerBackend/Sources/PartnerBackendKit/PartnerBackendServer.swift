import HTTPServer

/// The example partner backend on an ``HTTPServer``: the webhook endpoints `POST /webhooks/cdp` and
/// `POST /webhooks/stripe` (authentic deliveries get 200, duplicates too so the sender stops retrying; others
/// 400), and, when given an ``EmbeddedPartnerBackend``, the endpoints its app calls (see `PartnerAppRoutes`).
public final class PartnerBackendServer: Sendable {
    /// The CDP (App2App) path.
    public static let cdpPath = "/webhooks/cdp"
    /// The Stripe (Embedded) path.
    public static let stripePath = "/webhooks/stripe"

    /// The receiver behind the endpoints.
    public let receiver: PartnerWebhookReceiver
    private let server: HTTPServer

    /// Starts listening on `host:port` (`0` picks a free port).
    public init(
        receiver: PartnerWebhookReceiver, embedded: EmbeddedPartnerBackend? = nil, host: String = "127.0.0.1",
        port: Int = 0
    ) throws {
        self.receiver = receiver
        var router = Router()
        router.add("POST", Self.cdpPath) { request in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.lowercased()] = field.value }
            do {
                try receiver.receiveCDP(payload: request.body, headers: headers)
                return .text("ok")
            } catch {
                return .text("refused: \(error)", status: 400)
            }
        }
        router.add("POST", Self.stripePath) { request in
            do {
                try receiver.receiveStripe(payload: request.body, signatureHeader: request.headers["Stripe-Signature"])
                return .text("ok")
            } catch {
                return .text("refused: \(error)", status: 400)
            }
        }
        if let embedded {
            PartnerAppRoutes(backend: embedded, ledger: receiver.ledger).register(on: &router)
        }
        server = HTTPServer(configuration: ServerConfiguration(host: host, port: port, threadCount: 4), router: router)
        try server.start()
    }

    /// The bound port.
    public var port: Int { server.port }

    /// The base URL of the endpoints (`http://127.0.0.1:PORT`).
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops listening.
    public func shutdown() {
        server.shutdown(gracePeriod: 1)
    }
}
