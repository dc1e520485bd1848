/// The mobile-session contract the 2026 stripe-ios SDK sends on `GET /v1/elements/sessions` and checks in
/// the answer (`STPAPIClient+PaymentSheet.swift`, `validateMobileSessionContractResponse`;
/// `MobileSessionV1.swift` at 81349f47: major 1). The checks run in the SDK's order and fail with its
/// analytics codes, so a server this coordinator accepts is one the SDK accepts.
struct MobileSessionContractCheck: Sendable {
    /// The header's name, on the request and the answer.
    static let headerName = "Stripe-Mobile-Session-Contract"
    /// The SDK's `MobileSessionContractV1.contractMajor`.
    static let major = 1
    /// The SDK's `MobileSessionContractV1.contractRevision` at 81349f47 (servers may answer another).
    static let revision = "eae9b348c98cf67b"

    /// The request header's value.
    static var requestHeader: String { "major=\(major); revision=\(revision)" }

    /// Why an answer fails the contract: the SDK's `analyticsErrorCode`.
    enum Failure: String, Error {
        case missingResponseHeader = "missing_response_header"
        case malformedResponseHeader = "malformed_response_header"
        case missingPayload = "missing_payload"
        case decodeFailure = "decode_failure"
        case unsupportedContractMajor = "unsupported_contract_major"
        case invalidContractRevision = "invalid_contract_revision"
        case responseHeaderBodyMismatch = "response_header_body_mismatch"
    }

    /// Checks the answer's header (`nil` when absent) and body.
    static func validate(header: String?, body: JSONObject) throws(Failure) {
        guard let header else { throw .missingResponseHeader }
        let parts = header.components(separatedBy: "; ")
        guard parts.count == 2, parts[0].hasPrefix("major="), parts[1].hasPrefix("revision=") else {
            throw .malformedResponseHeader
        }
        let headerMajor = String(parts[0].dropFirst("major=".count))
        let headerRevision = String(parts[1].dropFirst("revision=".count))
        guard headerMajor == String(major), isRevision(headerRevision) else { throw .malformedResponseHeader }
        guard let element = body.object("mobile_payment_element") else { throw .missingPayload }
        guard let bodyMajor = element.int("contract.major"), let bodyRevision = element.string("contract.revision"),
            element.object("payment_method_availability") != nil
        else { throw .decodeFailure }
        guard bodyMajor == major else { throw .unsupportedContractMajor }
        guard isRevision(bodyRevision) else { throw .invalidContractRevision }
        guard String(bodyMajor) == headerMajor, bodyRevision == headerRevision else {
            throw .responseHeaderBodyMismatch
        }
    }

    /// Sixteen lowercase hex digits.
    private static func isRevision(_ text: String) -> Bool {
        text.utf8.count == 16
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
