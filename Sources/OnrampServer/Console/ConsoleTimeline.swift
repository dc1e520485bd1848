import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore

/// One purchase's story on its console page, oldest first: the requests that acted on it (from the request
/// log, while it keeps them), its steps, each event it caused and every delivery attempt of each, so a
/// purchase can be followed from the first call to the last webhook on one page.
struct ConsoleTimeline {
    /// One line: when, what happened, and its details (already-escaped HTML).
    private struct Line {
        let time: Int64
        /// Orders lines of the same millisecond: a request before the steps it made, a step before its event,
        /// an event before its deliveries.
        let rank: Int
        let what: String
        let detail: String
    }

    private var lines: [Line] = []

    /// Adds a step at `time` (skipped when the step has not happened).
    mutating func add(_ time: Int64?, _ what: String, _ detail: String = "") {
        add(time, rank: 1, what, detail)
    }

    private mutating func add(_ time: Int64?, rank: Int, _ what: String, _ detail: String) {
        guard let time else { return }
        lines.append(Line(time: time, rank: rank, what: what, detail: detail))
    }

    /// Adds the steps of the hosted session (a buy or sell page) that made a purchase, when one did, and
    /// puts its id among the `subjects` whose requests the timeline shows.
    mutating func add(hostedOrigin session: Row?, subjects: inout Set<String>) throws {
        guard let session else { return }
        let id = try session.string("id")
        subjects.insert(id)
        let link = ConsolePage.link("/console/hosted_sessions/\(ConsolePage.segment(id))", id)
        let page = session.optionalString("flow") == HostedOnrampSession.Flow.sell.rawValue ? "sell page" : "buy page"
        add(try session.int("created_at"), "hosted session created (\(HTML.escape(try session.string("kind"))))", link)
        add(session.optionalInt("opened_at"), "hosted \(page) opened", link)
    }

    /// Adds the requests at the time each began, each linked to its place in the request log, with its
    /// refusal if it had one.
    mutating func add(requests: [RequestLog.Entry]) {
        for entry in requests {
            let refusal = entry.errorCode.map { " <code>\(HTML.escape($0))</code>" } ?? ""
            add(
                Timestamp.milliseconds(entry.time.addingTimeInterval(-entry.seconds)), rank: 0,
                "request \(HTML.escape(entry.method)) \(HTML.escape(entry.route)) → \(entry.status)\(refusal)",
                ConsoleRoutes.requestLink(entry.requestId))
        }
    }

    /// Adds the events and, after each, its deliveries' attempts.
    mutating func add(events: [ConsoleRepository.DeliveredEvent]) throws {
        for (event, deliveries) in events {
            let id = try event.string("id")
            add(
                try event.int("created_at"), rank: 2, "event \(HTML.escape(try event.string("type")))",
                ConsolePage.link("/console/events/\(ConsolePage.segment(id))", id))
            for (delivery, attempts) in deliveries {
                let url = HTML.escape(try delivery.string("url"))
                for attempt in attempts {
                    let outcome =
                        attempt.optionalInt("status_code").map { "answered \($0)" }
                        ?? "failed: \(HTML.escape(attempt.optionalString("error") ?? "no answer"))"
                    let latency = attempt.optionalInt("latency_ms").map { " in \($0) ms" } ?? ""
                    add(try attempt.int("attempted_at"), rank: 3, "delivery to \(url)", "\(outcome)\(latency)")
                }
            }
        }
    }

    /// The timeline as a table.
    var html: String {
        ConsolePage.table(
            caption: "Timeline: requests, steps, events and delivery attempts", headers: ["Time", "What", "Detail"],
            rows: lines.enumerated().sorted {
                ($0.element.time, $0.element.rank, $0.offset) < ($1.element.time, $1.element.rank, $1.offset)
            }.map {
                [ConsolePage.time($0.element.time), $0.element.what, $0.element.detail]
            })
    }
}
