import OnrampPlatform

/// The connection pools whose connections the current thread holds, in a thread-specific slot: a
/// pool refuses a thread a second connection (see ``ConnectionPool/withConnection(_:)``). Cheaper than
/// Foundation's thread dictionary, which hashed a string key three times per borrowing.
final class HeldPools {
    /// Usually empty or one pool.
    private var pools: [ObjectIdentifier] = []

    private init() {}

    /// The current thread's set, created on first use and released when the thread ends.
    static func ofCurrentThread() -> HeldPools {
        if let held = slot.current { return held }
        let held = HeldPools()
        slot.set(held)
        return held
    }

    func contains(_ pool: ObjectIdentifier) -> Bool { pools.contains(pool) }

    func insert(_ pool: ObjectIdentifier) { pools.append(pool) }

    func remove(_ pool: ObjectIdentifier) { pools.removeAll { $0 == pool } }

    private static let slot = ThreadSlot<HeldPools>(owning: true)
}
