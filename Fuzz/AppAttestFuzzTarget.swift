/// libFuzzer entry point for the App Attest parsers (built by `scripts/fuzz-appattest.sh` together with the
/// CBOR reader and object parsers from `Sources/AppAttest`). Any crash, trap or sanitizer report is a bug;
/// decoding errors are expected.
@_cdecl("LLVMFuzzerTestOneInput")
public func appAttestFuzzTarget(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    if let value = try? CBORReader.decode(bytes) {
        // Whatever decodes must re-encode to a stable form that decodes again.
        let encoded = CBORWriter.encode(value)
        guard let again = try? CBORReader.decode(encoded) else { fatalError("re-encoded value does not decode") }
        if CBORWriter.encode(again) != encoded { fatalError("encoding is not stable") }
    }
    _ = try? AttestationObject(bytes)
    _ = try? AssertionObject(bytes)
    _ = try? AuthenticatorData(bytes, attestation: true)
    _ = try? AuthenticatorData(bytes, attestation: false)
    _ = AppAttestNonceExtension.decode(bytes)
    return 0
}
