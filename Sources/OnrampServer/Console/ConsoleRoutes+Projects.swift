import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The console's project pages: every project, and one project with everything it holds.
extension ConsoleRoutes {
    /// Projects on one page of the list.
    static let projectsPerPage = 50

    /// Every project, newest first, a page older than `before` (the link's cursor) at a time.
    func projects(before: String?) throws -> (title: String, html: String) {
        let cursor = try ConsoleCursor.parse(before)
        let fetched = try database.read {
            try ConsoleRepository(connection: $0).projects(before: cursor, limit: Self.projectsPerPage + 1)
        }
        let rows = Array(fetched.prefix(Self.projectsPerPage))
        var html = ConsolePage.table(
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
        if fetched.count > rows.count, let last = rows.last {
            html += ConsoleCursor(time: try last.int("created_at"), id: try last.string("id")).olderLink(
                "/console", label: "Older projects")
        }
        return ("Projects", html)
    }

    /// Project `id`'s page; `notice` says what the action that led here did (`clock`: the test clock moved,
    /// `key`: a key was revoked).
    func project(_ id: String, notice: String?) throws -> (title: String, html: String) {
        let found = try database.read { connection in
            try ConsoleRepository(connection: connection).project(id).map {
                ($0, try TestClockRepository(connection: connection).offset(projectId: id))
            }
        }
        guard let (project, offset) = found else {
            throw ConsoleRefusal.notFound("No project \(id).")
        }
        let notices = ["clock": "The test clock moved.", "key": "The key is revoked: it is refused from now on."]
        var html = notice.flatMap { notices[$0] }.map { "<p class=\"notice\" role=\"status\">\($0)</p>" } ?? ""
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
            headers: ["Key id", "Kind", "Mode", "State", "Created", "Actions"],
            rows: try project.keys.map { row in
                let id = try row.string("id")
                let disabled = try row.int("disabled") != 0
                return [
                    HTML.escape(id), HTML.escape(try row.string("kind")),
                    try row.int("livemode") != 0 ? "live" : "test", disabled ? "revoked" : "active",
                    ConsolePage.time(try row.int("created_at")), disabled ? "" : revokeForm(id),
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
        for (list, rows) in project.lists {
            let shown = Array(rows.prefix(ConsoleProjectList.previewSize))
            html += ConsolePage.table(caption: list.caption, headers: list.headers, rows: try shown.map(list.cells))
            if rows.count > shown.count {
                html += ConsolePage.link(
                    "/console/projects/\(ConsolePage.segment(project.id))/lists/\(list.slug)",
                    "All \(list.caption.lowercased())")
            }
        }
        return ("Project \(project.name)", html)
    }

    /// One of a project's lists, newest first, a page of ``ConsoleProjectList/pageSize`` rows older than
    /// `before` (the link's cursor), with an "Older" link while there are more.
    func projectList(_ projectId: String, slug: String, before: String?) throws -> (title: String, html: String) {
        guard let list = ConsoleProjectList.named(slug) else {
            throw ConsoleRefusal.notFound("No list \(slug).")
        }
        let cursor = try ConsoleCursor.parse(before)
        let fetched = try database.read { connection -> [Row]? in
            guard try ConsoleRepository(connection: connection).projectExists(projectId) else { return nil }
            return try list.rows(
                connection, projectId: projectId, before: cursor, limit: ConsoleProjectList.pageSize + 1)
        }
        guard let fetched else { throw ConsoleRefusal.notFound("No project \(projectId).") }
        let rows = Array(fetched.prefix(ConsoleProjectList.pageSize))
        let path = "/console/projects/\(ConsolePage.segment(projectId))"
        var html = "<p>" + ConsolePage.link(path, "Back to project \(projectId)") + "</p>"
        html += ConsolePage.table(caption: list.caption, headers: list.headers, rows: try rows.map(list.cells))
        if fetched.count > rows.count, let last = rows.last {
            html += try list.cursor(after: last).olderLink("\(path)/lists/\(list.slug)", label: "Older")
        }
        return ("\(list.caption) of \(projectId)", html)
    }

    /// The endpoint's action forms: enable or disable it, and fail its next deliveries.
    /// The "Revoke" button of key `id`.
    func revokeForm(_ id: String) -> String {
        """
        <form method="post" action="/console/keys/revoke"><input type="hidden" name="csrf" value="\(access.csrfValue)">
        <input type="hidden" name="key" value="\(HTML.escape(id))"><button type="submit">Revoke</button></form>
        """
    }

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
