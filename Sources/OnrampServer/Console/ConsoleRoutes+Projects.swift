import Foundation
import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// The console's project pages: every project, and one project with everything it holds.
extension ConsoleRoutes {
    func projects() throws -> (title: String, html: String) {
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

    func project(_ id: String, advanced: String?) throws -> (title: String, html: String) {
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
                    ConsolePage.link(
                        "/console/orders/\(ConsolePage.segment(try row.string("order_id")))", try row.string("order_id")
                    ),
                    HTML.escape(try row.string("partner_user_ref")),
                    HTML.escape(try row.string("status")),
                    HTML.escape("\(try row.string("payment_total")) \(try row.string("payment_currency"))"),
                    HTML.escape("\(try row.string("purchase_amount")) \(try row.string("purchase_currency"))"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            })
        html += ConsolePage.table(
            caption: "Hosted onramp sessions", headers: ["Session", "Kind", "Created", "Opened", "Outcome"],
            rows: try project.hostedSessions.map { row in
                let id = try row.string("id")
                return [
                    ConsolePage.link("/console/hosted_sessions/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("kind")), ConsolePage.time(try row.int("created_at")),
                    ConsolePage.time(row.optionalInt("opened_at")), HTML.escape(row.optionalString("outcome") ?? "—"),
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

    /// The endpoint's action forms: enable or disable it, and fail its next deliveries.
    func endpointActions(_ id: String, enabled: Bool) -> String {
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
}
