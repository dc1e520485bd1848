import HTTPServer
import OnrampServices
import OnrampStore
import OnrampWire

/// One of the lists a project's console page shows (its App2App transactions, Headless orders, …): newest
/// first, the first ``previewSize`` rows on the project page, every row on a page of its own
/// (`/console/projects/{id}/lists/{slug}`) in pages of ``pageSize``, keyset-paged on its time and id so a
/// page is as cheap as the first however many rows the project has.
struct ConsoleProjectList: Sendable {
    /// Rows on the project page.
    static let previewSize = 20
    /// Rows on a page of the list.
    static let pageSize = 50

    /// The list's path segment.
    let slug: String
    /// Its table's caption.
    let caption: String
    /// Its columns' headers.
    let headers: [String]
    /// The table the rows come from; a constant, never client input.
    let table: String
    /// The column that identifies a row (the tie-breaker of the order).
    let idColumn: String
    /// The column the list is ordered by, newest first.
    let timeColumn: String
    /// The columns read (at least those ``cells`` uses).
    let columns: String
    /// A row's already-escaped cells.
    let cells: @Sendable (Row) throws -> [String]

    /// The list with `slug`; nil when there is none.
    static func named(_ slug: String) -> ConsoleProjectList? { all.first { $0.slug == slug } }

