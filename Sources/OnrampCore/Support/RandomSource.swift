#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A source of random bytes, injected so ids and secrets are reproducible in tests.
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// Cryptographically secure random bytes from the system: `arc4random_buf`, which is the kernel's
/// `getrandom` on Linux (glibc 2.36) and the system generator on Apple platforms. One call fills the
/// whole request (`SystemRandomNumberGenerator` made a system call per eight bytes).
public struct SystemRandomSource: RandomSource {
    /// Creates the system random source.
    public init() {}

    /// `count` secure random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            arc4random_buf(buffer.baseAddress!, count)
            initialized = count
        }
    }
}
