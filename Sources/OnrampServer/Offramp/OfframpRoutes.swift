import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampStore
import OnrampWire

/// The offramp's route table: the sell page a `/onramp/v1/token` opens (cbpay-js `generateOffRampURL`:
/// `/v3/sell/input?sessionToken=…`), the sell transactions API (JWT) as Coinbase's demo reads it
/// (`utils/fetchOfframpTransaction.ts`), and the sell quote.
struct OfframpRoutes: Sendable {
    let service: OfframpService
    /// Mints the one-click sell quote's token.
    let hosted: HostedOnrampService

    /// `GET /onramp/v1/sell/config` (Coinbase's demo application `app/api/sell-config/route.ts` at 114d1e1c):
    /// every country of the catalogue with the cash-out methods a sell may use.
    func getSellConfig(_ _: HTTPRequest, _ _: String) throws -> HTTPResponse {
        .json(try JSONValueEncoder().encode(service.catalogue.sellConfig(methods: OfframpService.cashoutMethods)))
    }

    /// `GET /onramp/v1/sell/options?country=&subdivision=&networks=`: the cash-out currencies with each
    /// method's limits, and the assets on the networks a sell can receive on (`networks` narrows them).
    func getSellOptions(_ request: HTTPRequest, _ _: String) throws -> HTTPResponse {
        guard let country = request.queryValue("country"), service.catalogue.country(country) != nil else {
            throw FieldError(
                code: "invalid_request", message: "country must be a supported ISO 3166-1 code.",
                param: "country")
        }
        let networkFilter = request.queryValue("networks").map { Set($0.split(separator: ",").map(String.init)) }
        let options = service.catalogue.sellOptions(methods: OfframpService.cashoutMethods) { network in
            OfframpService.receivableFormats.contains(network.addressFormat)
                && (networkFilter?.contains(network.id) ?? true)
        }
        return .json(try JSONValueEncoder().encode(options))
    }

    func sellPage(_ request: HTTPRequest) throws -> HTTPResponse {
        try hosted.inProjectTime(ofToken: request.queryValue("sessionToken")) { try open(request) }
    }

    func submitSellPage(_ request: HTTPRequest) throws -> HTTPResponse {
        try hosted.inProjectTime(ofToken: try request.formBody()["sessionToken"]?.stringValue) {
            try submit(request)
        }
    }

    func listUserSells(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let ref = request.pathParameters["partnerUserRef"] ?? ""
        guard !ref.isEmpty, ref.utf8.count <= 50 else {
            throw FieldError(
                code: "invalid_request", message: "partnerUserRef must be 1 to 50 bytes.")
        }
        return try list(request, projectId: projectId, partnerUserRef: ref, dates: false)
    }

    func listSells(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        try list(request, projectId: projectId, partnerUserRef: nil, dates: true)
    }

    func createQuote(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        .json(try quote(RequestFields(try request.jsonBody()), projectId: projectId))
    }

    // MARK: - API

