import HTTPServer
import OnrampServices
import OnrampWire

/// The aggregator header `X-Onramp-Partner-Id` at the edge: read from a request and described for the
/// operations that take it.
extension EndPartnerRepository {
    /// The request's `X-Onramp-Partner-Id` (1 to 128 visible characters), if sent.
    static func requested(in request: HTTPRequest) throws(FieldError) -> String? {
        try HeaderText.checked(request.headers["X-Onramp-Partner-Id"], name: "X-Onramp-Partner-Id")
    }

    /// The header's OpenAPI description, for the operations that take it.
    static let headerParameter = APIParameter(
        "X-Onramp-Partner-Id",
        APISchema.string(minLength: 1, maxLength: 128).described(
            "An aggregator's end partner (registered with `onramp project add-end-partner`) the request is for; ignored for other projects."
        ))
}
