import Synchronization

/// Request ids: `req_`, then 8 base62 characters drawn once per process, then a base62 counter.
/// Unique within a process and unlikely to repeat across processes; they identify requests in logs,
/// they are not secrets, so no system call per request is spent on randomness.
public enum RequestId {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let prefix: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return Array("req_".utf8)
            + (0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] }
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A fresh request id (one allocation: the string's own).
    public static func make() -> String {
        var value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var digitCount = 1
        var rest = value / 62
        while rest > 0 {
            digitCount += 1
            rest /= 62
        }
        digitCount = Swift.max(8, digitCount)
        return String(unsafeUninitializedCapacity: prefix.count + digitCount) { buffer in
            for (index, byte) in prefix.enumerated() { buffer[index] = byte }
            for index in (prefix.count..<(prefix.count + digitCount)).reversed() {
                buffer[index] = alphabet[Int(value % 62)]
                value /= 62
            }
            return prefix.count + digitCount
        }
    }
}
