import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
public enum SecureRandom {
    /// Returns `count` random bytes. Stops the process if the system generator fails, since no caller
    /// can continue safely without randomness.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "negative byte count")
        var output = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return output }
        let status = output.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(status == 1, "RAND_bytes failed")
        return output
    }
}
