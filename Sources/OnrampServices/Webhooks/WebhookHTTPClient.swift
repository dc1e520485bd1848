import CCurl
import Foundation
import OnrampPlatform
import OnrampRuntime

/// The HTTP client of webhook deliveries: libcurl's multi interface, driven by one thread of its own
/// that runs every transfer (no thread or queue hop per request). Connections to an endpoint stay open
/// for its next deliveries, redirects are not followed, and each address a name resolved to is checked
/// against ``AddressPolicy`` before a socket is opened to it (libcurl's `CURLOPT_OPENSOCKETFUNCTION`), so
/// no connection, TCP or TLS, is ever made to a refused address, whatever a name resolves to at the time.
///
/// The thread starts with the first request and ends after an idle lifetime without one (5 s); the
/// next request starts it again. Connections are kept by the client, not the thread.
package final class WebhookHTTPClient: Sendable {
    /// One POST.
    package struct Request: Sendable {
        /// The target, `http` or `https`.
        package var url: String
        /// The header fields, in order.
        package var headers: [(String, String)]
        /// The body.
        package var body: [UInt8]
        /// No complete answer within this counts as a failure.
        package var timeout: TimeInterval
    }

    /// What came back.
    package struct Response: Sendable {
        /// The status, when an answer's status line arrived.
        package var statusCode: Int?
        /// The body's first ``WebhookHTTPClient/excerptLimit`` bytes (the rest is read and dropped).
        package var body: [UInt8]
        /// Why there is no complete answer.
        package var error: String?
    }

    /// Whether a connection to the address (its numeric text, `10.0.0.1` or `::1`) may carry a delivery.
    package typealias AddressPolicy = @Sendable (String) -> Bool

    /// How much of a response body is kept.
    package static let excerptLimit = 1024

    private let loop: TransferLoop

    /// A client keeping at most `maximumConnectionsPerHost` connections to one host (more requests wait
    /// for one), sending only over connections whose address `addressPolicy` allows; its thread ends
    /// after `idleLifetime` seconds without a request. `maximumTransfers` is how many requests its
    /// caller keeps in flight at most (that many handles are kept for reuse; by default one per
    /// connection).
    package init(
        maximumConnectionsPerHost: Int, maximumTransfers: Int? = nil, idleLifetime: TimeInterval = 5,
        addressPolicy: @escaping AddressPolicy
    ) {
        loop = TransferLoop(
            maximumConnectionsPerHost: maximumConnectionsPerHost,
            maximumTransfers: maximumTransfers ?? maximumConnectionsPerHost, idleLifetime: idleLifetime,
            addressPolicy: addressPolicy)
    }

    deinit {
        loop.stop()
    }

    /// Whether the transfer thread is running (it ends when idle).
    package var threadIsRunning: Bool { loop.threadIsRunning }

    /// Sends `request` and calls `completion` once, on the transfer thread, with the outcome. Returns at
    /// once.
    package func send(_ request: Request, completion: @escaping @Sendable (Response) -> Void) {
        loop.enqueue(Transfer(request: request, completion: completion))
    }
}

/// libcurl's global state, set up once per process before any handle exists.
private let curlGlobal: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// The multi handle and the thread that drives it.
private final class TransferLoop: @unchecked Sendable {
    /// What other threads hand the transfer thread.
    private struct Inbox {
        var pending: [Transfer] = []
        var threadRunning = false
        var stopping = false
    }

    // The multi handle and `active` are used by the transfer thread only (one at a time: a thread
    // that ends gives them up under `inbox`'s lock before the next one can start).
    private let multi: UnsafeMutableRawPointer
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Easy handles of finished transfers, reset for the next ones: a fresh handle cost about a fifth
    /// of a webhook's heap allocations (its state and its 16 KiB download buffer, made and freed per
    /// event). At most one per transfer the caller keeps in flight.
    private var spareHandles: [UnsafeMutableRawPointer] = []
    private let maximumSpareHandles: Int
    private let inbox = Locked(Inbox())
    private let addressPolicy: WebhookHTTPClient.AddressPolicy
    private let idleLifetime: TimeInterval

