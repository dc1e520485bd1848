#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection pools whose connections the current thread holds, in a thread-specific slot: a
/// pool refuses a thread a second connection (see ``ConnectionPool/withConnection(_:)``). Cheaper than
/// Foundation's thread dictionary, which hashed a string key three times per borrowing.
final class HeldPools {
    /// Usually empty or one pool.
    private var pools: [ObjectIdentifier] = []

    private init() {}

    /// The current thread's set, created on first use and released when the thread ends.
    static func ofCurrentThread() -> HeldPools {
        if let pointer = pthread_getspecific(slot) {
            return Unmanaged<HeldPools>.fromOpaque(pointer).takeUnretainedValue()
        }
        let held = HeldPools()
        pthread_setspecific(slot, Unmanaged.passRetained(held).toOpaque())
        return held
    }

    func contains(_ pool: ObjectIdentifier) -> Bool { pools.contains(pool) }

    func insert(_ pool: ObjectIdentifier) { pools.append(pool) }

    func remove(_ pool: ObjectIdentifier) { pools.removeAll { $0 == pool } }

    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
            pthread_key_create(&key) { pointer in
                if let pointer { Unmanaged<HeldPools>.fromOpaque(pointer).release() }
            }
        #else
            pthread_key_create(&key) { Unmanaged<HeldPools>.fromOpaque($0).release() }
        #endif
        return key
    }()
}
