import AppAttest
import HTTPServer

/// The seed's two App Attest refusals (its error table: 400 `invalid_request`), each carrying the
/// verifier's failure code as the error's reason (`errorReason` on the wire), so the client SDK
/// branches on it rather than on the message.
extension HTTPError {
    /// "Registration attestation failed": create a new registration challenge, then a new key.
    static func registrationAttestationFailed(_ reason: String) -> HTTPError {
        HTTPError(
            status: 400, code: "invalid_request",
            message: "Registration attestation failed (\(reason)). Create a new registration challenge.",
            reason: reason)
    }

    /// "Purchase assertion failed": create a new purchase challenge; re-register only after repeated failures.
    static func purchaseAssertionFailed(_ reason: String) -> HTTPError {
        HTTPError(
            status: 400, code: "invalid_request",
            message: "Purchase assertion failed (\(reason)). Create a new purchase challenge.", reason: reason)
    }
}