    init(
        maximumConnectionsPerHost: Int, maximumTransfers: Int, idleLifetime: TimeInterval,
        addressPolicy: @escaping WebhookHTTPClient.AddressPolicy
    ) {
        _ = curlGlobal
        self.idleLifetime = idleLifetime
        // NULL only when memory is exhausted.
        guard let multi = curl_multi_init() else { preconditionFailure("curl_multi_init failed") }
        self.multi = multi
        self.addressPolicy = addressPolicy
        maximumSpareHandles = max(1, maximumTransfers)
        onramp_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maximumConnectionsPerHost))
        onramp_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, max(1, maximumConnectionsPerHost))
    }

    deinit {
        spareHandles.forEach(curl_easy_cleanup)
        curl_multi_cleanup(multi)
    }

    func enqueue(_ transfer: Transfer) {
        enum Admission { case refused, queued, queuedBehindOthers, startsThread }
        let admission = inbox.withLock { inbox -> Admission in
            guard !inbox.stopping else { return .refused }
            inbox.pending.append(transfer)
            defer { inbox.threadRunning = true }
            guard inbox.threadRunning else { return .startsThread }
            return inbox.pending.count == 1 ? .queued : .queuedBehindOthers
        }
        switch admission {
        case .refused: transfer.finish(.failed("the server is shutting down"))
        // The first transfer queued wakes the thread, which takes every pending one when it wakes (the
        // queue is emptied only at the top of its loop, after each wait, so that wake-up is still to
        // come for the ones queued behind): one wake-up per batch instead of one per transfer.
        case .queued: curl_multi_wakeup(multi)
        case .queuedBehindOthers: break
        case .startsThread:
            let thread = Thread { self.run() }
            thread.name = "webhook-http"
            thread.start()
        }
    }

    var threadIsRunning: Bool { inbox.withLock { $0.threadRunning } }

    /// Ends the thread; transfers in flight fail.
    func stop() {
        inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    private func run() {
        var idleSince = Date()
        while true {
            let (incoming, stopping) = inbox.withLock { inbox in
                defer { inbox.pending = [] }
                return (inbox.pending, inbox.stopping)
            }
            for transfer in incoming { start(transfer) }
            if stopping {
                finishAll(.failed("the server is shutting down"))
                spareHandles.forEach(curl_easy_cleanup)
                spareHandles = []
                inbox.withLock { $0.threadRunning = false }
                return
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            if active.isEmpty {
                if Date().timeIntervalSince(idleSince) >= idleLifetime {
                    let ends = inbox.withLock { inbox -> Bool in
                        guard inbox.pending.isEmpty else { return false }
                        inbox.threadRunning = false
                        return true
                    }
                    if ends { return }
                }
            } else {
                idleSince = Date()
            }
            // Returns early on socket activity, on curl's own timers (timeouts) and on a wakeup.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func start(_ transfer: Transfer) {
        switch transfer.prepare(reusing: spareHandles.popLast(), addressPolicy: addressPolicy) {
        case .success(let easy):
            active[easy] = transfer
            curl_multi_add_handle(multi, easy)
        case .failure(let failure):
            transfer.finish(failure)
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let result = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            guard let transfer = active.removeValue(forKey: easy) else { continue }
            transfer.complete(result)
            // Back to its defaults: every option, callback and buffer of the transfer is set afresh
            // by the next `prepare` (connections and the DNS cache belong to the multi handle).
            curl_easy_reset(easy)
            if spareHandles.count < maximumSpareHandles {
                spareHandles.append(easy)
            } else {
                curl_easy_cleanup(easy)
            }
        }
    }

    private func finishAll(_ outcome: Transfer.Outcome) {
        for (easy, transfer) in active {
            curl_multi_remove_handle(multi, easy)
            transfer.finish(outcome)
            curl_easy_cleanup(easy)
        }
        active = [:]
    }
}

/// One request on its way: its easy handle and what the callbacks collect.
private final class Transfer: @unchecked Sendable {
    /// How a transfer ends when it does not run to completion.
    enum Outcome: Error {
        case failed(String)
    }

    let request: WebhookHTTPClient.Request
    private let completion: @Sendable (WebhookHTTPClient.Response) -> Void
    // Touched by the transfer thread only, from `prepare` to `finish`.
    private var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    fileprivate var excerpt: [UInt8] = []
    fileprivate var refusedAddress: String?
    fileprivate var addressPolicy: WebhookHTTPClient.AddressPolicy = { _ in false }

    init(request: WebhookHTTPClient.Request, completion: @escaping @Sendable (WebhookHTTPClient.Response) -> Void) {
        self.request = request
        self.completion = completion
        errorText.initialize(to: 0)
    }

    deinit {
        errorText.deallocate()
    }

    /// The configured easy handle (`handle`, reset, when one is given), or why the request cannot be
    /// sent (a given handle is then freed). The caller owns the handle again once the transfer ends.
    func prepare(
        reusing handle: UnsafeMutableRawPointer?, addressPolicy: @escaping WebhookHTTPClient.AddressPolicy
    ) -> Result<UnsafeMutableRawPointer, Outcome> {
        self.addressPolicy = addressPolicy
        for (name, value) in request.headers {
            let bytes = Array(name.utf8) + Array(value.utf8)
            guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: ":")),
                !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F })
            else {
                handle.map(curl_easy_cleanup)
                return .failure(.failed("the header field \(name) is not valid"))
            }
        }
        guard let easy = handle ?? curl_easy_init() else {
            return .failure(.failed("libcurl could not make a handle"))
        }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        // `Expect:` turns off libcurl's 100-continue round trip for larger bodies.
        for line in request.headers.map({ "\($0.0): \($0.1)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        let milliseconds = max(1, Int(request.timeout * 1000))
        request.url.withCString {
            _ = onramp_curl_set_pointer(easy, CURLOPT_URL, UnsafeMutableRawPointer(mutating: $0))
        }
        "http,https".withCString {
            _ = onramp_curl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, UnsafeMutableRawPointer(mutating: $0))
        }
        onramp_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        onramp_curl_set_long(easy, CURLOPT_POST, 1)
        onramp_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, request.body.count)
        request.body.withUnsafeBytes {
            _ = onramp_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
        }
        onramp_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList.map { UnsafeMutableRawPointer($0) })
        onramp_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        onramp_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        onramp_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        onramp_curl_set_write_function(easy, keepExcerpt)
        onramp_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
        onramp_curl_set_opensocket_function(easy, openCheckedSocket)
        onramp_curl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, context)
        return .success(easy)
    }

    /// The transfer ran to its end (`result`).
    func complete(_ result: CURLcode) {
        var status = 0
        if let easy { onramp_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status) }
        let error: String? =
            if result == CURLE_OK {
                nil
            } else if let refusedAddress {
                "target resolves to an address deliveries may not reach (\(refusedAddress)); no connection made"
            } else if errorText.pointee != 0 {
                String(validatingCString: errorText) ?? "transfer failed"
            } else {
                String(validatingCString: curl_easy_strerror(result)) ?? "transfer failed"
            }
        release()
        completion(.init(statusCode: status > 0 ? status : nil, body: excerpt, error: error))
    }

    /// The transfer ends without an answer.
    func finish(_ outcome: Outcome) {
        release()
        switch outcome {
        case .failed(let reason): completion(.init(statusCode: nil, body: [], error: reason))
        }
    }

    /// Frees what the transfer made; the easy handle stays its caller's.
    private func release() {
        easy = nil
        curl_slist_free_all(headerList)
        headerList = nil
    }
}

/// Keeps the first ``WebhookHTTPClient/excerptLimit`` bytes of a body and reads past the rest.
private let keepExcerpt: curl_write_callback = { data, size, count, context in
    let length = size * count
    guard let data, let context else { return length }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let room = WebhookHTTPClient.excerptLimit - transfer.excerpt.count
    if room > 0 {
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.excerpt.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(room, length)))
        }
    }
    return length
}

/// Opens the socket of a connection only when the address it goes to is allowed; otherwise records it and
/// answers `CURL_SOCKET_BAD`, so libcurl tries the name's next address or fails, having connected nowhere.
private let openCheckedSocket: curl_opensocket_callback = { context, _, address in
    guard let context, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    guard onramp_curl_sockaddr_text(address, &text, socklen_t(text.count)) == 1 else { return CURL_SOCKET_BAD }
    let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard transfer.addressPolicy(numeric) else {
        transfer.refusedAddress = numeric
        return CURL_SOCKET_BAD
    }
    return PlatformSockets.openCloseOnExec(
        family: address.pointee.family, type: address.pointee.socktype, protocol: address.pointee.protocol)
}
