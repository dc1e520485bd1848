import Foundation

/// Deterministic pseudo-random bytes (SplitMix64) from a seed. Not secure: for tests and simulations.
public final class SeededRandomSource: RandomSource, @unchecked Sendable {
    // Safe to share: every access to `state` holds `lock`.
    private let lock = NSLock()
    private var state: UInt64

    /// Creates a source that yields the same sequence for the same seed.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next `count` bytes of the sequence.
    public func bytes(_ count: Int) -> [UInt8] {
        lock.withLock {
            var result: [UInt8] = []
            result.reserveCapacity(count)
            while result.count < count {
                state &+= 0x9e37_79b9_7f4a_7c15
                var mixed = state
                mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
                mixed ^= mixed >> 31
                for shift in stride(from: 0, to: 64, by: 8) where result.count < count {
                    result.append(UInt8(truncatingIfNeeded: mixed >> UInt64(shift)))
                }
            }
            return result
        }
    }
}
