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

    /// A fresh request id.
    public static func make() -> String {
        var value = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var digits: [UInt8] = []
        digits.reserveCapacity(8)
        repeat {
            digits.append(alphabet[Int(value % 62)])
            value /= 62
        } while value > 0
        while digits.count < 8 { digits.append(alphabet[0]) }
        return String(decoding: prefix + digits.reversed(), as: UTF8.self)
    }
}
