/// The limits a server keeps on its connections, enforced at the socket (see ``ConnectionGuard``).
public struct ConnectionLimits: Sendable, Equatable {
    /// The most open connections.
    public var total: Int
    /// The most open connections from one client address (an IPv6 client counts by its /64, which one
    /// subscriber usually holds whole); `nil` turns the cap off (behind a reverse proxy every client has
    /// the proxy's address).
    public var perAddress: Int?
    /// A new connection must deliver its complete request head within this many seconds, however
    /// often it trickles a byte.
    public var headSeconds: Double
    /// After a response, the next request head must be complete within this many seconds (idle
    /// keep-alive time included).
    public var keepAliveSeconds: Double
    /// Once the head is in, the body must be complete within this many seconds.
    public var bodySeconds: Double
    /// Room kept for new connections: once fewer than this many slots are free, each new connection
    /// closes the longest-waiting connection that has not sent a complete head (idle keep-alive
    /// connections first), so a flood of slow or idle sockets cannot lock fresh clients out.
    public var reserve: Int

    /// Creates limits; the reserve defaults to a sixteenth of the total, between 1 and 64.
    public init(
        total: Int, perAddress: Int? = 256, headSeconds: Double = 10, keepAliveSeconds: Double = 15,
        bodySeconds: Double = 30, reserve: Int? = nil
    ) {
        let reserve = reserve ?? min(64, max(1, total / 16))
        self.total = total
        self.perAddress = perAddress
        self.headSeconds = headSeconds
        self.keepAliveSeconds = keepAliveSeconds
        self.bodySeconds = bodySeconds
        self.reserve = min(reserve, max(total - 1, 0))
    }
}

/// Why a connection was refused or cut off; the label of the `/metrics` counter.
public enum ConnectionRefusal: String, Sendable, CaseIterable {
    /// Its address already has as many connections as allowed.
    case perAddress = "per_address"
    /// Every slot is taken by connections in a request.
    case total = "total"
    /// Closed to make room for a new connection while it waited for a head.
    case evicted = "evicted"
    /// Its request head did not arrive in time.
    case headTimeout = "head_timeout"
    /// Its request body did not arrive in time.
    case bodyTimeout = "body_timeout"
}

/// The bookkeeping behind ``ConnectionGuard``, without I/O: which connections are open, from which
/// address, in which phase, and when each must have made progress. Times are seconds on a monotonic
/// clock supplied by the caller.
struct ConnectionTable {
    /// Where a connection is in its current request.
    enum Phase: Equatable {
        /// Waiting for a complete request head (new, or idle after a response).
        case awaitingHead
        /// Head in, body arriving.
        case readingBody
        /// The handler runs or the response is being sent: no deadline (the library's idle timeout applies).
        case handling
        /// Shut down by us; the library has not reported it closed yet.
        case closing
    }

    /// One open connection. A class, changed in place under the guard's lock: a request moves its
    /// connection through three phases, and each move is one dictionary read (a `Dictionary` element
    /// changed through `entries[key]?.…` goes through nested `_modify` coroutines, which cost three heap
    /// allocations per move, nine per request, in the `/livez` allocation profile).
    final class Entry {
        let socket: Int32
        let address: String
        var phase: Phase
        /// When the current phase must be over (`nil` while handling).
        var deadline: Double?
        /// When the connection started waiting for its current head (eviction order).
        var waitingSince: Double
        /// Responses sent on this connection.
        var served = 0

        init(socket: Int32, address: String, phase: Phase, deadline: Double?, waitingSince: Double) {
            self.socket = socket
            self.address = address
            self.phase = phase
            self.deadline = deadline
            self.waitingSince = waitingSince
        }

        /// Enters `phase` unless the connection is being closed by us.
        func move(to phase: Phase, deadline: Double?) {
            guard self.phase != .closing else { return }
            self.phase = phase
            self.deadline = deadline
        }

        /// Marks the connection as being closed by us: no phase, no deadline.
        func markClosing() {
            phase = .closing
            deadline = nil
        }

        /// A response was sent: it waits for its next head from `now` until `deadline`.
        func finishRequest(now: Double, deadline: Double) {
            guard phase != .closing else { return }
            served += 1
            waitingSince = now
            phase = .awaitingHead
            self.deadline = deadline
        }
    }

