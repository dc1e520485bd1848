import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The sandbox console at `/` and `/console/…`: server-rendered pages of projects (App IDs, redirect
/// hosts, keys by id, App Attest keys with counters), App2App transactions with their state history,
/// events with every delivery attempt, and the request log; one action, resending an event to one
/// endpoint (not a live-mode Stripe event). Without the operator token a caller gets the sign-in form (401) and nothing else.
struct ConsoleRoutes: Sendable {
    let access: ConsoleAccess
    let database: any Database
    let clock: any OnrampCore.Clock
    let requestLog: RequestLog
    /// Settles App2App transactions on request ("settle now", "fail now").
    let transactions: TransactionService
    /// Settles Headless orders on request.
    let orders: GuestCheckoutService
    /// Fulfils Embedded onramp sessions on request.
    let sessions: OnrampSessionService
    /// Takes a waiting sell's deposit (or its failure) on request.
    let offramp: OfframpService
    /// Emptied by the console's changes of keys and test clocks.
    let callers: CallerCache
    /// What the sandbox serves, for the availability page.
    let catalogue: Catalogue

    func register(on router: inout Router) {
        // The start page is the first page of projects; the "Older" links continue on /console.
        router.add(Operations.home) { request in try page(request) { try projects(before: nil) } }
        router.add(Operations.projects) { request in
            try page(request) { try projects(before: try Self.query(request, "before", maxLength: 160)) }
        }
        router.add(Operations.showLogin) { request in
            login(request, presented: request.queryValue("token"))
        }
        router.add(Operations.submitLogin) { request in
            guard let token = try request.formBody()["token"]?.stringValue, !token.isEmpty else {
                return signIn(status: 400, message: "Enter the operator token.")
            }
            return login(request, presented: token)
        }
        router.add(Operations.logout) { request in
            try access.authorizeAction(request, form: try request.formBody())
            try access.signOut(request)
            var response = HTTPResponse.seeOther("/console/login")
            response.headers.set(
                "Set-Cookie", "\(ConsoleAccess.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
            return response
        }
        router.add(Operations.project) { request in
            try page(request) {
                let notice =
                    try Self.query(request, "clock", maxLength: 16).map { _ in "clock" }
                    ?? Self.query(request, "key", maxLength: 16).map { _ in "key" }
                return try project(request.pathParameters["id"] ?? "", notice: notice)
            }
        }
        router.add(Operations.projectList) { request in
            try page(request) {
                try projectList(
                    request.pathParameters["id"] ?? "", slug: request.pathParameters["list"] ?? "",
                    before: try Self.query(request, "before", maxLength: 160))
            }
        }
        router.add(Operations.transaction) { request in
            try page(request) {
                try transaction(
                    request.pathParameters["id"] ?? "", finished: try Self.query(request, "finished", maxLength: 8))
            }
        }
        router.add(Operations.settle) { request in
            try access.authorizeAction(request, form: try request.formBody())
            let id = request.pathParameters["id"] ?? ""
            guard try transactions.settleNow(transactionId: id) else {
                throw ConsoleRefusal.notPending("Transaction \(id) is not pending.")
            }
            return .seeOther("/console/transactions/\(ConsolePage.segment(id))?finished=settled")
        }
        router.add(Operations.fail) { request in
            try access.authorizeAction(request, form: try request.formBody())
            let id = request.pathParameters["id"] ?? ""
            guard try transactions.failNow(transactionId: id) else {
                throw ConsoleRefusal.notPending("Transaction \(id) is not pending.")
            }
            return .seeOther("/console/transactions/\(ConsolePage.segment(id))?finished=failed")
        }
        finishNow(on: &router, path: "/console/orders", object: "Order", operations: Operations.orderActions) {
            try orders.finishNow(orderId: $0, forcing: $1)
        }
        finishNow(
            on: &router, path: "/console/onramp_sessions", object: "Test-mode onramp session",
            operations: Operations.sessionActions
        ) { try sessions.finishNow(sessionId: $0, forcing: $1) }
        finishNow(on: &router, path: "/console/sells", object: "Sell", operations: Operations.sellActions) {
            try offramp.finishNow(sellId: $0, forcing: $1)
        }
        addAction(Operations.changeEndpoint, on: &router) { request, form in
            try changeEndpoint(request.pathParameters["id"] ?? "", form: form)
        }
        router.add(Operations.hostedSession) { request in
            try page(request) { try hostedSession(request.pathParameters["id"] ?? "") }
        }
        router.add(Operations.sell) { request in
            try page(request) {
                try sell(
                    request.pathParameters["id"] ?? "", finished: try Self.query(request, "finished", maxLength: 8))
            }
        }
        router.add(Operations.order) { request in
            try page(request) {
                try order(
                    request.pathParameters["id"] ?? "", finished: try Self.query(request, "finished", maxLength: 8))
            }
        }
        router.add(Operations.customer) { request in
            try page(request) { try customer(request.pathParameters["id"] ?? "") }
        }
        router.add(Operations.onrampSession) { request in
            try page(request) {
                try onrampSession(
                    request.pathParameters["id"] ?? "", finished: try Self.query(request, "finished", maxLength: 8))
            }
        }
        router.add(Operations.events) { request in
            try page(request) {
                try events(
                    type: try Self.query(request, "type", maxLength: 128),
                    before: try Self.query(request, "before", maxLength: 96))
            }
        }
        router.add(Operations.event) { request in
            try page(request) {
                try event(request.pathParameters["id"] ?? "", resent: try Self.query(request, "resent", maxLength: 8))
            }
        }
        addAction(Operations.resend, on: &router) { request, form in
            try resend(request.pathParameters["id"] ?? "", subscription: form["subscription"]?.stringValue ?? "")
        }
        addAction(Operations.revokeKey, on: &router) { _, form in try revokeKey(form["key"]?.stringValue ?? "") }
        addAction(Operations.advanceClock, on: &router) { request, form in
            try advanceClock(request.pathParameters["id"] ?? "", minutes: form["minutes"]?.stringValue)
        }
        router.add(Operations.requests) { request in
            try page(request) { requests(id: try Self.query(request, "request_id", maxLength: 128)) }
        }
        router.add(Operations.availability) { request in
            try page(request) {
                try availability(
                    country: try Self.query(request, "country", maxLength: 8),
                    subdivision: try Self.query(request, "subdivision", maxLength: 8))
            }
        }
        router.add(Operations.request) { request in
            try page(request) { try self.request(request.pathParameters["id"] ?? "") }
        }
    }

    /// Registers a console action: its form, once the operator's sign-in, CSRF value and origin are checked, is
    /// handed to `body` with the request.
    private func addAction(
        _ operation: APIOperation, on router: inout Router,
        _ body: @escaping @Sendable (HTTPRequest, JSONValue) throws -> HTTPResponse
    ) {
        router.add(operation) { request in
            let form = try request.formBody()
            try access.authorizeAction(request, form: form)
            return try body(request, form)
        }
    }

    /// `POST {path}/{id}/settle` and `…/fail`: takes a pending purchase's settlement now, as its provider
    /// decides or as a failed buy, then shows its page again with what happened.
    private func finishNow(
        on router: inout Router, path: String, object: String, operations: (settle: APIOperation, fail: APIOperation),
        _ finish: @escaping @Sendable (String, SettlementResult?) throws -> Bool
    ) {
        for (action, operation, forced) in [
            ("settle", operations.settle, nil), ("fail", operations.fail, SettlementResult.buyFailed),
        ] {
            router.add(operation) { request in
                try access.authorizeAction(request, form: try request.formBody())
                let id = request.pathParameters["id"] ?? ""
                guard try finish(id, forced) else {
                    throw ConsoleRefusal.notPending("\(object) \(id) is not pending.")
                }
                return .seeOther(
                    "\(path)/\(ConsolePage.segment(id))?finished=\(action == "settle" ? "settled" : "failed")")
            }
        }
    }

    /// A query parameter, nil when absent or empty; longer than `maxLength` bytes is a 400.
    private static func query(_ request: HTTPRequest, _ name: String, maxLength: Int) throws(ConsoleRefusal) -> String?
    {
        guard let value = request.queryValue(name), !value.isEmpty else { return nil }
        guard value.utf8.count <= maxLength else {
            throw ConsoleRefusal.invalid("\(name) is longer than \(maxLength) bytes.")
        }
        return value
    }

    // MARK: - Access

    /// Renders `body` for an authorised operator; anyone else gets the sign-in form.
    private func page(_ request: HTTPRequest, _ body: () throws -> (title: String, html: String)) throws
        -> HTTPResponse
    {
        do {
            try access.authorize(request)
        } catch .tokenRequired {
            return signIn(status: 401, message: nil)
        }
        let (title, html) = try body()
        return ConsolePage.render(title: title, csrf: access.csrfValue, body: html)
    }

    private func login(_ request: HTTPRequest, presented: String?) -> HTTPResponse {
        guard access.allowsRemote || ConsoleAccess.isLoopback(request.remoteAddress) else {
            return signIn(status: 403, message: "The console answers loopback clients only.")
        }
        guard let presented, !presented.isEmpty else { return signIn(status: 200, message: nil) }
        guard presented.utf8.count <= 256 else { return signIn(status: 400, message: "That token is too long.") }
        guard access.matches(presented), request.headers["Sec-Fetch-Site"]?.lowercased() != "cross-site" else {
            return signIn(status: 401, message: "That is not the console's operator token.")
        }
        guard let cookie = try? access.signIn() else {
            return signIn(status: 503, message: "The sign-in could not be stored; try again.")
        }
        var response = HTTPResponse.seeOther("/console")
        response.headers.set("Set-Cookie", cookie)
        return response
    }

    /// The sign-in form: the only thing a caller without the token sees.
    private func signIn(status: Int, message: String?) -> HTTPResponse {
        let notice = message.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        return .html(
            HTML.page(
                title: "OnrampKit console",
                body: """
                    <h1>Sandbox console</h1>
                    \(notice)
                    <form method="post" action="/console/login" class="fields">
                    <label for="token">Operator token (printed by <code>onramp serve</code>)</label>
                    <input id="token" name="token" type="password" autocomplete="current-password" required>
                    <div class="actions"><button class="primary" type="submit">Open the console</button></div>
                    </form>
                    """), status: status)
    }
}
