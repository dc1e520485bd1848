import Foundation
import HTTPServer
import OnrampServices

/// The console's layout: landmarks (header, nav, main), a skip link, tables with captions and
/// headers that fit a 1280-pixel window (long ids wrap anywhere) and scroll sideways on a phone, and no
/// script at all. Every value a client
/// supplied goes through ``HTML/escape(_:)``; nothing else is interpolated.
enum ConsolePage {
    /// A whole page.
    static func render(title: String, csrf: String, body: String, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse.html(
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · OnrampKit console</title>
            <style>\(style)</style>
            </head>
            <body>
            <a class="skip" href="#content">Skip to content</a>
            <header><span class="brand">OnrampKit console</span>
            <nav aria-label="Console"><a href="/console">Projects</a> <a href="/console/events">Events</a>
            <a href="/console/requests">Requests</a> <a href="/console/availability">Availability</a></nav>
            <form method="post" action="/console/logout"><input type="hidden" name="csrf" value="\(csrf)">
            <button type="submit">Sign out</button></form></header>
            <main id="content"><h1>\(HTML.escape(title))</h1>
            \(body)
            </main>
            </body>
            </html>
            """, status: status)
        response.headers.set("Referrer-Policy", "same-origin")
        return response
    }

    /// A table: `rows` are already-escaped cells.
    static func table(caption: String, headers: [String], rows: [[String]]) -> String {
        guard !rows.isEmpty else { return "<p class=\"empty\">\(HTML.escape(caption)): none.</p>" }
        let head = headers.map { "<th scope=\"col\">\(HTML.escape($0))</th>" }.joined()
        let body = rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined(separator: "\n")
        return """
            <div class="scroll"><table><caption>\(HTML.escape(caption))</caption>
            <thead><tr>\(head)</tr></thead><tbody>
            \(body)
            </tbody></table></div>
            """
    }

    /// A definition list of already-escaped values.
    static func fields(_ pairs: [(String, String)]) -> String {
        "<dl>" + pairs.map { "<dt>\(HTML.escape($0.0))</dt><dd>\($0.1)</dd>" }.joined() + "</dl>"
    }

    /// A link whose target and text are escaped.
    static func link(_ path: String, _ text: String) -> String {
        "<a href=\"\(HTML.escape(path))\">\(HTML.escape(text))</a>"
    }

    /// An event's mode as its family means it: Stripe's events are test or live by the key that caused them;
    /// Coinbase's webhooks have no mode (a sandbox purchase sends none), so theirs says so instead of "live".
    static func mode(family: String, livemode: Bool) -> String {
        family == "stripe"
            ? (livemode ? "live" : "test") : "<span title=\"Coinbase webhooks have no test mode\">—</span>"
    }

    /// A stored millisecond time as RFC 3339.
    static func time(_ milliseconds: Int64?) -> String {
        milliseconds.map { Timestamp.rfc3339(milliseconds: $0) } ?? "—"
    }

    /// A path segment for an id (percent-encoded).
    static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: asciiIdCharacters) ?? ""
    }

    /// Letters and digits of ASCII, `-`, `_` and `.`: what an id may carry into a path unescaped.
    private static let asciiIdCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")

    private static let style = """
        :root { color-scheme: light dark; --accent: #0a7d5a; --muted: #5f6b7a; --card: #fff; --bg: #eef2f5; --text: #14202b; --line: #d5dde4; }
        @media (prefers-color-scheme: dark) { :root { --card: #17212b; --bg: #0d141b; --text: #e8eef3; --muted: #9aa7b4; --line: #2a3947; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .75rem 1.25rem; background: var(--card); border-bottom: 1px solid var(--line); }
        header form { margin-left: auto; }
        .brand { font-weight: 700; color: var(--accent); }
        nav a { margin-right: 1rem; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
        .skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: var(--card); padding: .25rem .5rem; }
        main { max-width: 72rem; margin: 0 auto; padding: 1.25rem; }
        h1 { font-size: 1.35rem; overflow-wrap: anywhere; } h2 { font-size: 1.1rem; margin-top: 1.75rem; }
        .scroll { overflow-x: auto; background: var(--card); border-radius: .75rem; border: 1px solid var(--line); margin: .5rem 0 1rem; }
        table { border-collapse: collapse; width: 100%; min-width: 40rem; font-variant-numeric: tabular-nums; }
        caption { text-align: left; padding: .6rem .75rem; font-weight: 600; }
        th, td { text-align: left; padding: .45rem .75rem; border-top: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
        th { color: var(--muted); font-weight: 600; white-space: nowrap; }
        td form { display: inline-block; margin: 0 .25rem .25rem 0; } td input[type=number] { width: 4.5rem; }
        dl { display: grid; grid-template-columns: minmax(8rem, auto) 1fr; gap: .3rem 1rem; background: var(--card); padding: .75rem 1rem; border-radius: .75rem; border: 1px solid var(--line); }
        dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
        pre { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: .75rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
        button { font: inherit; font-weight: 600; border-radius: .5rem; padding: .35rem .8rem; border: 2px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
        input, select { font: inherit; padding: .4rem .6rem; border-radius: .5rem; border: 1px solid var(--muted); background: var(--card); color: var(--text); }
        .empty, .note { color: var(--muted); }
        .notice { background: #dff5ea; color: #0b4d36; border-radius: .5rem; padding: .5rem .75rem; }
        """
}