    /// What to do with a connection being accepted.
    enum Admission: Equatable {
        case admit
        /// Admit it after shutting down `socket` (the longest-waiting connection, from `address`).
        case admitEvicting(key: UInt, socket: Int32, address: String)
        case refuse(ConnectionRefusal)
    }

    let limits: ConnectionLimits
    private(set) var entries: [UInt: Entry] = [:]
    private(set) var countsByAddress: [String: Int] = [:]
    /// Connections not yet being closed by us.
    private(set) var live = 0

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Decides on a connection from `address` about to be accepted.
    mutating func admit(address: String) -> Admission {
        if let cap = limits.perAddress, !address.isEmpty, countsByAddress[address, default: 0] >= cap {
            return .refuse(.perAddress)
        }
        guard live >= limits.total - limits.reserve else { return .admit }
        if let (key, entry) = evictionCandidate() {
            entry.markClosing()
            live -= 1
            return .admitEvicting(key: key, socket: entry.socket, address: entry.address)
        }
        return live >= limits.total ? .refuse(.total) : .admit
    }

    /// The longest-waiting connection without a complete head: idle keep-alive ones (which have been
    /// served) before new ones.
    private func evictionCandidate() -> (UInt, Entry)? {
        var best: (UInt, Entry)?
        for (key, entry) in entries where entry.phase == .awaitingHead {
            guard let current = best?.1 else {
                best = (key, entry)
                continue
            }
            let idle = entry.served > 0
            let currentIdle = current.served > 0
            if (idle && !currentIdle) || (idle == currentIdle && entry.waitingSince < current.waitingSince) {
                best = (key, entry)
            }
        }
        return best
    }

    /// A connection the library has set up.
    mutating func opened(key: UInt, socket: Int32, address: String, now: Double) {
        entries[key] = Entry(
            socket: socket, address: address, phase: .awaitingHead, deadline: now + limits.headSeconds,
            waitingSince: now)
        countsByAddress[address, default: 0] += 1
        live += 1
    }

    /// A connection the library has closed (by anyone); returns whether it was in the table.
    @discardableResult
    mutating func closed(key: UInt) -> Bool {
        guard let entry = entries.removeValue(forKey: key) else { return false }
        if entry.phase != .closing { live -= 1 }
        let remaining = countsByAddress[entry.address, default: 1] - 1
        countsByAddress[entry.address] = remaining > 0 ? remaining : nil
        return true
    }

    /// The request head is in: the body's deadline starts.
    func headReceived(key: UInt, now: Double) {
        transition(key, to: .readingBody, deadline: now + limits.bodySeconds)
    }

    /// The request is complete and being handled.
    func handling(key: UInt) {
        transition(key, to: .handling, deadline: nil)
    }

    /// The response was sent: the connection waits for its next head.
    func completed(key: UInt, now: Double) {
        let deadline = now + limits.keepAliveSeconds
        entries[key]?.finishRequest(now: now, deadline: deadline)
    }

    /// Moves an open connection to `phase` in one lookup, its entry changed in place.
    private func transition(_ key: UInt, to phase: Phase, deadline: Double?) {
        entries[key]?.move(to: phase, deadline: deadline)
    }

    /// Marks every connection waiting for a head (idle keep-alive, or a head still arriving) as closing
    /// and returns their sockets: at shutdown they would otherwise hold it up until their deadlines.
    mutating func closeWaiting() -> [Int32] {
        var sockets: [Int32] = []
        for entry in entries.values where entry.phase == .awaitingHead {
            entry.markClosing()
            live -= 1
            sockets.append(entry.socket)
        }
        return sockets
    }

    /// Marks every connection past its deadline as closing and returns them with the reason (an idle
    /// keep-alive connection running out is no refusal: its reason is `nil`).
    mutating func expire(now: Double) -> [(socket: Int32, address: String, reason: ConnectionRefusal?)] {
        var expired: [(Int32, String, ConnectionRefusal?)] = []
        for entry in entries.values {
            guard let deadline = entry.deadline, deadline <= now, entry.phase != .closing else { continue }
            let reason: ConnectionRefusal? =
                switch entry.phase {
                case .readingBody: .bodyTimeout
                case .awaitingHead where entry.served == 0: .headTimeout
                default: nil
                }
            entry.markClosing()
            live -= 1
            expired.append((entry.socket, entry.address, reason))
        }
        return expired
    }
}
