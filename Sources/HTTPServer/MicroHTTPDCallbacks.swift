import CMicroHTTPD
import Foundation
import OnrampWire

/// Per-request state kept in libmicrohttpd's `req_cls` slot from the moment the request line is
/// read (``requestTargetCallback``) until the request-completed notification. Only the connection's
/// own thread touches it.
final class RequestContext {
    let startedAt = ContinuousClock.now
    let requestId = RequestId.make()
    /// Why the request target was refused before the library parsed it, if it was.
    var targetRefusal: HTTPError?
    /// The query as received (after the `?`, still escaped); the library never parses it.
    var rawQuery = ""
    /// The head's weight in the connection's pool (see `collectField`), once it is in.
    var headWeight = 0
    var headSeen = false
    /// The head's fields, collected once when the head is in and handed to the request.
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var bodyTooLarge = false
    var responded = false
}

/// Sees the raw request target (path and query) once the request line is read and before the library
/// parses the query. The query is copied out and cut off here, so the library never parses it: its
/// arguments would take about 56 bytes each of the connection's memory pool, and libmicrohttpd 0.9.75
/// stops answering when they exhaust it. A target over the URL limit, or with more query arguments than
/// allowed, is marked for refusal. The target lies in the connection's own writable read buffer, which
/// the library itself rewrites in place next.
let requestTargetCallback:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        serverPointer, target, _ in
        guard let serverPointer else { return nil }
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        let context = RequestContext()
        server.requestStarted()
        if let target {
            let limits = server.configuration
            let length = strlen(target)
            var arguments = 0
            var query: UnsafePointer<CChar>?
            for index in 0..<length {
                switch UInt8(bitPattern: target[index]) {
                case UInt8(ascii: "?") where query == nil:
                    query = target + index
                    arguments = 1
                case UInt8(ascii: "&") where query != nil: arguments += 1
                default: break
                }
            }
            if length > limits.maximumURLBytes {
                context.targetRefusal = .uriTooLong(limit: limits.maximumURLBytes)
            } else if arguments > limits.maximumQueryParameters {
                context.targetRefusal = .tooManyQueryParameters(limit: limits.maximumQueryParameters)
            }
            if let query {
                if context.targetRefusal == nil { context.rawQuery = String(cString: query + 1) }
                UnsafeMutablePointer(mutating: query + 1).pointee = 0
            }
        }
        return Unmanaged.passRetained(context).toOpaque()
    }

/// Keeps percent-escapes in the path so the router can decode its segments itself (an
/// encoded `/` inside a key id must not split the path).
let keepEscapesCallback:
    @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = {
        _, _, text in
        text.map { strlen($0) } ?? 0
    }

/// What a connection keeps from its set-up to its close, in libmicrohttpd's socket-context slot: its
/// client's address as text (read once, not once per request).
final class ConnectionContext {
    let clientAddress: String

    init(clientAddress: String) {
        self.clientAddress = clientAddress
    }

    /// The context the notify callback stored for `connection` (nil before it ran).
    static func of(_ connection: OpaquePointer) -> ConnectionContext? {
        onramp_mhd_socket_context(connection).map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// Tells the ``ConnectionGuard`` about connections set up (where it admits or refuses them) and closed
/// (the library calls this on the connection's own thread, before it closes the socket), and keeps each connection's
/// ``ConnectionContext`` from one to the other.
let connectionNotifyCallback:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_ConnectionNotificationCode
    ) -> Void = { serverPointer, connection, socketContext, code in
        guard let serverPointer, let connection else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        let key = connectionKey(connection)
        if code == .CONNECTION_NOTIFY_STARTED {
            var buffer = [CChar](repeating: 0, count: 64)
            let address =
                onramp_mhd_client_key(connection, &buffer, socklen_t(buffer.count)) == 0
                ? String(nulTerminated: buffer) : ""
            let context = ConnectionContext(clientAddress: clientAddress(connection))
            socketContext?.pointee = Unmanaged.passRetained(context).toOpaque()
            server.connections.open(key: key, socket: onramp_mhd_connection_fd(connection), address: address)
        } else {
            server.connections.closed(key: key)
            if let slot = socketContext, let context = slot.pointee {
                Unmanaged<ConnectionContext>.fromOpaque(context).release()
                slot.pointee = nil
            }
        }
    }

/// The ``ConnectionGuard``'s key for a connection.
private func connectionKey(_ connection: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
}

let requestCompletedCallback:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_RequestTerminationCode
    ) -> Void = { serverPointer, connection, requestSlot, _ in
        guard let serverPointer, let requestSlot, let contextPointer = requestSlot.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(contextPointer).release()
        requestSlot.pointee = nil
        let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
        server.requestCompleted()
        if let connection { server.connections.completed(key: connectionKey(connection)) }
    }

