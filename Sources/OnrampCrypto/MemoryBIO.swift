import COpenSSL

/// An owned OpenSSL memory `BIO`, used to move PEM and DER through OpenSSL's encoders and decoders.
final class MemoryBIO {
    let pointer: OpaquePointer
    private let input: [UInt8]?

    /// An empty, writable memory BIO.
    init() throws {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError(code: .internalFailure, message: "BIO_new") }
        pointer = bio
        input = nil
    }

    /// A read-only memory BIO over a copy of `bytes`.
    init(reading bytes: [UInt8]) throws {
        let copy = bytes.isEmpty ? [0] : bytes
        let bio = copy.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32(bytes.count)) }
        guard let bio else { throw CryptoError(code: .internalFailure, message: "BIO_new_mem_buf") }
        pointer = bio
        input = copy
    }

    deinit { BIO_free(pointer) }

    /// Everything written to the BIO so far.
    func readAll() -> [UInt8] {
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { BIO_read(pointer, $0.baseAddress, Int32($0.count)) }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<Int(count)])
        }
        return output
    }

    /// Everything written to the BIO so far, as text.
    func readString() -> String {
        String(decoding: readAll(), as: UTF8.self)
    }
}

/// A PEM password callback that refuses, so that OpenSSL never prompts on a terminal for an encrypted key.
func refusePEMPassword(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    0
}
