import OnrampPlatform
import OnrampRuntime
import OnrampStore
import Synchronization

/// Callers looked up by their credential, kept in memory between requests: API keys (a Stripe key with its
/// project's test-clock offset, a CDP key with its parsed public key), OAuth access tokens and test-clock
/// offsets. What is cached is what the database said; whether it still lets the caller in is decided on
/// every request as before (a disabled key, a revoked or expired token is refused).
///
/// A change to those tables — a key disabled or deleted, a token family revoked, a test clock moved — takes
/// effect at once on the instance that made it (its service calls ``invalidate()`` after the commit) and
/// within ``lifetimeMilliseconds`` on every other: on PostgreSQL the tables' triggers `NOTIFY`
/// ``channel`` and each instance's listener (``listen(on:database:)``) empties its cache, so an entry lives
/// until a change; without a listener (SQLite, or while PostgreSQL's is down) an entry is used for
/// ``lifetimeMilliseconds`` after its read began and then read again. Ordinary writes never invalidate.
package final class CallerCache: Sendable {
    /// The PostgreSQL channel a change to keys, tokens or test clocks notifies.
    package static let channel = "onramp_callers"
    /// How long an entry is trusted without a listener: the bound on how late another instance sees a change.
    package static let lifetimeMilliseconds: Int64 = 500
    /// The most entries kept; a full cache starts again empty.
    package static let maximumEntries = 10_000

    /// What a cached value is: keys of different kinds never meet.
    package enum Kind: Sendable, Hashable {
        case stripeKey, cdpKey, accessToken, clockOffset
    }

    /// An entry's place: its kind and the key it was read by (no string is built per lookup).
    private struct Name: Hashable {
        let kind: Kind
        let key: String
    }

    private struct Entry {
        let value: any Sendable
        let readAt: Int64
    }

    private struct State {
        var entries: [Name: Entry] = [:]
        /// Counts the emptyings, so a read that began before one is not stored after it.
        var epoch: UInt64 = 0
    }

    /// What a read must show to be stored: the epoch and time it began at.
    package struct Ticket: Sendable {
        fileprivate let epoch: UInt64
        fileprivate let readAt: Int64
    }

    private let state = Mutex(State())
    /// Whether a listener is up, so entries live until a notification.
    private let notified = Atomic<Bool>(false)
    private let now: @Sendable () -> Int64

    /// An empty cache; `now` reads a monotonic clock in milliseconds (a test may drive it).
    package init(now: @escaping @Sendable () -> Int64 = { Int64(CoarseClock.seconds() * 1000) }) {
        self.now = now
    }

    /// The value cached under `kind` and `key` while it may be trusted; nil when absent, stale or of another type.
    package func value<T: Sendable>(_ kind: Kind, _ key: String, as type: T.Type = T.self) -> T? {
        let name = Name(kind: kind, key: key)
        let trusted = notified.load(ordering: .acquiring)
        let entry = state.withLock { $0.entries[name] }
        guard let entry, trusted || now() - entry.readAt < Self.lifetimeMilliseconds else { return nil }
        return entry.value as? T
    }

    /// Taken before a read whose result is to be stored.
    package func ticket() -> Ticket {
        Ticket(epoch: state.withLock { $0.epoch }, readAt: now())
    }

    /// Stores `value`, read after `ticket` was taken, unless the cache was emptied since.
    package func store(_ value: some Sendable, _ kind: Kind, _ key: String, after ticket: Ticket) {
        state.withLock { state in
            guard state.epoch == ticket.epoch else { return }
            if state.entries.count >= Self.maximumEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[Name(kind: kind, key: key)] = Entry(value: value, readAt: ticket.readAt)
        }
    }

    /// The value under `kind` and `key`, read by `load` when not cached (and stored when found).
    package func value<T: Sendable>(_ kind: Kind, _ key: String, load: () throws -> T?) rethrows -> T? {
        if let cached = value(kind, key, as: T.self) { return cached }
        let ticket = ticket()
        guard let loaded = try load() else { return nil }
        store(loaded, kind, key, after: ticket)
        return loaded
    }

    /// How many entries are kept, fresh or not.
    package var entryCount: Int { state.withLock { $0.entries.count } }

    /// Empties the cache: a key, token or clock changed.
    package func invalidate() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.epoch &+= 1
        }
    }

    /// On PostgreSQL, listens on ``channel`` on a thread of `workers` and empties the cache on each
    /// notification (and every few seconds besides); entries then live until a change. Nothing on SQLite.
    package func listen(on workers: BackgroundWorkers, database: any Database) {
        guard let watcher = database.notificationWatcher(channel: Self.channel) else { return }
        workers.start(name: "caller cache", interval: 5, watcher: watcher, spacing: 0.001) { [self] in
            // A notification, a reconnected listener (which may have missed some) or the interval: empty it,
            // then trust entries past their lifetime only while the listener is up (emptied first, so no entry
            // read before the listener heard everything is trusted).
            invalidate()
            notified.store(watcher.descriptor >= 0, ordering: .releasing)
        }
    }
}