let accessHandlerCallback: MHD_AccessHandlerCallback = {
    serverPointer, connection, url, method, version, uploadData, uploadSize, requestSlot in
    guard let serverPointer, let connection, let url, let method, let uploadSize, let requestSlot else {
        return .NO
    }
    let server = Unmanaged<HTTPServer>.fromOpaque(serverPointer).takeUnretainedValue()
    let limits = server.configuration

    let context: RequestContext
    if let contextPointer = requestSlot.pointee {
        context = Unmanaged<RequestContext>.fromOpaque(contextPointer).takeUnretainedValue()
    } else {
        context = RequestContext()
        requestSlot.pointee = Unmanaged.passRetained(context).toOpaque()
        server.requestStarted()
    }

    // First call: headers are in. Answer on a later call (answering now makes libmicrohttpd close
    // keep-alive connections), except for a head refused outright: that connection must close anyway,
    // and a response cannot be queued once the upload has started.
    if !context.headSeen {
        context.headSeen = true
        server.connections.headReceived(key: connectionKey(connection))
        context.headWeight = strlen(method) + strlen(url) + context.rawQuery.utf8.count + 12
        collectHead(connection, into: context)
        let refusal: HTTPError?
        if let targetRefusal = context.targetRefusal {
            refusal = targetRefusal
        } else if context.headWeight > limits.maximumHeaderBytes {
            refusal = .headerFieldsTooLarge(limit: limits.maximumHeaderBytes)
        } else if let malformed = RequestHeadCheck.refusal(
            version: version.map { String(cString: $0) } ?? "", headers: context.headers,
            maximumBodyBytes: limits.maximumBodyBytes)
        {
            refusal = malformed
        } else {
            refusal = nil
        }
        if let refusal {
            context.responded = true
            let request = HTTPRequest(
                method: String(cString: method), path: String(cString: url), requestId: context.requestId)
            return queue(server.refuse(request, with: refusal, startedAt: context.startedAt), on: connection)
        }
        return .YES
    }
    if context.responded {
        uploadSize.pointee = 0
        return .YES
    }

    // Body chunks: accumulate within the limit. Past it (a chunked body has no declared length), the
    // rest is read and dropped, and the 413 goes out once the upload ends.
    if uploadSize.pointee > 0 {
        if !context.bodyTooLarge, let uploadData {
            if context.body.count + uploadSize.pointee > limits.maximumBodyBytes {
                context.bodyTooLarge = true
                context.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }

    server.connections.handling(key: connectionKey(connection))
    if let probe = server.livenessProbe, !context.bodyTooLarge, context.body.isEmpty, context.rawQuery.isEmpty,
        probe.matches(method: method, url: url)
    {
        context.responded = true
        server.metrics.recordProbe()
        return queue(probe.response(requestId: context.requestId), on: connection)
    }
    var request = HTTPRequest(
        method: String(cString: method), path: String(cString: url), headers: context.headers,
        body: context.body, requestId: context.requestId)
    context.headers = HTTPHeaders()
    context.body = []
    if !context.rawQuery.isEmpty { request.query = HTTPRequest.decodeQuery(context.rawQuery) }
    request.remoteAddress = ConnectionContext.of(connection)?.clientAddress ?? clientAddress(connection)
    let response: HTTPResponse
    if context.bodyTooLarge {
        response = server.refuse(
            request, with: .payloadTooLarge(limit: limits.maximumBodyBytes), startedAt: context.startedAt)
    } else {
        response = server.handle(request, startedAt: context.startedAt, headWeight: context.headWeight)
    }
    context.responded = true
    return queue(response, on: connection)
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    // `withCString` lends a native string's own bytes (a short one is copied to the stack); passing the
    // string as a pointer argument made a heap copy of each name and value.
    for (name, value) in response.headers {
        _ = name.withCString { name in value.withCString { MHD_add_response_header(mhdResponse, name, $0) } }
    }
    let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    MHD_destroy_response(mhdResponse)
    return result
}

/// What one header line weighs beyond its name and value: 4 bytes of separators and the library's
/// 64-byte record of it (a 56-byte `MHD_HTTP_Header` on 64-bit, rounded to the pool's 16-byte alignment).
private let headerLineOverhead = 4 + 64

/// Adds one head field, as the library parsed it, to the ``RequestContext`` passed as the closure
/// context, with its weight in the connection's pool: the `Name: value` line as sent (near enough: the
/// library does not keep the exact spacing) and the record the library keeps of it. With the request
/// line (see the access handler) that is the size weighed against the head limit, so a head within the
/// limit always fits the pool, however many fields it is split into.
private let collectField:
    @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) ->
        MHD_Result = { contextPointer, _, key, value in
            guard let contextPointer, let key else { return .YES }
            let context = Unmanaged<RequestContext>.fromOpaque(contextPointer).takeUnretainedValue()
            let name = String(cString: key)
            let text = value.map { String(cString: $0) } ?? ""
            context.headWeight += strlen(key) + (value.map { strlen($0) } ?? 0) + headerLineOverhead
            context.headers.add(name, text)
            return .YES
        }

/// Collects the head's fields once, in order, into `context`, adding their weight to its head weight.
private func collectHead(_ connection: OpaquePointer, into context: RequestContext) {
    context.headers.reserveCapacity(16)
    withExtendedLifetime(context) {
        _ = MHD_get_connection_values(
            connection, .HEADER_KIND, collectField, Unmanaged.passUnretained(context).toOpaque())
    }
}

private func clientAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard onramp_mhd_client_address(connection, &buffer, socklen_t(buffer.count)) == 0 else { return "" }
    return String(nulTerminated: buffer)
}

extension String {
    /// The UTF-8 text of a C buffer up to its first NUL.
    fileprivate init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
