import Foundation
import OnrampPlatform
import OnrampRuntime
import Synchronization

/// Connection defence below HTTP, for what libmicrohttpd does not do itself: a per-address cap, a
/// total cap with room kept for new clients (the longest-waiting idle or slow connections are closed
/// to admit them), and deadlines for the complete request head and body that a slow sender cannot
/// stretch by trickling bytes. A connection is cut off with `shutdown(2)` on its socket, which the
/// library notices at once and cleans up; the socket is only touched while the library still owns it
/// (it reports a connection closed before closing its socket, under the same lock this type holds).
/// Every refusal is counted in ``Metrics`` and logged at most once per address per minute.
final class ConnectionGuard: Sendable {
    private let table: Locked<ConnectionTable>
    private let metrics: Metrics
    private let log: AccessLog
    private let refusalLog = Locked(RefusalLogThrottle())
    private let stopped = Atomic<Bool>(false)
    private let origin = CoarseClock.seconds()

    init(limits: ConnectionLimits, metrics: Metrics, log: AccessLog) {
        table = Locked(ConnectionTable(limits: limits))
        self.metrics = metrics
        self.log = log
    }

    /// The limits in force.
    var limits: ConnectionLimits { table.withLock { $0.limits } }

    /// Open connections, as the library reports them.
    var openConnections: Int { table.withLock { $0.entries.count } }

    /// Seconds since this guard was made, on the monotonic clock.
    /// (``CoarseClock``: a request reads it twice, and deadlines of seconds need no finer clock.)
    var now: Double { CoarseClock.seconds() - origin }

    /// Decides on a connection the library has just set up, from `address` (empty: never capped per
    /// address), and records it when admitted. A refused one is shut down at once, and so is the
    /// connection evicted to make room for an admitted one. Called on the connection's own worker
    /// thread, while the library owns its socket, so admission and counting are one step under the lock:
    /// a burst of connections cannot all be admitted before any of them is counted.
    func open(key: UInt, socket: Int32, address: String) {
        let now = self.now
        let decision = table.withLock { table -> ConnectionTable.Admission in
            let decision = table.admit(address: address)
            switch decision {
            case .admit:
                table.opened(key: key, socket: socket, address: address, now: now)
            case .admitEvicting(_, let evicted, _):
                _ = shutdown(evicted, Int32(SHUT_RDWR))
                table.opened(key: key, socket: socket, address: address, now: now)
            case .refuse:
                break
            }
            return decision
        }
        switch decision {
        case .admit:
            metrics.recordOpenConnections(1)
        case .admitEvicting(_, _, let evicted):
            metrics.recordOpenConnections(1)
            refused(address: evicted, reason: .evicted)
        case .refuse(let reason):
            // Counted before the client can see its connection end.
            refused(address: address, reason: reason)
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    /// A connection the library closed (a refused one was never counted).
    func closed(key: UInt) {
        if table.withLock({ $0.closed(key: key) }) { metrics.recordOpenConnections(-1) }
    }

    func headReceived(key: UInt) {
        let now = self.now
        table.withLock { $0.headReceived(key: key, now: now) }
    }

    func handling(key: UInt) {
        table.withLock { $0.handling(key: key) }
    }

    func completed(key: UInt) {
        let now = self.now
        table.withLock { $0.completed(key: key, now: now) }
    }

    /// Cuts off the connections past their deadlines; returns how many.
    @discardableResult
    func reap() -> Int {
        let now = self.now
        let expired = table.withLock { table in
            let expired = table.expire(now: now)
            for connection in expired { _ = shutdown(connection.socket, Int32(SHUT_RDWR)) }
            return expired
        }
        for connection in expired {
            if let reason = connection.reason { refused(address: connection.address, reason: reason) }
        }
        return expired.count
    }

    /// Runs ``reap()`` every `interval` seconds on a thread of its own until ``stop()``.
    func startReaper(interval: Double = 0.25) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                reap()
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "connection-reaper"
        thread.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    /// Cuts off every connection waiting for a head, so that a shutdown waits only for requests in flight.
    func closeWaiting() {
        table.withLock { table in
            for socket in table.closeWaiting() { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func refused(address: String, reason: ConnectionRefusal) {
        metrics.recordConnectionRefusal(reason)
        let now = self.now
        let (logThis, suppressed) = refusalLog.withLock { $0.decide(address: address, now: now) }
        if suppressed > 0 {
            log.warning("\(suppressed) further connection refusals were not logged in the last minute")
        }
        if logThis {
            log.warning(
                "connection refused reason=\(reason.rawValue) address=\(address) (further ones logged after 60 s)")
        }
    }
}

/// Lets one refusal line per address through per interval, and at most ``maximumLinesPerInterval``
/// in all (a flood from ever new addresses must not flood the log): the rest are counted and reported in
/// one line when the next interval starts. Forgets the addresses when it has seen too many.
struct RefusalLogThrottle {
    private var lastLogged: [String: Double] = [:]
    private var intervalStart: Double?
    private var linesThisInterval = 0
    private var suppressed = 0
    let interval: Double = 60
    let maximumAddresses = 10_000
    let maximumLinesPerInterval = 100

    /// Whether to log a refusal from `address` now, and how many refusals went unlogged in the interval
    /// that just ended (to report once).
    mutating func decide(address: String, now: Double) -> (log: Bool, suppressedBefore: Int) {
        var report = 0
        if intervalStart.map({ now - $0 >= interval }) ?? true {
            report = suppressed
            suppressed = 0
            linesThisInterval = 0
            intervalStart = now
        }
        if let last = lastLogged[address], now - last < interval { return (false, report) }
        guard linesThisInterval < maximumLinesPerInterval else {
            suppressed += 1
            return (false, report)
        }
        if lastLogged.count >= maximumAddresses { lastLogged.removeAll(keepingCapacity: true) }
        lastLogged[address] = now
        linesThisInterval += 1
        return (true, report)
    }
}
