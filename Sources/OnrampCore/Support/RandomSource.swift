/// A source of random bytes, injected so ids and secrets are reproducible in tests.
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// Cryptographically secure random bytes from `SystemRandomNumberGenerator` (getrandom on Linux,
/// arc4random on Apple platforms).
public struct SystemRandomSource: RandomSource {
    /// Creates the system random source.
    public init() {}

    /// `count` secure random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        // Eight bytes per call: each `next()` is a system call on Linux.
        var generator = SystemRandomNumberGenerator()
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            let word = generator.next()
            withUnsafeBytes(of: word) { result.append(contentsOf: $0.prefix(count - result.count)) }
        }
        return result
    }
}
