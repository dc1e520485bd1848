import HTTPServer
import OnrampServices
import OnrampWire

/// The mobile-session contract of `GET /v1/elements/sessions`, as the 2026 stripe-ios SDK checks it
/// (`StripePaymentSheet/…/API Bindings/STPAPIClient+PaymentSheet.swift`, the version that defines
/// `validateMobileSessionContractResponse`; `v1-elements-sessions/MobileSessionV1.swift` at 81349f47): the
/// request carries `Stripe-Mobile-Session-Contract: major=<M>; revision=<R>`, and the answer must carry the
/// same header form with the major the SDK sent and a 16-hex revision, and a `mobile_payment_element` whose
/// `contract` repeats the header. The SDK accepts any revision (its test
/// `…AcceptsDiagnosticRevisionDrift`); only the major must equal its own.
struct MobileSessionContract: Equatable, Sendable {
    /// The header's name, on the request and on the answer.
    static let headerName = "Stripe-Mobile-Session-Contract"
    /// The majors the sandbox serves (`MobileSessionContractV1.contractMajor` is 1 in every version read).
    static let supportedMajors: ClosedRange<Int> = 1...1
    /// The revision of our contract: fixed, so header and body always agree.
    static let ourRevision = "6f6e72616d706b31"
    /// What an SDK that sends no header (before the contract) is answered with; it ignores both additions.
    static let unrequested = MobileSessionContract(major: 1, revision: ourRevision)

    let major: Int
    let revision: String

    /// `major=<M>; revision=<R>` as the SDK writes and parses it.
    var headerValue: String { "major=\(major); revision=\(revision)" }

    /// The contract that answers a request carrying `header` (nil: the pre-contract SDK). A header that is
    /// not the SDK's form, or names a major we do not serve, is refused in Stripe's error shape, which the
    /// SDK reports as `request_failed` rather than decoding a contract it cannot read.
    static func answering(_ header: String?) throws -> MobileSessionContract {
        guard let header else { return unrequested }
        guard let requested = MobileSessionContract(header: header) else {
            throw StripeErrors.invalid(
                "parameter_invalid", "\(headerName) must be `major=<integer>; revision=<16 lowercase hex>`.")
        }
        guard supportedMajors.contains(requested.major) else {
            throw StripeErrors.invalid(
                "mobile_session_contract_unsupported",
                "Mobile session contract major \(requested.major) is not served; this server speaks major "
                    + "\(supportedMajors.lowerBound) to \(supportedMajors.upperBound).")
        }
        return MobileSessionContract(major: requested.major, revision: ourRevision)
    }

    init(major: Int, revision: String) {
        self.major = major
        self.revision = revision
    }

    /// Parses the header as the SDK's validator does: exactly two parts split on `"; "`, `major=` a decimal
    /// integer without sign or leading zero, `revision=` 16 lowercase hex digits.
    init?(header: String) {
        let parts = header.split(separator: "; ", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("major="), parts[1].hasPrefix("revision=") else { return nil }
        let majorText = parts[0].dropFirst("major=".count)
        let revision = parts[1].dropFirst("revision=".count)
        guard (1...9).contains(majorText.count), majorText.allSatisfy({ $0.isASCII && $0.isNumber }),
            majorText.first != "0" || majorText == "0", let major = Int(majorText),
            revision.count == 16, revision.allSatisfy({ $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) })
        else { return nil }
        self.init(major: major, revision: String(revision))
    }

    /// The `mobile_payment_element` member (`MobilePaymentElementV1`): the contract, which of `types` are
    /// available (all of them here), the feature flags at the SDK's defaults, the display names of the
    /// types, and no form specs (the crypto flow collects its methods through Link).
    func paymentElement(types: [String]) -> JSONValue {
        let names = ["card": "Card", "link": "Link", "us_bank_account": "US bank account"]
        return [
            "contract": ["major": .integer(major), "revision": .string(revision)],
            "payment_method_availability": [
                "entries": .array(
                    types.map { ["payment_method_type": .string($0), "available": true, "reason": .null] })
            ],
            "features": [
                "financial_connections_lite": "automatic", "link_global_holdback_lookup": true,
                "force_vertical_payment_method_layout": false, "card_funding_filtering": false,
            ],
            "assets": [
                "payment_methods": .array(
                    types.map {
                        ["payment_method_type": .string($0), "locale": "en", "display_name": .string(names[$0] ?? $0)]
                    })
            ],
            "form_specs": [],
        ]
    }

    /// ``paymentElement(types:)`` as a JSON Schema: what `MobilePaymentElementV1`'s generated decoder requires.
    static let paymentElementSchema = APISchema.object(
        [
            "contract": .object(
                ["major": .integer, "revision": .string(pattern: "^[0-9a-f]{16}$")], required: ["major", "revision"]),
            "payment_method_availability": .object(
                [
                    "entries": .array(
                        .object(
                            [
                                "payment_method_type": .string, "available": .boolean,
                                "reason": APISchema.string.nullable,
                            ], required: ["payment_method_type", "available"]))
                ], required: ["entries"]),
            "features": .object([
                "financial_connections_lite": .string, "link_global_holdback_lookup": .boolean,
                "force_vertical_payment_method_layout": .boolean, "card_funding_filtering": .boolean,
            ]),
            "assets": .object([
                "payment_methods": .array(
                    .object(
                        ["payment_method_type": .string, "locale": .string, "display_name": .string],
                        required: ["payment_method_type", "display_name"]))
            ]),
            "form_specs": .array(.anyObject),
        ], required: ["contract", "payment_method_availability"])
}
