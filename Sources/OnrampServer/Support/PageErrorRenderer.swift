import HTTPServer

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
}
