import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices

/// The hosted onramp on its real paths: `POST /onramp/v1/token` and `POST /platform/v2/onramp/sessions`
/// (CDP API key JWT), and the page at `/buy/select-asset`. Opening the page consumes the token (single
/// use, 5 minutes); the page then lives 15 minutes. Confirm creates the transaction and answers with a
/// 303 to the partner's `redirectUrl` (`status=success|cancelled|error`), or an outcome page without one.
struct HostedOnrampRoutes: Sendable {
    let service: HostedOnrampService

    private var pages: HostedOnrampPages {
        HostedOnrampPages(catalogue: service.catalogue, path: HostedOnrampService.pagePath)
    }

    func createHostedOnrampToken(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let issued = try service.createToken(HostedTokenRequest(try request.jsonBody()), projectId: projectId)
        RequestNotes.current?.noteSubject(issued.channelId)
        return .json(issued.json)
    }

    func createHostedOnrampSession(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let input = try HostedSessionRequest(try request.jsonBody())
        let partnerId = try EndPartnerRepository.requested(in: request)
        return Operations.createHostedOnrampSession.success(
            try service.createSession(input, projectId: projectId, endPartnerId: partnerId))
    }

    func openHostedOnrampPage(_ request: HTTPRequest) throws -> HTTPResponse {
        try service.inProjectTime(ofToken: request.queryValue("sessionToken")) { try open(request) }
    }

    func submitHostedOnrampPage(_ request: HTTPRequest) throws -> HTTPResponse {
        try service.inProjectTime(ofToken: try request.formBody()["sessionToken"]?.stringValue) {
            try submit(request)
        }
    }

    /// GET: consume the token and show the select step (or, for a one-click URL, the preview).
    func open(_ request: HTTPRequest) throws -> HTTPResponse {
        // A HEAD (link previews, prefetchers) must not spend the single-use token.
        if request.method == "HEAD" {
            return .html(pages.message(title: "Buy crypto", text: "Open this link to continue.", returnURL: nil))
        }
        guard let token = request.queryValue("sessionToken"), var session = try service.session(token: token) else {
            return notFound()
        }
        RequestNotes.current?.noteSubject(session.id)
        let now = service.nowMilliseconds
        guard session.page.open(now: now) == .show else { return try spent(session, token: token) }
        do {
            if session.kind == .token {
                session.presets = try presets(from: request, project: try service.project(session.projectId))
            } else if session.presets.partnerUserRef == nil {
                // Coinbase's demo appends `partnerUserId` to a session URL ("until supported as a body
                // param"); a partnerUserRef given when the session was made wins.
                session.presets.partnerUserRef = try Self.queryValue(
                    request, ["partnerUserId", "partnerUserRef"], maxLength: 50)
            }
        } catch {
            guard let text = PageErrorRenderer.refusalMessage(error) else { throw error }
            return .html(pages.message(title: "Purchase unavailable", text: text, returnURL: nil), status: 400)
        }
        guard let pageSecret = try service.open(token: token, presets: session.presets) else {
            return try spent(session, token: token)
        }
        let credentials = HostedOnrampPages.PageCredentials(token: token, pageSecret: pageSecret)
        let choices = session.choices(in: service.catalogue)
        let form = HostedOnrampForm(session: session, choices: choices)
        if HostedOnrampForm.isComplete(session, choices: choices) {
            return step(session, form: form, choices: choices, credentials: credentials)
        }
        return .html(
            pages.select(choices: choices, form: form, credentials: credentials, sandbox: session.isSandbox))
    }

