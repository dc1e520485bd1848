import CMicroHTTPD
import Foundation
import OnrampRuntime
import Synchronization

/// An HTTP/1.1 server on GNU libmicrohttpd: epoll worker threads, fed connections in turn by an
/// ``AcceptLoop``, run the ``Router``'s handlers synchronously, with keep-alive, body/URL/header limits,
/// a `Request-Id` on every response, an access-log line and metrics per request, and a graceful
/// shutdown that lets in-flight requests finish.
public final class HTTPServer: Sendable {
    /// The configuration it was started with.
    public let configuration: ServerConfiguration
    let router: Router
    let metrics: Metrics
    let log: AccessLog
    /// The recent requests the console lists (nil: not kept).
    let requestLog: RequestLog?
    let connections: ConnectionGuard
    /// The probe answered before routing, when the configuration names one.
    let livenessProbe: LivenessProbe?

    private struct State {
        var daemons: [DaemonHandle] = []
        var acceptLoop: AcceptLoop?
        var port = 0
    }

    private let state = Locked(State())
    /// Requests received and not yet completed (an atomic: two changes per request, no lock).
    private let inFlight = Atomic<Int>(0)

    /// Creates a server; call ``start()`` to listen.
    public init(
        configuration: ServerConfiguration, router: Router, metrics: Metrics = Metrics(), log: AccessLog = .shared,
        requestLog: RequestLog? = nil
    ) {
        self.configuration = configuration
        self.router = router
        self.metrics = metrics
        self.log = log
        self.requestLog = requestLog
        connections = ConnectionGuard(
            limits: configuration.connections ?? .fromDescriptorLimit(), metrics: metrics, log: log)
        livenessProbe = configuration.livenessPath.flatMap { LivenessProbe(path: $0, router: router) }
    }

    /// The connection caps and deadlines in force.
    public var connectionLimits: ConnectionLimits { connections.limits }

    /// Open client connections.
    public var openConnections: Int { connections.openConnections }

    /// Why the server could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        /// What failed.
        public let message: String
        public var description: String { message }

