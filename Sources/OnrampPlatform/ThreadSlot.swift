#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread-specific slot (`pthread_key_t`) holding an object per thread. Cheaper than Foundation's
/// thread dictionary or a task-local: a read is one `pthread_getspecific`. The slot itself is made once
/// and never freed, so keep it in a `static let`.
///
/// The destructor's C signature differs between glibc (an optional pointer) and Darwin, which is why
/// this is a platform file.
public struct ThreadSlot<Object: AnyObject>: @unchecked Sendable {
    // A `pthread_key_t` is an index; every thread reads and writes only its own value behind it.
    private let key: pthread_key_t
    private let owning: Bool

    /// A new slot. An `owning` slot keeps a strong reference to what a thread puts in it and gives it up
    /// when the thread ends (put something in at most once per thread); otherwise it holds objects
    /// unretained, and whoever puts one in keeps it alive while it is there.
    public init(owning: Bool) {
        var key = pthread_key_t()
        let status: Int32
        if owning {
            #if canImport(Glibc)
                status = pthread_key_create(&key) { pointer in
                    if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
                }
            #else
                status = pthread_key_create(&key) { Unmanaged<AnyObject>.fromOpaque($0).release() }
            #endif
        } else {
            status = pthread_key_create(&key, nil)
        }
        precondition(status == 0, "no thread-specific key left")
        self.key = key
        self.owning = owning
    }

    /// What this thread holds in the slot.
    public var current: Object? {
        pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Puts `object` in this thread's slot (retained if the slot is owning).
    public func set(_ object: Object?) {
        let pointer = object.map {
            owning ? Unmanaged.passRetained($0).toOpaque() : Unmanaged.passUnretained($0).toOpaque()
        }
        pthread_setspecific(key, pointer)
    }
}
