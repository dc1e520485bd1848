import COpenSSL

/// An owned OpenSSL `X509`.
///
/// `@unchecked Sendable`: the certificate is never mutated after parsing; read-only OpenSSL calls on an
/// `X509` are safe from several threads.
final class X509Handle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }
}
