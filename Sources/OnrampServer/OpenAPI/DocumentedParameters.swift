import HTTPServer
import OnrampServices
import OnrampWire

/// The top-level body parameters an operation documents, so the Stripe edge can refuse any other one as
/// Stripe does (`parameter_unknown`, "Received unknown parameter: …") instead of ignoring a typo.
struct DocumentedParameters: Sendable {
    /// Sent by Stripe's SDKs with many calls and meaningless here: `expand` lists, the SDK's
    /// `request_surface`, and StripeCore's attribution and telemetry fields (`STPTelemetryClient`).
    static let common: Set<String> = [
        "expand", "request_surface", "payment_user_agent", "client_attribution_metadata", "muid", "guid", "sid",
        "referrer",
    ]

    /// The names, or `nil` when the operation documents no body (nothing is checked).
    let names: Set<String>?

    init(_ operation: APIOperation?) {
        guard let schema = operation?.body?.schema.json else {
            names = nil
            return
        }
        let alternatives = schema["anyOf"]?.arrayValue ?? [schema]
        names = Set(alternatives.flatMap { $0["properties"]?.objectValue?.map(\.0) ?? [] }).union(Self.common)
    }

    /// The first top-level member of `body` that is not documented.
    func unknown(in body: JSONValue) -> String? {
        guard let names, case .object(let members) = body else { return nil }
        return members.first { !names.contains($0.0) }?.0
    }
}
