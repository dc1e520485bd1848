import Foundation
import HTTPServer
import OnrampCore
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
    /// Settles App2App transactions on request ("settle now").
    let transactions: TransactionService

    func register(on router: inout Router) {
        router.add("GET", "/", Operations.home) { request in try page(request) { try projects() } }
        router.add("GET", "/console", Operations.projects) { request in try page(request) { try projects() } }
        router.add("GET", "/console/login", Operations.showLogin) { request in
            login(request, presented: request.queryValue("token"))
        }
        router.add("POST", "/console/login", Operations.submitLogin) { request in
            guard let token = try request.formBody()["token"]?.stringValue, !token.isEmpty else {
                return signIn(status: 400, message: "Enter the operator token.")
            }
            return login(request, presented: token)
        }
        router.add("POST", "/console/logout", Operations.logout) { request in
            try access.authorizeAction(request, form: try request.formBody())
            var response = HTTPResponse.seeOther("/console/login")
            response.headers.set(
                "Set-Cookie", "\(ConsoleAccess.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
            return response
        }
        router.add("GET", "/console/projects/{id}", Operations.project) { request in
            try page(request) {
                try project(
                    request.pathParameters["id"] ?? "", advanced: try Self.query(request, "clock", maxLength: 16))
            }
        }
        router.add("GET", "/console/transactions/{id}", Operations.transaction) { request in
            try page(request) {
                try transaction(
                    request.pathParameters["id"] ?? "", settled: try Self.query(request, "settled", maxLength: 8))
            }
        }
        router.add("POST", "/console/transactions/{id}/settle", Operations.settle) { request in
            try access.authorizeAction(request, form: try request.formBody())
            let id = request.pathParameters["id"] ?? ""
            guard try transactions.settleNow(transactionId: id) else {
                throw HTTPError(status: 409, code: "not_pending", message: "Transaction \(id) is not pending.")
            }
            return .seeOther("/console/transactions/\(ConsolePage.segment(id))?settled=1")
        }
        router.add("POST", "/console/endpoints/{id}", Operations.changeEndpoint) { request in
            let form = try request.formBody()
            try access.authorizeAction(request, form: form)
            return try changeEndpoint(request.pathParameters["id"] ?? "", form: form)
        }
        router.add("GET", "/console/customers/{id}", Operations.customer) { request in
            try page(request) { try customer(request.pathParameters["id"] ?? "") }
        }
        router.add("GET", "/console/onramp_sessions/{id}", Operations.onrampSession) { request in
            try page(request) { try onrampSession(request.pathParameters["id"] ?? "") }
        }
        router.add("GET", "/console/events", Operations.events) { request in
            try page(request) { try events(type: try Self.query(request, "type", maxLength: 128)) }
        }
        router.add("GET", "/console/events/{id}", Operations.event) { request in
            try page(request) {
                try event(request.pathParameters["id"] ?? "", resent: try Self.query(request, "resent", maxLength: 8))
            }
        }
        router.add("POST", "/console/events/{id}/resend", Operations.resend) { request in
            let form = try request.formBody()
            try access.authorizeAction(request, form: form)
            return try resend(request.pathParameters["id"] ?? "", subscription: form["subscription"]?.stringValue ?? "")
        }
        router.add("POST", "/console/projects/{id}/clock", Operations.advanceClock) { request in
            let form = try request.formBody()
            try access.authorizeAction(request, form: form)
            return try advanceClock(request.pathParameters["id"] ?? "", minutes: form["minutes"]?.stringValue)
        }
        router.add("GET", "/console/requests", Operations.requests) { request in
            try page(request) { requests(id: try Self.query(request, "request_id", maxLength: 128)) }
        }
    }

    /// A query parameter, nil when absent or empty; longer than `maxLength` bytes is a 400.
    private static func query(_ request: HTTPRequest, _ name: String, maxLength: Int) throws(HTTPError) -> String? {
        guard let value = request.queryValue(name), !value.isEmpty else { return nil }
        guard value.utf8.count <= maxLength else {
            throw HTTPError(status: 400, code: "invalid_request", message: "\(name) is longer than \(maxLength) bytes.")
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
        } catch  where error.status == 401 {
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
        var response = HTTPResponse.seeOther("/console")
        response.headers.set("Set-Cookie", access.sessionCookie)
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

    // MARK: - Pages

    private func projects() throws -> (title: String, html: String) {
        let rows = try database.read { try ConsoleRepository(connection: $0).projects() }
        return (
            "Projects",
            ConsolePage.table(
                caption: "Projects", headers: ["Project", "Name", "App2App", "Transactions", "Events", "Created"],
                rows: try rows.map { row in
                    let id = try row.string("id")
                    return [
                        ConsolePage.link("/console/projects/\(ConsolePage.segment(id))", id),
                        HTML.escape(try row.string("name")), try row.int("app2app_enabled") != 0 ? "enabled" : "off",
                        String(try row.int("transactions")), String(try row.int("events")),
                        ConsolePage.time(try row.int("created_at")),
                    ]
                })
        )
    }

    private func project(_ id: String, advanced: String?) throws -> (title: String, html: String) {
        let found = try database.read { connection in
            try ConsoleRepository(connection: connection).project(id).map {
                ($0, try TestClockRepository(connection: connection).offset(projectId: id))
            }
        }
        guard let (project, offset) = found else {
            throw HTTPError(status: 404, code: "not_found", message: "No project \(id).")
        }
        var html = advanced == nil ? "" : "<p class=\"notice\" role=\"status\">The test clock moved.</p>"
        html += ConsolePage.fields([
            ("Id", HTML.escape(project.id)), ("App2App", project.app2AppEnabled ? "enabled" : "off"),
            ("App Attest environments", HTML.escape(project.environments)),
            ("App IDs", project.appIds.map(HTML.escape).joined(separator: "<br>")),
            ("Redirect hosts", project.redirectHosts.map(HTML.escape).joined(separator: "<br>")),
            ("Test clock", offset == 0 ? "real time" : "\(offset / 60_000) min ahead"),
        ])
        html += """
            <form method="post" action="/console/projects/\(ConsolePage.segment(project.id))/clock">
            <input type="hidden" name="csrf" value="\(access.csrfValue)">
            <label for="minutes">Advance the test clock by (minutes)</label>
            <input id="minutes" name="minutes" type="number" min="1" max="43200" value="6" required>
            <button type="submit">Advance</button></form>
            """
        html += ConsolePage.table(
            caption: "API keys (secrets are never shown again)",
            headers: ["Key id", "Kind", "Mode", "State", "Created"],
            rows: try project.keys.map { row in
                [
                    HTML.escape(try row.string("id")), HTML.escape(try row.string("kind")),
                    try row.int("livemode") != 0 ? "live" : "test",
                    try row.int("disabled") != 0 ? "disabled" : "active",
                    ConsolePage.time(try row.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "App Attest keys", headers: ["App ID", "Key id", "Environment", "Counter", "Attested"],
            rows: try project.attestKeys.map { row in
                [
                    HTML.escape(try row.string("app_id")),
                    HTML.escape(String(try row.string("key_id").prefix(16)) + "…"),
                    HTML.escape(try row.string("environment")), String(try row.int("counter")),
                    ConsolePage.time(try row.int("attested_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "App2App transactions",
            headers: ["Transaction", "Partner user", "Status", "Paid", "Bought", "Created"],
            rows: try project.transactions.map { row in
                let id = try row.string("transaction_id")
                return [
                    ConsolePage.link("/console/transactions/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("partner_user_ref")), HTML.escape(try row.string("status")),
                    HTML.escape("\(try row.string("payment_total")) \(try row.string("payment_currency"))"),
                    HTML.escape("\(try row.string("purchase_amount")) \(try row.string("purchase_currency"))"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "Webhook endpoints", headers: ["Endpoint", "Family", "URL", "State", "Mode", "Actions"],
            rows: try project.subscriptions.map { row in
                let id = try row.string("id")
                let enabled = try row.int("enabled") != 0
                let failing = try row.int("fail_next")
                return [
                    HTML.escape(id), HTML.escape(try row.string("family")), HTML.escape(try row.string("url")),
                    (enabled ? "enabled" : "disabled") + (failing > 0 ? "; the next \(failing) fail" : ""),
                    try row.int("livemode") != 0 ? "live" : "test", endpointActions(id, enabled: enabled),
                ]
            })
        html += ConsolePage.table(
            caption: "Embedded crypto customers", headers: ["Customer", "Email", "Phone", "KYC", "Document", "Mode"],
            rows: try project.customers.map { row in
                let id = try row.string("id")
                return [
                    ConsolePage.link("/console/customers/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("email")), HTML.escape(try row.string("phone_status")),
                    HTML.escape(try row.string("kyc_status")), HTML.escape(try row.string("document_status")),
                    try row.int("livemode") != 0 ? "live" : "test",
                ]
            })
        html += ConsolePage.table(
            caption: "Embedded onramp sessions", headers: ["Session", "Customer", "Status", "Destination", "Created"],
            rows: try project.sessions.map { row in try Self.sessionCells(row) })
        html += ConsolePage.table(
            caption: "Headless orders", headers: ["Order", "Partner user", "Status", "Paid", "Bought", "Created"],
            rows: try project.orders.map { row in
                [
                    HTML.escape(try row.string("order_id")), HTML.escape(try row.string("partner_user_ref")),
                    HTML.escape(try row.string("status")),
                    HTML.escape("\(try row.string("payment_total")) \(try row.string("payment_currency"))"),
                    HTML.escape("\(try row.string("purchase_amount")) \(try row.string("purchase_currency"))"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "App2App challenges (newest 50)", headers: ["Challenge", "Purpose", "Created", "Expires", "Used"],
            rows: try project.challenges.map { row in
                [
                    HTML.escape(try row.string("id")), HTML.escape(try row.string("purpose")),
                    ConsolePage.time(try row.int("created_at")), ConsolePage.time(try row.int("expires_at")),
                    ConsolePage.time(row.optionalInt("used_at")),
                ]
            })
        return ("Project \(project.name)", html)
    }

    /// A session's row cells: id (linked), customer (linked), status, destination, created.
    private static func sessionCells(_ row: Row) throws -> [String] {
        let id = try row.string("id")
        let customer = try row.string("customer_id")
        return [
            ConsolePage.link("/console/onramp_sessions/\(ConsolePage.segment(id))", id),
            ConsolePage.link("/console/customers/\(ConsolePage.segment(customer))", customer),
            HTML.escape(try row.string("status")),
            HTML.escape("\(try row.string("destination_currency")) on \(try row.string("destination_network"))"),
            ConsolePage.time(try row.int("created_at")),
        ]
    }

    private func customer(_ id: String) throws -> (title: String, html: String) {
        guard let view = try database.read({ try ConsoleRepository(connection: $0).customer(id) }) else {
            throw HTTPError(status: 404, code: "not_found", message: "No crypto customer \(id).")
        }
        let row = view.customer
        let projectId = try row.string("project_id")
        let name = [row.optionalString("first_name"), row.optionalString("last_name")].compactMap { $0 }
        var html = ConsolePage.fields(
            [
                ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId)),
                ("Link consumer", HTML.escape(try row.string("consumer_id"))),
                ("Email", HTML.escape(view.consumer?.optionalString("email") ?? "—")),
                ("Phone", HTML.escape(view.consumer?.optionalString("phone") ?? "—")),
                ("Name", HTML.escape(name.isEmpty ? "—" : name.joined(separator: " "))),
                ("Id number", row.optionalString("id_number_last4").map { "•••• " + HTML.escape($0) } ?? "—"),
                (
                    "Lives in",
                    HTML.escape(
                        [row.optionalString("city"), row.optionalString("state"), row.optionalString("country")]
                            .compactMap { $0 }.joined(separator: ", "))
                ),
                ("Phone check (L0)", HTML.escape(try row.string("phone_status"))),
                ("KYC (L1)", HTML.escape(try row.string("kyc_status"))),
                ("Document (L2)", HTML.escape(try row.string("document_status"))),
                ("Mode", try row.int("livemode") != 0 ? "live" : "test"),
                ("Created", ConsolePage.time(try row.int("created_at"))),
            ])
        html += ConsolePage.table(
            caption: "Identity verifications", headers: ["Verification", "Status", "Created"],
            rows: try view.verifications.map { verification in
                [
                    HTML.escape(try verification.string("id")), HTML.escape(try verification.string("status")),
                    ConsolePage.time(try verification.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "Wallets", headers: ["Wallet", "Network", "Address", "Created"],
            rows: try view.wallets.map { wallet in
                [
                    HTML.escape(try wallet.string("id")), HTML.escape(try wallet.string("network")),
                    HTML.escape(try wallet.string("wallet_address")), ConsolePage.time(try wallet.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "Payment tokens (card and account details are never shown)",
            headers: ["Token", "Payment method", "Created"],
            rows: try view.paymentTokens.map { token in
                [
                    HTML.escape(try token.string("id")), HTML.escape(try token.string("payment_method_id")),
                    ConsolePage.time(try token.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "Onramp sessions", headers: ["Session", "Customer", "Status", "Destination", "Created"],
            rows: try view.sessions.map { try Self.sessionCells($0) })
        return ("Crypto customer \(id)", html)
    }

    private func onrampSession(_ id: String) throws -> (title: String, html: String) {
        let found = try database.read { connection -> (Row, [Row])? in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try repository.onrampSession(id) else { return nil }
            return (row, try repository.events(of: try row.string("project_id"), naming: id))
        }
        guard let (row, history) = found else {
            throw HTTPError(status: 404, code: "not_found", message: "No onramp session \(id).")
        }
        let projectId = try row.string("project_id")
        let customer = try row.string("customer_id")
        var html = ConsolePage.fields([
            ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId)),
            ("Customer", ConsolePage.link("/console/customers/\(ConsolePage.segment(customer))", customer)),
            ("Status", HTML.escape(try row.string("status"))),
            ("Last error", HTML.escape(row.optionalString("last_error") ?? "—")),
            (
                "Destination",
                HTML.escape("\(try row.string("destination_currency")) on \(try row.string("destination_network"))")
            ),
            ("Quote expires", ConsolePage.time(try row.int("quote_expires_at"))),
            ("3-D Secure", HTML.escape(row.optionalString("three_ds_status") ?? "—")),
            ("ACH mandate", try row.int("mandate_accepted") != 0 ? "accepted" : "—"),
            ("Transaction", HTML.escape(row.optionalString("transaction_id") ?? "—")),
            ("Mode", try row.int("livemode") != 0 ? "live" : "test"),
            ("Created", ConsolePage.time(try row.int("created_at"))),
            ("Updated", ConsolePage.time(try row.int("updated_at"))),
        ])
        html += ConsolePage.table(
            caption: "Transitions (events)", headers: ["Event", "Type", "Status", "Time"],
            rows: try history.map { event in
                let eventId = try event.string("id")
                let payload = try? JSONParser().parse(Array(try event.string("payload").utf8))
                return [
                    ConsolePage.link("/console/events/\(ConsolePage.segment(eventId))", eventId),
                    HTML.escape(try event.string("type")),
                    HTML.escape(payload?["data"]?["object"]?["status"]?.stringValue ?? "—"),
                    ConsolePage.time(try event.int("created_at")),
                ]
            })
        return ("Onramp session \(id)", html)
    }

    private func transaction(_ id: String, settled: String?) throws -> (title: String, html: String) {
        let found = try database.read { connection -> (Row, [Row])? in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try repository.transaction(id) else { return nil }
            return (row, try repository.events(of: try row.string("project_id"), naming: id))
        }
        guard let (row, history) = found else {
            throw HTTPError(status: 404, code: "not_found", message: "No transaction \(id).")
        }
        let projectId = try row.string("project_id")
        let shown = [
            "status", "partner_user_ref", "purchase_amount", "purchase_currency", "purchase_network", "payment_total",
            "payment_currency", "payment_method", "wallet_address", "country", "tx_hash",
        ]
        let status = try row.string("status")
        var html = settled == nil ? "" : "<p class=\"notice\" role=\"status\">Settled.</p>"
        if status == "ONRAMP_TRANSACTION_STATUS_CREATED" || status == "ONRAMP_TRANSACTION_STATUS_IN_PROGRESS" {
            html += """
                <form method="post" action="/console/transactions/\(ConsolePage.segment(id))/settle">
                <input type="hidden" name="csrf" value="\(access.csrfValue)">
                <button type="submit">Settle now</button></form>
                """
        }
        html += ConsolePage.fields(
            [("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId))]
                + shown.map { ($0, HTML.escape(row.optionalString($0) ?? "—")) }
                + [("created", ConsolePage.time(row.optionalInt("created_at")))])
        html += ConsolePage.table(
            caption: "State history (events)", headers: ["Event", "Type", "Time"],
            rows: try history.map { event in
                let eventId = try event.string("id")
                return [
                    ConsolePage.link("/console/events/\(ConsolePage.segment(eventId))", eventId),
                    HTML.escape(try event.string("type")), ConsolePage.time(try event.int("created_at")),
                ]
            })
        return ("Transaction \(id)", html)
    }

    private func events(type: String?) throws -> (title: String, html: String) {
        let rows = try database.read { try ConsoleRepository(connection: $0).events(type: type) }
        let filter = """
            <form method="get" action="/console/events" role="search"><label for="type">Event type</label>
            <input id="type" name="type" value="\(HTML.escape(type ?? ""))"> <button type="submit">Filter</button></form>
            """
        return (
            "Events",
            filter
                + ConsolePage.table(
                    caption: "Newest events", headers: ["Event", "Type", "Family", "Project", "Mode", "Time"],
                    rows: try rows.map { row in
                        let id = try row.string("id")
                        let projectId = try row.string("project_id")
                        return [
                            ConsolePage.link("/console/events/\(ConsolePage.segment(id))", id),
                            HTML.escape(try row.string("type")), HTML.escape(try row.string("family")),
                            ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId),
                            try row.int("livemode") != 0 ? "live" : "test", ConsolePage.time(try row.int("created_at")),
                        ]
                    })
        )
    }

    private func event(_ id: String, resent: String?) throws -> (title: String, html: String) {
        let found = try database.read { connection -> (Row, [(Row, [Row])])? in
            let repository = ConsoleRepository(connection: connection)
            guard let event = try repository.event(id) else { return nil }
            return (
                event,
                try repository.deliveries(of: id).map { ($0, try repository.attempts(of: try $0.string("id"))) }
            )
        }
        guard let (event, deliveries) = found else {
            throw HTTPError(status: 404, code: "not_found", message: "No event \(id).")
        }
        let live = try event.int("livemode") != 0
        let family = try event.string("family")
        let resendable = !(live && family == "stripe")
        let projectId = try event.string("project_id")
        let stored = try event.string("payload")
        let payload = (try? JSONParser().parse(Array(stored.utf8)))?.prettyPrinted ?? stored
        var html = resent == nil ? "" : "<p class=\"notice\" role=\"status\">Queued for delivery again.</p>"
        html += ConsolePage.fields([
            ("Type", HTML.escape(try event.string("type"))), ("Family", HTML.escape(try event.string("family"))),
            ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId)),
            ("Mode", live ? "live" : "test"), ("Created", ConsolePage.time(try event.int("created_at"))),
        ])
        html += "<h2>Body as sent</h2><pre>\(HTML.escape(payload))</pre>"
        for (delivery, attempts) in deliveries {
            let subscription = try delivery.string("subscription_id")
            let status = try delivery.string("status")
            html += "<h2>Delivery to \(HTML.escape(try delivery.string("url")))</h2>"
            html += ConsolePage.fields([
                ("Endpoint", HTML.escape(subscription)), ("Status", HTML.escape(status)),
                ("Attempts", String(try delivery.int("attempt_count"))),
                ("Next attempt", status == "pending" ? ConsolePage.time(try delivery.int("next_attempt_at")) : "—"),
            ])
            html += ConsolePage.table(
                caption: "Attempts", headers: ["Time", "Response status", "Latency", "Response excerpt", "Error"],
                rows: try attempts.map { attempt in
                    [
                        ConsolePage.time(try attempt.int("attempted_at")),
                        attempt.optionalInt("status_code").map { String($0) } ?? "—",
                        "\(try attempt.int("latency_ms")) ms",
                        HTML.escape(attempt.optionalString("response_excerpt") ?? ""),
                        HTML.escape(attempt.optionalString("error") ?? ""),
                    ]
                })
            if resendable {
                html += """
                    <form method="post" action="/console/events/\(ConsolePage.segment(id))/resend">
                    <input type="hidden" name="csrf" value="\(access.csrfValue)">
                    <input type="hidden" name="subscription" value="\(HTML.escape(subscription))">
                    <button type="submit">Resend to this endpoint</button></form>
                    """
            }
        }
        return ("Event \(id)", html)
    }

    /// The endpoint's action forms: enable or disable it, and fail its next deliveries.
    private func endpointActions(_ id: String, enabled: Bool) -> String {
        let action = "/console/endpoints/\(ConsolePage.segment(id))"
        let csrf = "<input type=\"hidden\" name=\"csrf\" value=\"\(access.csrfValue)\">"
        let label = "fail-\(HTML.escape(id))"
        return """
            <form method="post" action="\(action)">\(csrf)<input type="hidden" name="action" value="\(enabled ? "disable" : "enable")">
            <button type="submit">\(enabled ? "Disable" : "Enable")</button></form>
            <form method="post" action="\(action)">\(csrf)<input type="hidden" name="action" value="fail">
            <label for="\(label)">Fail the next</label>
            <input id="\(label)" name="count" type="number" min="0" max="100" value="1" required>
            <button type="submit">deliveries</button></form>
            """
    }

    private func changeEndpoint(_ id: String, form: JSONValue) throws -> HTTPResponse {
        let now = Timestamp.milliseconds(clock.now())
        let enabled: Bool?
        let failNext: Int64?
        switch form["action"]?.stringValue {
        case "enable": (enabled, failNext) = (true, nil)
        case "disable": (enabled, failNext) = (false, nil)
        case "fail":
            guard let text = form["count"]?.stringValue, text.count <= 3, text.allSatisfy(\.isNumber),
                let count = Int64(text), count <= 100
            else { throw HTTPError(status: 400, code: "invalid_request", message: "count is 0 to 100.") }
            (enabled, failNext) = (nil, count)
        default:
            throw HTTPError(status: 400, code: "invalid_request", message: "action is enable, disable or fail.")
        }
        guard
            let projectId = try database.transaction({
                try ConsoleRepository(connection: $0).changeEndpoint(id, enabled: enabled, failNext: failNext, now: now)
            })
        else { throw HTTPError(status: 404, code: "not_found", message: "No webhook endpoint \(id).") }
        return .seeOther("/console/projects/\(ConsolePage.segment(projectId))")
    }

    private func advanceClock(_ id: String, minutes text: String?) throws -> HTTPResponse {
        guard let text, text.allSatisfy(\.isNumber), let minutes = Int64(text), (1...43_200).contains(minutes) else {
            throw HTTPError(status: 400, code: "invalid_request", message: "Advance by 1 to 43,200 minutes.")
        }
        do {
            _ = try TestClocks(database: database, clock: clock).advance(projectId: id, seconds: minutes * 60)
        } catch TestClocks.Refusal.liveProject {
            throw HTTPError(
                status: 400, code: "invalid_request", message: "A live-mode project's clock cannot be moved.")
        } catch TestClocks.Refusal.unknownProject {
            throw HTTPError(status: 404, code: "not_found", message: "No project \(id).")
        }
        return .seeOther("/console/projects/\(ConsolePage.segment(id))?clock=advanced")
    }

    private func resend(_ id: String, subscription: String) throws -> HTTPResponse {
        let now = Timestamp.milliseconds(clock.now())
        let queued = try database.transaction {
            try ConsoleRepository(connection: $0).resend(eventId: id, subscriptionId: subscription, now: now)
        }
        guard queued else {
            throw HTTPError(
                status: 404, code: "not_found",
                message:
                    "No resendable delivery of event \(id) to endpoint \(subscription) (live Stripe events are not).")
        }
        return .seeOther("/console/events/\(ConsolePage.segment(id))?resent=1")
    }

    private func requests(id: String?) -> (title: String, html: String) {
        let search = """
            <form method="get" action="/console/requests" role="search"><label for="request_id">Request-Id</label>
            <input id="request_id" name="request_id" value="\(HTML.escape(id ?? ""))"> <button type="submit">Find</button></form>
            """
        return (
            "Requests",
            search
                + ConsolePage.table(
                    caption: "Last requests, newest first",
                    headers: ["Time", "Request-Id", "Method", "Route", "Status", "Latency", "Project"],
                    rows: requestLog.recent(requestId: id).prefix(500).map { entry in
                        [
                            ConsolePage.time(Timestamp.milliseconds(entry.time)), HTML.escape(entry.requestId),
                            HTML.escape(entry.method), HTML.escape(entry.route), String(entry.status),
                            String(format: "%.1f ms", entry.seconds * 1000),
                            entry.projectId.map { ConsolePage.link("/console/projects/\(ConsolePage.segment($0))", $0) }
                                ?? "—",
                        ]
                    })
        )
    }
}
