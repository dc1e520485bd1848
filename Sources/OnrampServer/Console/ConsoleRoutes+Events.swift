import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The console's event pages and request log.
extension ConsoleRoutes {
    /// Events on one page of the list.
    static let eventsPerPage = 50

    func events(type: String?, before: String?) throws -> (title: String, html: String) {
        let cursor = try ConsoleCursor.parse(before)
        // One more than a page: whether an older page exists.
        let fetched = try database.read {
            try ConsoleRepository(connection: $0).events(type: type, before: cursor, limit: Self.eventsPerPage + 1)
        }
        let rows = Array(fetched.prefix(Self.eventsPerPage))
        var older = ""
        if fetched.count > Self.eventsPerPage, let last = rows.last {
            older = ConsoleCursor(time: try last.int("created_at"), id: try last.string("id")).olderLink(
                "/console/events", label: "Older events", query: type.map { [("type", $0)] } ?? [])
        }
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
                            ConsolePage.mode(family: try row.string("family"), livemode: try row.int("livemode") != 0),
                            ConsolePage.time(try row.int("created_at")),
                        ]
                    }) + older
        )
    }

    func event(_ id: String, resent: String?) throws -> (title: String, html: String) {
        let found = try database.read { connection -> (Row, [(Row, [Row])])? in
            let repository = ConsoleRepository(connection: connection)
            guard let event = try repository.event(id) else { return nil }
            return (
                event,
                try repository.deliveries(of: id).map { ($0, try repository.attempts(of: try $0.string("id"))) }
            )
        }
        guard let (event, deliveries) = found else {
            throw ConsoleRefusal.notFound("No event \(id).")
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
            ("Mode", ConsolePage.mode(family: family, livemode: live)),
            ("Created", ConsolePage.time(try event.int("created_at"))),
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
                caption: "Attempts",
                headers: ["Time", "Request headers", "Response status", "Latency", "Response excerpt", "Error"],
                rows: try attempts.map { attempt in
                    [
                        ConsolePage.time(try attempt.int("attempted_at")),
                        Self.headerLines(attempt.optionalString("request_headers")),
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

    /// An attempt's stored request headers, one escaped `name: value` line each ("not sent" without any).
    static func headerLines(_ stored: String?) -> String {
        guard let stored, let pairs = (try? JSONParser().parse(Array(stored.utf8)))?.arrayValue else {
            return "not sent"
        }
        return pairs.compactMap { pair -> String? in
            guard let fields = pair.arrayValue, fields.count == 2, let name = fields[0].stringValue,
                let value = fields[1].stringValue
            else { return nil }
            return "<code>\(HTML.escape(name)): \(HTML.escape(value))</code>"
        }.joined(separator: "<br>")
    }

    func requests(id: String?) -> (title: String, html: String) {
        let search = """
            <form method="get" action="/console/requests" role="search"><label for="request_id">Request-Id</label>
            <input id="request_id" name="request_id" value="\(HTML.escape(id ?? ""))"> <button type="submit">Find</button></form>
            """
        return (
            "Requests",
            search
                + ConsolePage.table(
                    caption: "Last requests, newest first",
                    headers: ["Time", "Request-Id", "Method", "Route", "Status", "Latency", "Project", "Refusal"],
                    rows: requestLog.recent(requestId: id).prefix(500).map { entry in
                        [
                            ConsolePage.time(Timestamp.milliseconds(entry.time)), Self.requestLink(entry.requestId),
                            HTML.escape(entry.method), HTML.escape(entry.route), String(entry.status),
                            String(format: "%.1f ms", entry.seconds * 1000),
                            entry.projectId.map { ConsolePage.link("/console/projects/\(ConsolePage.segment($0))", $0) }
                                ?? "—",
                            entry.errorCode.map {
                                "<code>\(HTML.escape($0))</code> \(HTML.escape(entry.errorMessage ?? ""))"
                            } ?? "—",
                        ]
                    })
        )
    }

    /// A link to request `id`'s page.
    static func requestLink(_ id: String) -> String {
        ConsolePage.link("/console/requests/\(ConsolePage.segment(id))", id)
    }

    /// One request as this instance's request log keeps it: route, status, latency, project, refusal, the
    /// objects it acted on, and both bodies with their secrets redacted; a 404 once the log has dropped it.
    func request(_ id: String) throws -> (title: String, html: String) {
        guard let entry = requestLog.recent(requestId: id).first else {
            throw ConsoleRefusal.notFound(
                "No request \(id) in this instance's request log: it keeps the last requests only.")
        }
        let fields: [(String, String)] = [
            ("Time", ConsolePage.time(Timestamp.milliseconds(entry.time))),
            ("Route", HTML.escape("\(entry.method) \(entry.route)")), ("Status", String(entry.status)),
            ("Latency", String(format: "%.1f ms", entry.seconds * 1000)),
            (
                "Project",
                entry.projectId.map { ConsolePage.link("/console/projects/\(ConsolePage.segment($0))", $0) } ?? "—"
            ),
            ("Error code", entry.errorCode.map { "<code>\(HTML.escape($0))</code>" } ?? "—"),
            ("Error message", HTML.escape(entry.errorMessage ?? "—")),
            (
                "Acted on",
                entry.subjects.isEmpty
                    ? "—"
                    : entry.subjects.map { "<code>\(HTML.escape($0))</code>" }
                        .joined(separator: " ")
            ),
        ]
        func body(_ caption: String, _ text: String?) -> String {
            "<h2>\(caption)</h2><pre>\(HTML.escape(text ?? "(none)"))</pre>"
        }
        return (
            "Request \(id)",
            ConsolePage.fields(fields)
                + body("Request body (secrets, card details and tokens redacted)", entry.requestBody)
                + body("Response body (redacted the same way)", entry.responseBody)
        )
    }
}