        /// Creates an error.
        public init(message: String) { self.message = message }
    }

    /// The port the server listens on (useful with port 0).
    public var port: Int { state.withLock { $0.port } }

    /// Requests received and not yet completed.
    public var inFlightRequests: Int { inFlight.load(ordering: .acquiring) }

    /// Starts the worker threads on `socket`, or on a socket bound to the configured host and port: one
    /// libmicrohttpd daemon per worker thread, each with no listening socket of its own, and the
    /// ``AcceptLoop`` that deals the connections out to them in turn.
    public func start(on socket: ListeningSocket? = nil) throws {
        let socket = try socket ?? ListeningSocket.bind(host: configuration.host, port: configuration.port)
        var daemons: [DaemonHandle] = []
        do {
            for _ in 0..<max(1, configuration.threadCount) { daemons.append(try startWorker()) }
            let acceptLoop = try AcceptLoop(listening: socket, daemons: daemons)
            acceptLoop.start()
            state.withLock {
                $0.daemons = daemons
                $0.acceptLoop = acceptLoop
                $0.port = socket.port
            }
        } catch {
            for daemon in daemons { MHD_stop_daemon(daemon.pointer) }
            close(socket.descriptor)
            throw error
        }
        connections.startReaper()
    }

    /// A libmicrohttpd daemon with one thread of its own, which serves the connections the accept loop
    /// hands it (`MHD_USE_ITC`: an added connection wakes it).
    private func startWorker() throws -> DaemonHandle {
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_TURBO.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
        let context = Unmanaged.passUnretained(self).toOpaque()
        let limits = connections.limits
        let arguments: [CVarArg] = [
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(configuration.connectionTimeoutSeconds),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Self.connectionMemoryBytes(configuration),
            // Each worker's own cap sits above the server's: ours decides (``ConnectionGuard``), with room
            // for connections being evicted.
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(limits.total + limits.reserve + configuration.threadCount),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompletedCallback, to: OpaquePointer.self),
            OpaquePointer(context),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, unsafeBitCast(connectionNotifyCallback, to: OpaquePointer.self),
            OpaquePointer(context),
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(requestTargetCallback, to: OpaquePointer.self),
            OpaquePointer(context),
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, unsafeBitCast(keepEscapesCallback, to: OpaquePointer.self),
            OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        let daemon = withVaList(arguments) { list in
            MHD_start_daemon_va(flags, 0, nil, nil, accessHandlerCallback, context, list)
        }
        guard let daemon else { throw StartError(message: "could not start a worker thread") }
        return DaemonHandle(pointer: daemon)
    }

    /// Each connection's memory pool (its read buffer, parsed headers and response head): the head limit
    /// and 4 KiB. Heads up to about that size are parsed whole and refused by us with 431 in the path's
    /// error shape, larger ones get the library's own 431. The query never enters the pool as arguments
    /// (see ``requestTargetCallback``). libmicrohttpd zeroes the whole pool after every request and a
    /// keep-alive connection keeps those pages resident, so this is both a cost per request and most of
    /// the memory an idle connection holds (2,000 of them: about 48 MB).
    static func connectionMemoryBytes(_ configuration: ServerConfiguration) -> Int {
        configuration.maximumHeaderBytes + 4096
    }

    /// Stops accepting connections, waits up to `gracePeriod` seconds for in-flight requests to
    /// complete, then stops the worker threads and closes every connection.
    public func shutdown(gracePeriod: Double = 30) {
        guard let acceptLoop = state.withLock({ $0.acceptLoop }) else { return }
        acceptLoop.stop()
        connections.closeWaiting()
        let deadline = Date().addingTimeInterval(gracePeriod)
        while inFlightRequests > 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        for daemon in state.withLock({ $0.daemons }) { MHD_stop_daemon(daemon.pointer) }
        connections.stop()
        state.withLock {
            $0.daemons = []
            $0.acceptLoop = nil
        }
        log.flush()
    }

    // MARK: - Called from the C callbacks

    func requestStarted() {
        inFlight.add(1, ordering: .relaxed)
    }

    func requestCompleted() {
        inFlight.subtract(1, ordering: .releasing)
    }

    /// Answers `request` in this process, as a connection's handler would once the head and body are in:
    /// routed, its response head checked, and recorded (metrics, access log, request log). The socket's
    /// own checks (framing, head and body limits, deadlines) are not made. For in-process tests.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        handle(request, startedAt: .now)
    }

    /// Routes a complete request whose head weighs `headWeight` in the connection's pool, and records it.
    func handle(_ request: HTTPRequest, startedAt: ContinuousClock.Instant, headWeight: Int = 0) -> HTTPResponse {
        let notes = RequestNotes()
        var (response, route) = notes.bind { router.respond(to: request) }
        let room = Self.connectionMemoryBytes(configuration) - headWeight - Self.responseHeadReserve
        if !response.headIsSendable(maximumBytes: room) {
            // Never a silent close: whatever the handler did, the client hears that it went wrong.
            log.error(
                "unsendable response head from \(route) status=\(response.status) request_id=\(request.requestId)")
            response = notes.bind { router.render(.internalError, for: request) }
        }
        record(request: request, route: route, response: response, startedAt: startedAt, notes: notes)
        return response
    }

    /// What a response head needs in the connection's pool beyond its own header lines (the status
    /// line, the library's `Date`, `Content-Length` and `Connection`, alignment): a head must fit what the
    /// request's head left of the pool, or the library closes the connection without a word.
    static let responseHeadReserve = 1024

    /// A response for a request refused before routing (413, 414), in its path's error shape.
    func refuse(_ request: HTTPRequest, with error: HTTPError, startedAt: ContinuousClock.Instant) -> HTTPResponse {
        let notes = RequestNotes()
        let response = notes.bind { router.render(error, for: request) }
        record(request: request, route: "refused", response: response, startedAt: startedAt, notes: notes)
        return response
    }

    private func record(
        request: HTTPRequest, route: String, response: HTTPResponse, startedAt: ContinuousClock.Instant,
        notes: RequestNotes
    ) {
        let status = response.status
        let elapsed = ContinuousClock.now - startedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        metrics.record(route: route, status: status, durationSeconds: seconds)
        if let requestLog {
            let keepsBodies = requestLog.keepsBodies(refused: status >= 400)
            func body(_ bytes: [UInt8], _ contentType: String?) -> String? {
                keepsBodies ? LoggedBody.text(of: bytes, contentType: contentType) : requestLog.bodiesNotKept
            }
            requestLog.record(
                RequestLog.Entry(
                    time: Date(), requestId: request.requestId, method: request.method, route: route, status: status,
                    seconds: seconds, projectId: notes.projectId, errorCode: notes.refusal?.code,
                    errorMessage: notes.refusal?.message, subjects: notes.subjects,
                    requestBody: body(request.body, request.headers["Content-Type"]),
                    responseBody: body(response.body, response.headers["Content-Type"])))
        }
        log.request(
            method: request.method, route: route, status: status, durationSeconds: seconds,
            requestId: request.requestId, errorCode: notes.refusal?.code)
    }
}

/// The daemon pointer. libmicrohttpd's daemon functions are thread-safe, and the pointer is only
/// freed by `MHD_stop_daemon` in ``HTTPServer/shutdown(gracePeriod:)``, after which it is dropped.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
