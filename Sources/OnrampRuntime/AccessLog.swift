import Foundation
import Synchronization

/// Structured log lines (logfmt), one per request and one per notable server event. Lines are
/// buffered and written by a background flusher so that logging does not cost a system call per
/// request. Bodies, headers and secrets are never logged.
public final class AccessLog: Sendable {
    /// Where flushed bytes go.
    public typealias Sink = @Sendable ([UInt8]) -> Void

    /// The process-wide log, writing to standard error.
    public static let shared = AccessLog()

    private struct State {
        var buffer: [UInt8] = []
        var sink: Sink = { bytes in FileHandle.standardError.write(Data(bytes)) }
        var enabled = true
        var flusherStarted = false
    }

    private let state = Locked(State())
    /// `State.enabled` as an atomic, read without the lock by every request (see ``isEnabled``).
    private let enabled = Atomic<Bool>(true)
    /// Held while a flush hands its bytes to the sink, so flushes deliver in order and none returns early.
    private let flushing = Locked(())

    /// Creates a log (use ``shared`` in the server).
    public init() {}

    /// Sends future lines to `sink` (tests capture lines this way) and enables or disables logging.
    public func configure(enabled: Bool = true, sink: Sink? = nil) {
        flush()
        state.withLock {
            $0.enabled = enabled
            self.enabled.store(enabled, ordering: .relaxed)
            if let sink { $0.sink = sink }
        }
    }

    /// Logs one request; a refused one with its error code.
    public func request(
        method: String, route: String, status: Int, durationSeconds: Double, requestId: String,
        errorCode: String? = nil
    ) {
        guard isEnabled else { return }
        let millis = (durationSeconds * 1_000_000).rounded() / 1000
        // Codes are the families' fixed words; anything else is dropped so a line can never be split or forged.
        let code =
            errorCode.map { " error_code=\(String($0.unicodeScalars.filter(Self.isCodeCharacter).prefix(64)))" } ?? ""
        write(
            "level=info msg=request method=\(method) route=\(route) status=\(status) duration_ms=\(millis) request_id=\(requestId)\(code)"
        )
    }

    private static func isCodeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar))
    }

    /// Logs an informational event.
    public func info(_ message: String) {
        write("level=info msg=\"\(message.replacingOccurrences(of: "\"", with: "'"))\"")
    }

    /// Logs a warning (something refused that an operator may want to know about).
    public func warning(_ message: String) {
        write("level=warn msg=\"\(message.replacingOccurrences(of: "\"", with: "'"))\"")
    }

    /// Logs an error event.
    public func error(_ message: String) {
        write("level=error msg=\"\(message.replacingOccurrences(of: "\"", with: "'"))\"")
    }

    /// Whether lines are being written (callers skip formatting when not).
    public var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    private func write(_ fields: @autoclosure () -> String) {
        guard isEnabled else { return }
        let millis = Int64(Date().timeIntervalSince1970 * 1000)
        let fraction = String(millis % 1000)
        let line = "ts=\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) \(fields())\n"
        let shouldFlushNow = state.withLock { state -> Bool in
            guard state.enabled else { return false }
            state.buffer.append(contentsOf: line.utf8)
            if !state.flusherStarted {
                state.flusherStarted = true
                startFlusher()
            }
            return state.buffer.count >= 32 * 1024
        }
        if shouldFlushNow { flush() }
    }

    /// Writes everything buffered so far; when it returns, every line logged before the call has reached
    /// the sink (a flush racing the background flusher waits for the bytes that one took).
    public func flush() {
        flushing.withLock { _ in
            let (bytes, sink) = state.withLock { state -> ([UInt8], Sink) in
                defer { state.buffer.removeAll(keepingCapacity: true) }
                return (state.buffer, state.sink)
            }
            if !bytes.isEmpty { sink(bytes) }
        }
    }

    private func startFlusher() {
        let thread = Thread { [weak self] in
            while let log = self {
                log.flush()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.name = "access-log-flusher"
        thread.start()
    }
}