    /// POST: preview, change, confirm or cancel.
    func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let fields = RequestFields(try request.formBody())
        let token = try fields.required("sessionToken", maxLength: 64)
        let pageSecret = try fields.required("pageSecret", maxLength: 64)
        let action = try fields.required("action", maxLength: 16)
        guard let session = try service.openedSession(token: token, pageSecret: pageSecret, flow: .buy) else {
            return notFound()
        }
        RequestNotes.current?.noteSubject(session.id)
        switch session.page.submit(cancelling: action == "cancel", now: service.nowMilliseconds) {
        case .replay: return finished(session)
        case .end(let outcome): return try end(session, token: token, outcome: outcome)
        case .proceed: break
        }
        let choices = session.choices(in: service.catalogue)
        let credentials = HostedOnrampPages.PageCredentials(token: token, pageSecret: pageSecret)
        let form = try HostedOnrampForm(
            posted: fields, startingFrom: HostedOnrampForm(session: session, choices: choices))
        switch action {
        case "change":
            return .html(
                pages.select(choices: choices, form: form, credentials: credentials, sandbox: session.isSandbox))
        case "preview":
            return step(session, form: form, choices: choices, credentials: credentials)
        case "confirm":
            let purchase: PurchaseRequest
            let quote: App2AppQuote
            do {
                (_, purchase, quote) = try price(form, choices: choices, session: session)
            } catch {
                return step(session, form: form, choices: choices, credentials: credentials)
            }
            try service.confirm(session, purchase: purchase, quote: quote, now: service.nowMilliseconds)
            return finished(try reload(session, token: token))
        default:
            throw FieldError(
                code: "invalid_request", message: "action must be preview, change, confirm or cancel.",
                param: "action")
        }
    }

    /// The preview of a valid form, or the select step with what is wrong.
    private func step(
        _ session: HostedOnrampSession, form: HostedOnrampForm, choices: [HostedOnrampSession.Choice],
        credentials: HostedOnrampPages.PageCredentials
    ) -> HTTPResponse {
        do {
            let (choice, _, quote) = try price(form, choices: choices, session: session)
            return .html(
                pages.preview(
                    choice: choice, quote: quote, form: form, credentials: credentials, sandbox: session.isSandbox))
        } catch {
            return .html(
                pages.select(
                    choices: choices, form: form, credentials: credentials, sandbox: session.isSandbox,
                    error: error.developerMessage),
                status: 400)
        }
    }

    private func price(
        _ form: HostedOnrampForm, choices: [HostedOnrampSession.Choice], session: HostedOnrampSession
    ) throws(OnrampError) -> (HostedOnrampSession.Choice, PurchaseRequest, App2AppQuote) {
        guard choices.indices.contains(form.choice) else {
            throw OnrampError.refusal("invalid_request", "Choose what to buy.", parameter: "choice")
        }
        guard !form.amount.isEmpty else {
            throw OnrampError.refusal("invalid_request", "Enter an amount.", parameter: "amount")
        }
        let choice = choices[form.choice]
        let (purchase, quote) = try service.price(
            session, choice: choice, paymentAmount: form.amountKind == .payment ? form.amount : nil,
            purchaseAmount: form.amountKind == .purchase ? form.amount : nil, paymentCurrency: form.currency,
            paymentMethod: form.method)
        return (choice, purchase, quote)
    }

    /// The first of the query parameters `names` that is present and not empty, under ``FieldText``'s
    /// rule (at most `maxLength` bytes, no control characters).
    private static func queryValue(_ request: HTTPRequest, _ names: [String], maxLength: Int) throws(FieldError)
        -> String?
    {
        guard let name = names.first(where: { request.queryValue($0) != nil }), let text = request.queryValue(name),
            !text.isEmpty
        else { return nil }
        try RequestFields(.object([])).checkText(text, field: name, maxLength: maxLength)
        return text
    }

    /// The presets a `token` URL carries in its query (Coinbase's hosted-onramp parameter names).
    private func presets(from request: HTTPRequest, project: Project) throws -> HostedOnrampSession.Presets {
        func value(_ names: String..., maxLength: Int) throws(FieldError) -> String? {
            try Self.queryValue(request, names, maxLength: maxLength)
        }
        // As on Coinbase, a crypto amount wins over a fiat amount.
        let cryptoAmount = try value("presetCryptoAmount", maxLength: 40)
        let presets = HostedOnrampSession.Presets(
            asset: try value("defaultAsset", maxLength: 64), network: try value("defaultNetwork", maxLength: 64),
            paymentAmount: cryptoAmount == nil ? try value("presetFiatAmount", maxLength: 40) : nil,
            purchaseAmount: cryptoAmount,
            paymentCurrency: try value("fiatCurrency", maxLength: 8),
            paymentMethod: try value("defaultPaymentMethod", maxLength: 32),
            country: nil, subdivision: nil, redirectUrl: try value("redirectUrl", maxLength: 2048),
            partnerUserRef: try value("partnerUserId", "partnerUserRef", maxLength: 50))
        if let redirectUrl = presets.redirectUrl {
            try PurchaseRequest.validateHostedRedirect(redirectUrl, for: project)
        }
        return presets
    }

    private func reload(_ session: HostedOnrampSession, token: String) throws -> HostedOnrampSession {
        try service.session(token: token) ?? session
    }

    /// Records `outcome` unless the session already has one, and ends the flow with the recorded one
    /// (a Cancel racing a Confirm that won reports `success`).
    private func end(_ session: HostedOnrampSession, token: String, outcome: PurchaseOutcome) throws -> HTTPResponse {
        finished(try service.finish(session, token: token, outcome: outcome))
    }

    /// The end of the flow: a 303 to the redirect with the recorded outcome, or an outcome page.
    private func finished(_ session: HostedOnrampSession) -> HTTPResponse {
        if let transactionId = session.transactionId { RequestNotes.current?.noteSubject(transactionId) }
        let outcome = session.page.reportedOutcome
        if let redirectUrl = session.presets.redirectUrl {
            return .seeOther(
                Self.redirect(redirectUrl, status: outcome, partnerUserRef: session.presets.partnerUserRef))
        }
        switch outcome {
        case .success:
            return .html(
                pages.message(
                    title: "Purchase submitted",
                    text: "Your purchase is on its way to your wallet. You can close this page.", returnURL: nil))
        case .cancelled:
            return .html(pages.message(title: "Purchase cancelled", text: "Nothing was charged.", returnURL: nil))
        case .error:
            return .html(
                pages.message(
                    title: "Purchase unavailable", text: "This purchase has expired. Start a new purchase.",
                    returnURL: nil), status: 410)
        }
    }

    /// A second open, or a token past its 5 minutes: the session ends with `error` (unless it already
    /// ended, say with a purchase in the first tab) and the page links back with the recorded outcome.
    private func spent(_ session: HostedOnrampSession, token: String) throws -> HTTPResponse {
        let ended = try service.finish(session, token: token, outcome: .error)
        let returnURL = ended.presets.redirectUrl.map {
            Self.redirect($0, status: ended.page.reportedOutcome, partnerUserRef: ended.presets.partnerUserRef)
        }
        return .html(
            pages.message(
                title: "Purchase unavailable",
                text: "This purchase link was already used or has expired. Start a new purchase.",
                returnURL: returnURL), status: 410)
    }

    private func notFound() -> HTTPResponse {
        .html(
            pages.message(
                title: "Purchase not found", text: "This purchase link is not valid. Start a new purchase.",
                returnURL: nil), status: 404)
    }

    /// `{redirectUrl}?status=…&partnerUserRef=…`.
    static func redirect(_ url: String, status: PurchaseOutcome, partnerUserRef: String?) -> String {
        var query = [("status", status.rawValue)]
        if let partnerUserRef { query.append(("partnerUserRef", partnerUserRef)) }
        return RedirectURL.appending(query, to: url)
    }
}
