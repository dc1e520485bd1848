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
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
