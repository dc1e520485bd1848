/// Request ids: `req_` followed by 16 random base62 characters.
public enum RequestId {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A fresh request id.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = Array("req_".utf8)
        for _ in 0..<16 { bytes.append(alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
