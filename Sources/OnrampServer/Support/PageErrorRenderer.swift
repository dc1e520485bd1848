import HTTPServer
import OnrampCore
import OnrampServices

/// Errors on the hosted pages as HTML (a person is reading them), with the request id for support.
struct PageErrorRenderer: ErrorRenderer {
    func render(_ error: HTTPError, requestId: String) -> HTTPResponse {
        let title = error.status >= 500 ? "Something went wrong" : "This request could not be completed"
        var response = HTTPResponse.html(
            HTML.page(
                title: title,
                body: """
                    <h1>\(HTML.escape(title))</h1>
                    <p>\(HTML.escape(error.message))</p>
                    <p class="note">Reference \(HTML.escape(requestId))</p>
                    """),
            status: error.status)
        for (name, value) in error.headers { response.headers.set(name, value) }
        return response
    }

    /// What a page tells the person about a refused request: an ``HTTPError`` or a decoder's ``FieldError`` below 500, or a domain
    /// refusal; `nil` for anything else (a failing store, a bug), which the page must not explain away.
    static func refusalMessage(_ error: any Error) -> String? {
        switch error {
        case let error as HTTPError where error.status < 500: error.message
        case let error as FieldError where error.status < 500: error.message
        case let error as OnrampError: error.developerMessage
        default: nil
        }
    }

    /// A domain refusal as its kind's status, explained by its developer message (the pages show the
    /// integrator's mistakes, a bad redirect or an unknown asset, to whoever opened the link).
    func httpError(for error: any Error) -> HTTPError? {
        guard let error = error as? OnrampError else { return nil }
        return HTTPError(status: error.status, code: error.code.rawValue, message: error.developerMessage)
    }
}
