import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampStore

/// The hosted purchase handoff at `onrampUrl`: opening it consumes the session token (single use,
/// 15 minutes); Confirm creates the transaction and Cancel abandons it, each answered with a 303 to
/// the partner's `redirectUrl` carrying `status=success|cancelled` (or `error`).
struct HandoffRoutes: Sendable {
    static let pagePath = PagePaths.handoff

    typealias Record = PurchaseSessionRepository.Record

    let service: HandoffService
    let catalogue: Catalogue

    func openPurchaseHandoffPage(_ request: HTTPRequest) throws -> HTTPResponse {
        try service.inProjectTime(ofToken: request.queryValue("sessionToken")) { try open(request) }
    }

    func submitPurchaseHandoff(_ request: HTTPRequest) throws -> HTTPResponse {
        try service.inProjectTime(ofToken: try request.formBody()["sessionToken"]?.stringValue) {
            try submit(request)
        }
    }

    /// GET: consume the token and show the purchase, or show an error and send the user back.
    func open(_ request: HTTPRequest) throws -> HTTPResponse {
        // A HEAD (link previews, prefetchers) must not spend the single-use token.
        if request.method == "HEAD" { return .html(HTML.page(title: "Confirm your purchase", body: "")) }
        guard let token = request.queryValue("sessionToken"), token.utf8.count <= 64,
            let opening = try service.open(token: token)
        else { return notFound() }
        let session = opening.session
        RequestNotes.current?.noteSubject(session.challengeId)
        let purchase = try PurchaseRequest(stored: session.purchase)
        switch opening.decision {
        case .show:
            return .html(
                confirmationPage(
                    token: token, purchase: purchase, quote: try StoredQuote(stored: session.quote), session: session,
                    pageSecret: opening.pageSecret ?? ""))
        case .spent(let expired):
            return endedPage(token: token, purchase: purchase, session: session, expired: expired)
        }
    }

    /// POST: Confirm or Cancel, answered with a 303 to the redirect URL.
    func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let token = try form.required("sessionToken", maxLength: 64)
        let pageSecret = try form.required("pageSecret", maxLength: 64)
        let action = try form.required("action", maxLength: 16)
        guard action == "confirm" || action == "cancel" else {
            throw FieldError(
                code: "invalid_request", message: "action must be confirm or cancel.", param: "action")
        }
        guard let finished = try service.submit(token: token, pageSecret: pageSecret, cancelling: action == "cancel")
        else { return notFound() }
        RequestNotes.current?.noteSubject(finished.challengeId)
        if let transactionId = finished.transactionId { RequestNotes.current?.noteSubject(transactionId) }
        let purchase = try PurchaseRequest(stored: finished.purchase)
        return .seeOther(redirect(token: token, purchase, session: finished, status: finished.page.reportedOutcome))
    }

    /// `{redirectUrl}?status=…&transactionId=…&sessionToken=…&partnerUserRef=…`.
    func redirect(token: String, _ purchase: PurchaseRequest, session: Record, status: PurchaseOutcome) -> String {
        var query = [("status", status.rawValue)]
        if status == .success, let id = session.redirectTransactionId { query.append(("transactionId", id)) }
        query.append(("sessionToken", token))
        if let ref = purchase.partnerUserRef { query.append(("partnerUserRef", ref)) }
        return RedirectURL.appending(query, to: purchase.redirectUrl)
    }

    /// The page for a spent link: the recorded outcome, and a way back to the app carrying it.
    private func endedPage(token: String, purchase: PurchaseRequest, session: Record, expired: Bool) -> HTTPResponse {
        let outcome = session.page.reportedOutcome
        let target = redirect(token: token, purchase, session: session, status: outcome)
        let (title, text, status): (String, String, Int) =
            switch outcome {
            case .success: ("Purchase complete", "This purchase was already confirmed.", 200)
            case .cancelled:
                ("Purchase cancelled", "This purchase was cancelled. Start a new purchase from the app.", 410)
            case .error:
                (
                    "Purchase unavailable",
                    (expired ? "This purchase link has expired." : "This purchase link was already used.")
                        + " Start a new purchase from the app.", 410
                )
            }
        return .html(
            HTML.page(
                title: title,
                body: """
                    <h1>\(HTML.escape(title))</h1>
                    <p>\(HTML.escape(text))</p>
                    <div class="actions"><a class="button" href="\(HTML.escape(target))">Return to the app</a></div>
                    """, refreshTo: target), status: status)
    }

    private func notFound() -> HTTPResponse {
        .html(
            HTML.page(
                title: "Purchase not found",
                body:
                    "<h1>Purchase not found</h1><p>This purchase link is not valid. Start a new purchase from the app.</p>"
            ),
            status: 404)
    }

    private func confirmationPage(
        token: String, purchase: PurchaseRequest, quote: StoredQuote, session: Record, pageSecret: String
    ) -> String {
        let networkName = (try? catalogue.network(quote.network).displayName) ?? quote.network
        let body = """
            <h1>Buy \(HTML.escape(quote.purchaseAmount)) \(HTML.escape(quote.purchaseCurrency))</h1>
            \(HTML.sandboxNote(session.sandbox))
            \(HTML.purchaseSummary(quote, networkName: networkName, address: purchase.destinationAddress))
            <form method="post" action="\(Self.pagePath)" class="actions">
            <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
            <input type="hidden" name="pageSecret" value="\(HTML.escape(pageSecret))">
            <button type="submit" name="action" value="confirm" class="primary">Confirm</button>
            <button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
            </form>
            <p class="note">Payment method: \(HTML.escape(PaymentMethodType(rawValue: quote.paymentMethod)?.displayName ?? quote.paymentMethod)). Prices are final once you confirm.</p>
            """
        return HTML.page(title: "Confirm your purchase", body: body)
    }
}