    private func list(_ request: HTTPRequest, projectId: String, partnerUserRef: String?, dates: Bool) throws
        -> HTTPResponse
    {
        let allowed = TransactionsRoutes.pageParameters.union(dates ? TransactionsRoutes.dateParameters : [])
        if let unknown = request.query.first(where: { !allowed.contains($0.0) })?.0 {
            throw FieldError(
                code: "invalid_request", message: "\(unknown) is not a parameter of this API.",
                param: String(unknown.utf8.prefix(64)) ?? "query")
        }
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { request.queryValue($0) }.first { !$0.isEmpty }
        }
        // The guide documents a page of one by default (the newest sell).
        let pageSize =
            value("page_size", "pageSize") == nil ? 1 : try TransactionsRoutes.pageSize(value("page_size", "pageSize"))
        let cursor = try value("page_key", "pageKey").map(TransactionsRoutes.decodeCursor)
        let from = try value("start_date", "startDate").map {
            try TransactionsRoutes.parseDate($0, name: "start_date").milliseconds
        }
        let until = try value("end_date", "endDate").map { text -> Int64 in
            let (milliseconds, dateOnly) = try TransactionsRoutes.parseDate(text, name: "end_date")
            return dateOnly ? milliseconds + 86_400_000 : milliseconds
        }
        let (rows, total) = try service.sells(
            projectId: projectId, partnerUserRef: partnerUserRef, from: from, until: until,
            before: cursor.map { ($0.createdAt, $0.id) }, limit: pageSize + 1)
        let page = Array(rows.prefix(pageSize))
        for sell in page { RequestNotes.current?.noteSubject(sell.transactionId) }
        let next =
            rows.count > pageSize
            ? page.last.map { TransactionsRoutes.encodeCursor(createdAt: $0.createdAt, id: $0.transactionId) } : nil
        var members: [(String, JSONValue)] = [
            ("transactions", .array(page.map(\.wire.json))), ("next_page_key", .string(next ?? "")),
        ]
        if let total { members.append(("total_count", .string(String(total)))) }
        return .json(.object(members))
    }

    /// `POST /onramp/v1/sell/quote`, in the reference's camelCase or the guide's snake_case. With the
    /// user's `sourceAddress`, `redirectUrl` and `partnerUserRef` it carries a one-click `offramp_url`
    /// (Coinbase's guide, "Generating Offramp Quotes": a sell page preset to exactly this quote).
    private func quote(_ fields: RequestFields, projectId: String) throws -> JSONValue {
        func optional(_ camel: String, _ snake: String, maxLength: Int) throws(FieldError) -> String? {
            if let value = try fields.optional(camel, maxLength: maxLength) { return value }
            return try fields.optional(snake, maxLength: maxLength)
        }
        func field(_ camel: String, _ snake: String, maxLength: Int) throws(FieldError) -> String {
            if let value = try optional(camel, snake, maxLength: maxLength) { return value }
            throw FieldError(
                status: 400, code: "invalid_request", message: "Missing required field \(camel).", param: camel)
        }
        let country = try field("country", "country", maxLength: 2)
        guard service.catalogue.country(country) != nil else {
            throw FieldError(
                code: "invalid_request", message: "country must be a supported ISO 3166-1 code.",
                param: "country")
        }
        let method = try field("paymentMethod", "payment_method", maxLength: 32)
        let sold = try service.quote(
            asset: try field("sellCurrency", "sell_currency", maxLength: 64),
            amount: try field("sellAmount", "sell_amount", maxLength: 40),
            currency: try field("cashoutCurrency", "cashout_currency", maxLength: 8), method: method, quotingOnly: true)
        func amount(_ money: Money) -> JSONValue {
            ["value": .string(sold.text(money)), "currency": .string(money.currency)]
        }
        let quoteId = service.ids.uuid()
        var members: [(String, JSONValue)] = [
            ("cashout_total", amount(sold.cashoutTotal)), ("cashout_subtotal", amount(sold.cashoutSubtotal)),
            ("coinbase_fee", amount(sold.coinbaseFee)),
            (
                "sell_amount",
                ["value": .string(sold.sellAmount.amount.description), "currency": .string(sold.sellAmount.currency)]
            ),
            ("quote_id", .string(quoteId)),
        ]
        let (asset, network) = try sale(
            of: sold.sellAmount.currency, on: try optional("sellNetwork", "sell_network", maxLength: 64))
        let source = try optional("sourceAddress", "source_address", maxLength: 128)
        let redirect = try optional("redirectUrl", "redirect_url", maxLength: 2048)
        // Coinbase's demo application sends `partnerUserId` (`app/api/sell-quote/route.ts` at 114d1e1c).
        let user =
            try optional("partnerUserRef", "partner_user_ref", maxLength: 50)
            ?? optional("partnerUserId", "partner_user_id", maxLength: 50)
        if let source, let redirect, let user {
            let url = try oneClickURL(
                OneClickSell(
                    asset: asset, network: network, amount: sold.sellAmount.amount.description,
                    cashoutCurrency: sold.cashoutTotal.currency, method: method, quoteId: quoteId, source: source,
                    redirectUrl: redirect, partnerUserRef: user),
                projectId: projectId)
            members.append(("offramp_url", .string(url)))
        }
        return .object(members)
    }

    /// What a one-click sell URL presets.
    private struct OneClickSell {
        let asset: Asset
        let network: Network
        let amount: String
        let cashoutCurrency: String
        let method: String
        let quoteId: String
        let source: String
        let redirectUrl: String
        let partnerUserRef: String
    }

    /// The asset on the named network, or on its first network when none is named.
    private func sale(of symbol: String, on networkName: String?) throws(FieldError) -> (Asset, Network) {
        do {
            let asset = try service.catalogue.asset(symbol)
            let resolved = try service.catalogue.resolve(
                asset: asset.symbol, network: networkName ?? asset.deployments.first?.network ?? "")
            return (resolved.asset, resolved.network)
        } catch let error as OnrampError {
            throw FieldError(code: "invalid_request", message: error.developerMessage, param: "sellNetwork")
        } catch {
            throw FieldError(code: "invalid_request", message: "sellNetwork is not supported.")
        }
    }

    /// A `/v3/sell/input` URL behind a fresh token for the user's address, preset to the quote. The presets
    /// are stored with the token (bound by `quoteId`): the URL repeats them for Coinbase's clients, but the page
    /// refuses a URL or form that changes them.
    private func oneClickURL(_ sell: OneClickSell, projectId: String) throws -> String {
        try PurchaseRequest.validateHostedRedirect(sell.redirectUrl, for: try hosted.project(projectId))
        let token = try hosted.makeToken(
            address: sell.source, asset: sell.asset, network: sell.network, projectId: projectId,
            parameter: "sourceAddress",
            presets: HostedOnrampSession.Presets(
                asset: sell.asset.symbol, network: sell.network.id, purchaseAmount: sell.amount,
                paymentCurrency: sell.cashoutCurrency, paymentMethod: sell.method, redirectUrl: sell.redirectUrl,
                partnerUserRef: sell.partnerUserRef, quoteId: sell.quoteId))
        let query = [
            ("sessionToken", token), ("partnerUserRef", sell.partnerUserRef), ("redirectUrl", sell.redirectUrl),
            ("defaultAsset", sell.asset.symbol), ("defaultNetwork", sell.network.id),
            ("presetCryptoAmount", sell.amount),
            ("defaultCashoutMethod", sell.method), ("fiatCurrency", sell.cashoutCurrency), ("quoteId", sell.quoteId),
        ]
        let encoded = query.map { name, value in "\(name)=\(PercentEncoding.encode(value))" }
        return "\(service.publicBaseURL)\(OfframpService.pagePath)?\(encoded.joined(separator: "&"))"
    }

    // MARK: - The sell page

    /// GET: opens the token once (a `HEAD` does not) and shows what may be sold.
    private func open(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.method == "HEAD" { return .html(HTML.page(title: "Sell crypto", body: "")) }
        let token = request.queryValue("sessionToken") ?? ""
        guard let session = try hosted.session(token: token), session.kind == .token
        else { return message("Sell link not found", "This sell link is not valid. Start again from the app.", 404) }
        RequestNotes.current?.noteSubject(session.id)
        let now = service.nowMilliseconds
        // A spent sell link records nothing: the tab that opened it first can still finish.
        guard session.page.open(now: now) == .show else {
            return message("Sell link used", "This sell link was already used or has expired.", 410)
        }
        var presets = HostedOnrampSession.Presets()
        do {
            func preset(_ names: String..., maxLength: Int) throws(FieldError) -> String? {
                guard let name = names.first(where: { request.queryValue($0) != nil }),
                    let text = request.queryValue(name), !text.isEmpty
                else { return nil }
                try RequestFields(.object([])).checkText(text, field: name, maxLength: maxLength)
                return text
            }
            presets.partnerUserRef = try preset("partnerUserRef", "partnerUserId", maxLength: 50)
            presets.redirectUrl = try preset("redirectUrl", maxLength: 2048)
            presets.asset = try preset("defaultAsset", maxLength: 64)
            presets.network = try preset("defaultNetwork", maxLength: 64)
            presets.purchaseAmount = try preset("presetCryptoAmount", maxLength: 40)
            presets.paymentMethod = try preset("defaultCashoutMethod", maxLength: 32)
            presets.paymentCurrency = try preset("fiatCurrency", maxLength: 8)
            presets.quoteId = try preset("quoteId", maxLength: 64)
            presets.paymentAmount = try preset("presetFiatAmount", maxLength: 40)
            presets.editingDisabled = request.queryValue("disableEdit") == "true"
            if session.presets.quoteId != nil {
                // A one-click link: what the URL says must be what the token was made for.
                presets = try Self.bound(session.presets, presented: presets)
                if let refusal = presets.paymentMethod.flatMap(OfframpService.cashoutRefusal) {
                    return message("Sell unavailable", refusal, 400)
                }
            }
            guard presets.partnerUserRef != nil, let redirect = presets.redirectUrl else {
                throw FieldError(
                    code: "invalid_request", message: "A sell link needs partnerUserRef and redirectUrl.")
            }
            let project: Project
            do {
                project = try hosted.project(session.projectId)
            } catch is HostedOnrampRefusal {
                throw OnrampError.refusal("not_found", "Unknown project.", kind: .notFound)
            }
            try PurchaseRequest.validateHostedRedirect(redirect, for: project)
            if presets.purchaseAmount == nil, let fiat = presets.paymentAmount {
                let asset = presets.asset ?? service.sellableChoices(session).first?.asset.symbol ?? ""
                presets.purchaseAmount = try service.cryptoAmount(
                    worth: fiat, of: asset, in: presets.paymentCurrency ?? "USD")
            }
        } catch {
            guard let text = PageErrorRenderer.refusalMessage(error) else { throw error }
            return message("Sell unavailable", text, 400)
        }
        guard let pageSecret = try hosted.open(token: token, presets: presets, flow: .sell) else {
            return message("Sell link used", "This sell link was already used or has expired.", 410)
        }
        return .html(
            OfframpPage.select(
                session: session, choices: service.sellableChoices(session), presets: presets, token: token,
                pageSecret: pageSecret))
    }

    /// POST: preview, cash out (303 to the partner's `redirectUrl`) or cancel.
    private func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let token = try form.required("sessionToken", maxLength: 64)
        let pageSecret = try form.required("pageSecret", maxLength: 64)
        let action = try form.required("action", maxLength: 16)
        guard let session = try hosted.openedSession(token: token, pageSecret: pageSecret, flow: .sell),
            session.kind == .token
        else { return message("Sell link not found", "This sell link is not valid. Start again from the app.", 404) }
        RequestNotes.current?.noteSubject(session.id)
        let redirect = session.presets.redirectUrl ?? ""
        switch session.page.submit(cancelling: action == "cancel", now: service.nowMilliseconds) {
        case .replay:
            return .seeOther(redirect)
        case .end(.error):  // nothing recorded, as for a spent link
            return message("Sell expired", "This page has expired. Start again from the app.", 410)
        case .end(let outcome):
            _ = try hosted.finish(session, token: token, outcome: outcome)
            return .seeOther(redirect)
        case .proceed:
            break
        }
        let choices = service.sellableChoices(session)
        let index = Int(try form.required("choice", maxLength: 4)) ?? -1
        guard choices.indices.contains(index) else {
            throw FieldError(code: "invalid_request", message: "Choose what to sell.", param: "choice")
        }
        let choice = choices[index]
        let amount = try form.required("sellAmount", maxLength: 40)
        let method = try form.required("cashoutMethod", maxLength: 32)
        let currency = try form.optional("fiatCurrency", maxLength: 8) ?? "USD"
        let bound = session.presets
        let changed: [(preset: String?, sent: String)] = [
            (bound.asset, choice.asset.symbol), (bound.network, choice.network.id), (bound.purchaseAmount, amount),
            (bound.paymentMethod, method), (bound.paymentCurrency, currency),
        ]
        if bound.locked, changed.contains(where: { pair in pair.preset.map { $0 != pair.sent } ?? false }) {
            throw FieldError(
                code: "invalid_request",
                message: "This sell link fixes its asset, amount and cash-out; they cannot be changed.")
        }
        let quote: SellQuote
        do {
            quote = try service.quote(asset: choice.asset.symbol, amount: amount, currency: currency, method: method)
            _ = try service.depositAddress(for: choice.network)
        } catch {
            return .html(
                OfframpPage.select(
                    session: session, choices: choices, presets: session.presets, token: token, pageSecret: pageSecret,
                    error: error.developerMessage), status: 400)
        }
        switch action {
        case "preview":
            return .html(
                OfframpPage.preview(
                    choice: choice, choiceIndex: index, quote: quote, method: method, token: token,
                    pageSecret: pageSecret,
                    sandbox: session.isSandbox))
        case "cashout":
            // A second press (a double tap, another tab) finds the page finished and goes back the same way.
            let sell = try service.cashOut(
                session: session, choice: choice, quote: quote, method: method,
                partnerUserRef: session.presets.partnerUserRef ?? "", redirectUrl: redirect)
            if let sell { RequestNotes.current?.noteSubject(sell.transactionId) }
            return .seeOther(redirect)
        default:
            throw FieldError(
                code: "invalid_request", message: "action must be preview, cashout or cancel.",
                param: "action")
        }
    }

    /// The presets of a one-click link: the ones stored with its token; a URL that presents any of them
    /// differently (another user, amount, asset or cash-out) is refused.
    private static func bound(
        _ stored: HostedOnrampSession.Presets, presented: HostedOnrampSession.Presets
    ) throws(FieldError) -> HostedOnrampSession.Presets {
        let pairs: [(String?, String?)] = [
            (stored.partnerUserRef, presented.partnerUserRef), (stored.redirectUrl, presented.redirectUrl),
            (stored.asset, presented.asset), (stored.network, presented.network),
            (stored.purchaseAmount, presented.purchaseAmount), (stored.paymentMethod, presented.paymentMethod),
            (stored.paymentCurrency, presented.paymentCurrency), (stored.quoteId, presented.quoteId),
        ]
        for (kept, sent) in pairs where sent != nil && sent != kept {
            throw FieldError(
                code: "invalid_request",
                message: "This sell link was made for one quote; its details cannot be changed.")
        }
        return stored
    }

    private func message(_ title: String, _ text: String, _ status: Int) -> HTTPResponse {
        .html(
            HTML.page(title: title, body: "<h1>\(HTML.escape(title))</h1><p>\(HTML.escape(text))</p>"), status: status)
    }
}