    /// Every paged list, in the order the project page shows them.
    static let all: [ConsoleProjectList] = [
        ConsoleProjectList(
            slug: "transactions", caption: "App2App transactions",
            headers: ["Transaction", "Partner user", "Status", "Paid", "Bought", "Created"],
            table: "onramp_transactions", idColumn: "transaction_id", timeColumn: "created_at",
            columns: """
                transaction_id, partner_user_ref, status, payment_total, payment_currency, purchase_amount,
                purchase_currency, created_at
                """,
            cells: { row in
                let id = try row.string("transaction_id")
                return [
                    ConsolePage.link("/console/transactions/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("partner_user_ref")), HTML.escape(try row.string("status")),
                    try amount(row, "payment_total", "payment_currency"),
                    try amount(row, "purchase_amount", "purchase_currency"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            }),
        ConsoleProjectList(
            slug: "purchase_sessions", caption: "App2App purchase sessions (by challenge; never the token)",
            headers: ["Challenge", "Key id", "Environment", "Created", "Expires", "Opened", "Outcome", "Transaction"],
            table: "purchase_sessions", idColumn: "challenge_id", timeColumn: "created_at",
            columns: "challenge_id, key_id, environment, created_at, expires_at, opened_at, outcome, transaction_id",
            cells: { row in
                [
                    HTML.escape(try row.string("challenge_id")),
                    HTML.escape(String(try row.string("key_id").prefix(16)) + "…"),
                    HTML.escape(try row.string("environment")), ConsolePage.time(try row.int("created_at")),
                    ConsolePage.time(try row.int("expires_at")), ConsolePage.time(row.optionalInt("opened_at")),
                    HTML.escape(row.optionalString("outcome") ?? "—"),
                    row.optionalString("transaction_id").map {
                        ConsolePage.link("/console/transactions/\(ConsolePage.segment($0))", $0)
                    } ?? "—",
                ]
            }),
        ConsoleProjectList(
            slug: "orders", caption: "Headless orders",
            headers: ["Order", "Partner user", "Status", "Paid", "Bought", "Created"],
            table: "onramp_orders", idColumn: "order_id", timeColumn: "created_at",
            columns: """
                order_id, partner_user_ref, status, payment_total, payment_currency, purchase_amount,
                purchase_currency, created_at
                """,
            cells: { row in
                let id = try row.string("order_id")
                return [
                    ConsolePage.link("/console/orders/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("partner_user_ref")), HTML.escape(try row.string("status")),
                    try amount(row, "payment_total", "payment_currency"),
                    try amount(row, "purchase_amount", "purchase_currency"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            }),
        ConsoleProjectList(
            slug: "hosted_sessions", caption: "Hosted onramp sessions",
            headers: ["Session", "Kind", "Created", "Opened", "Outcome"],
            table: "hosted_onramp_sessions", idColumn: "id", timeColumn: "created_at",
            columns: "id, kind, created_at, opened_at, outcome",
            cells: { row in
                let id = try row.string("id")
                return [
                    ConsolePage.link("/console/hosted_sessions/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("kind")), ConsolePage.time(try row.int("created_at")),
                    ConsolePage.time(row.optionalInt("opened_at")), HTML.escape(row.optionalString("outcome") ?? "—"),
                ]
            }),
        ConsoleProjectList(
            slug: "sells", caption: "Sells (offramp transactions)",
            headers: ["Sell", "Partner user", "Status", "Sold", "Cash out", "Created"],
            table: "offramp_transactions", idColumn: "transaction_id", timeColumn: "created_at",
            columns:
                "transaction_id, partner_user_ref, status, sell_amount, asset, total, cashout_currency, created_at",
            cells: { row in
                let id = try row.string("transaction_id")
                return [
                    ConsolePage.link("/console/sells/\(ConsolePage.segment(id))", id),
                    HTML.escape(try row.string("partner_user_ref")), HTML.escape(try row.string("status")),
                    try amount(row, "sell_amount", "asset"), try amount(row, "total", "cashout_currency"),
                    ConsolePage.time(try row.int("created_at")),
                ]
            }),
        ConsoleProjectList(
            slug: "customers", caption: "Embedded crypto customers",
            headers: ["Customer", "Email", "Phone", "KYC", "Document", "Mode"],
            table: "crypto_customers", idColumn: "id", timeColumn: "created_at",
            columns: """
                id, livemode, phone_status, kyc_status, document_status, created_at,
                (SELECT email FROM link_consumers l WHERE l.id = consumer_id) AS email
                """,
            cells: { row in
                let id = try row.string("id")
                return [
                    ConsolePage.link("/console/customers/\(ConsolePage.segment(id))", id),
                    HTML.escape(row.optionalString("email") ?? "—"), HTML.escape(try row.string("phone_status")),
                    HTML.escape(try row.string("kyc_status")), HTML.escape(try row.string("document_status")),
                    try row.int("livemode") != 0 ? "live" : "test",
                ]
            }),
        ConsoleProjectList(
            slug: "onramp_sessions", caption: "Embedded onramp sessions",
            headers: ["Session", "Customer", "Status", "Destination", "Created"],
            table: "crypto_onramp_sessions", idColumn: "id", timeColumn: "created_at",
            columns: "id, customer_id, status, destination_currency, destination_network, created_at",
            cells: { row in try ConsoleRoutes.sessionCells(row) }),
        ConsoleProjectList(
            slug: "attest_keys", caption: "App Attest keys",
            headers: ["App ID", "Key id", "Environment", "Counter", "Attested"],
            table: "app_attest_keys", idColumn: "key_id", timeColumn: "attested_at",
            columns: "app_id, key_id, environment, counter, attested_at",
            cells: { row in
                [
                    HTML.escape(try row.string("app_id")),
                    HTML.escape(String(try row.string("key_id").prefix(16)) + "…"),
                    HTML.escape(try row.string("environment")), String(try row.int("counter")),
                    ConsolePage.time(try row.int("attested_at")),
                ]
            }),
        ConsoleProjectList(
            slug: "challenges", caption: "App2App challenges",
            headers: ["Challenge", "Purpose", "Created", "Expires", "Used"],
            table: "attestation_challenges", idColumn: "id", timeColumn: "created_at",
            columns: "id, purpose, created_at, expires_at, used_at",
            cells: { row in
                [
                    HTML.escape(try row.string("id")), HTML.escape(try row.string("purpose")),
                    ConsolePage.time(try row.int("created_at")), ConsolePage.time(try row.int("expires_at")),
                    ConsolePage.time(row.optionalInt("used_at")),
                ]
            }),
    ]

    /// A decimal amount and its currency, escaped.
    private static func amount(_ row: Row, _ value: String, _ currency: String) throws -> String {
        HTML.escape("\(try row.string(value)) \(try row.string(currency))")
    }

    /// The list's rows of `projectId` older than `before` (a page's last row) when given, at most `limit`.
    func rows(
        _ connection: any SQLConnection, projectId: String, before: ConsoleCursor?, limit: Int
    ) throws -> [Row] {
        var filter = "project_id = ?"
        var values: [SQLValue] = [.text(projectId)]
        if let before {
            filter += " AND (\(timeColumn) < ? OR (\(timeColumn) = ? AND \(idColumn) < ?))"
            values += [.integer(before.time), .integer(before.time), .text(before.id)]
        }
        return try connection.query(
            """
            SELECT \(columns) FROM \(table) WHERE \(filter)
            ORDER BY \(timeColumn) DESC, \(idColumn) DESC LIMIT ?
            """, values + [.integer(Int64(limit))])
    }

    /// The cursor after `row`, the last of a page.
    func cursor(after row: Row) throws -> ConsoleCursor {
        ConsoleCursor(time: try row.int(timeColumn), id: try row.string(idColumn))
    }
}

/// Where a newest-first console list continues: the time and id of the last row shown, carried in an
/// "Older" link as `time.id`.
struct ConsoleCursor: Sendable, Equatable {
    let time: Int64
    let id: String

    init(time: Int64, id: String) {
        self.time = time
        self.id = id
    }

    /// Reads the link's text; `nil` when it is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let time = Int64(parts[0]), !parts[1].isEmpty, parts[1].utf8.count <= 128 else {
            return nil
        }
        self.init(time: time, id: String(parts[1]))
    }

    /// The link's text.
    var text: String { "\(time).\(id)" }

    /// The cursor a `before` query value names (nil without one), or a 400 when it is not a page link.
    static func parse(_ before: String?) throws(ConsoleRefusal) -> ConsoleCursor? {
        guard let before else { return nil }
        guard let cursor = ConsoleCursor(before) else {
            throw ConsoleRefusal.invalid("before is not a page link.")
        }
        return cursor
    }

    /// The "Older" navigation to `path` with this cursor as `before` and `query` beside it.
    func olderLink(_ path: String, label: String, query: [(String, String)] = []) -> String {
        let parameters = [("before", text)] + query
        let link = path + "?" + parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        return "<nav aria-label=\"Pages\"><a rel=\"next\" href=\"\(HTML.escape(link))\">\(HTML.escape(label))</a></nav>"
    }
}
