import OnrampServices
import OnrampStore

/// The console's reads over one read transaction's connection, and its one write (resend). Each
/// list is bounded; nothing here returns a secret (keys are shown by id, which is their prefix).
struct ConsoleRepository {
    let connection: any SQLConnection

    /// A project with everything the console shows of it.
    struct ProjectView {
        let id: String
        let name: String
        let app2AppEnabled: Bool
        let environments: String
        let appIds: [String]
        let redirectHosts: [String]
        let keys: [Row]
        let subscriptions: [Row]
        /// Each paged list with its newest rows (one more than the preview shows, when there are more).
        let lists: [(list: ConsoleProjectList, rows: [Row])]
    }

    /// An Embedded crypto customer with its Link consumer and what it owns.
    struct CustomerView {
        let customer: Row
        let consumer: Row?
        let wallets: [Row]
        let paymentTokens: [Row]
        let sessions: [Row]
        let verifications: [Row]
    }

    /// Projects newest first, older than `before` when given (a page's last project), at most `limit`,
    /// each with its transaction and event counts.
    func projects(before: ConsoleCursor?, limit: Int) throws -> [Row] {
        var filter = ""
        var values: [SQLValue] = []
        if let before {
            filter = "WHERE p.created_at < ? OR (p.created_at = ? AND p.id < ?)"
            values = [.integer(before.time), .integer(before.time), .text(before.id)]
        }
        return try connection.query(
            """
            SELECT p.id, p.name, p.app2app_enabled, p.created_at,
                (SELECT COUNT(*) FROM onramp_transactions t WHERE t.project_id = p.id) AS transactions,
                (SELECT COUNT(*) FROM outbox_events e WHERE e.project_id = p.id) AS events
            FROM projects p \(filter) ORDER BY p.created_at DESC, p.id DESC LIMIT ?
            """, values + [.integer(Int64(limit))])
    }

    /// Whether project `id` exists.
    func projectExists(_ id: String) throws -> Bool {
        try !connection.query("SELECT 1 AS one FROM projects WHERE id = ?", [.text(id)]).isEmpty
    }

    /// One project; nil when there is none.
    func project(_ id: String) throws -> ProjectView? {
        guard let row = try connection.query("SELECT * FROM projects WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let parameter: [SQLValue] = [.text(id)]
        return ProjectView(
            id: try row.string("id"), name: try row.string("name"), app2AppEnabled: try row.int("app2app_enabled") != 0,
            environments: try row.string("allowed_environments"),
            appIds: try connection.query(
                "SELECT app_id FROM project_app_ids WHERE project_id = ? ORDER BY app_id", parameter
            ).map { try $0.string("app_id") },
            redirectHosts: try connection.query(
                "SELECT host FROM project_redirect_hosts WHERE project_id = ? ORDER BY host", parameter
            ).map { try $0.string("host") },
            keys: try connection.query(
                "SELECT id, kind, livemode, disabled, created_at FROM api_keys WHERE project_id = ? ORDER BY created_at",
                parameter),
            subscriptions: try connection.query(
                """
                SELECT id, family, url, enabled, livemode, fail_next FROM webhook_subscriptions WHERE project_id = ?
                ORDER BY created_at
                """, parameter),
            lists: try ConsoleProjectList.all.map { list in
                (list, try list.rows(connection, projectId: id, before: nil, limit: ConsoleProjectList.previewSize + 1))
            })
    }

    /// One hosted onramp session (never its token or page secret); nil when there is none.
    func hostedSession(_ id: String) throws -> Row? {
        try connection.query(
            """
            SELECT id, project_id, kind, flow, destinations, assets, presets, created_at, expires_at, opened_at,
                outcome, transaction_id
            FROM hosted_onramp_sessions WHERE id = ?
            """, [.text(id)]
        ).first
    }

    /// The hosted session (a buy or a sell page) that made transaction or sell `transactionId`; nil for one
    /// made otherwise (App2App, `onramp trigger`).
    func hostedSession(forTransaction transactionId: String) throws -> Row? {
        try connection.query(
            "SELECT id, kind, flow, created_at, opened_at, outcome FROM hosted_onramp_sessions WHERE transaction_id = ?",
            [.text(transactionId)]
        ).first
    }

    /// One sell (offramp transaction); nil when there is none.
    func sell(_ id: String) throws -> Row? {
        try connection.query("SELECT * FROM offramp_transactions WHERE transaction_id = ?", [.text(id)]).first
    }

    /// One crypto customer with what it owns; nil when there is none. Only the last four digits of an id
    /// number exist here, and payment tokens are listed without their card or account details.
    func customer(_ id: String) throws -> CustomerView? {
        guard
            let customer = try connection.query(
                """
                SELECT id, project_id, consumer_id, livemode, first_name, last_name, id_number_last4, dob, city,
                    state, country, phone_status, kyc_status, document_status, created_at
                FROM crypto_customers WHERE id = ?
                """, [.text(id)]
            ).first
        else { return nil }
        let parameter: [SQLValue] = [.text(id)]
        return CustomerView(
            customer: customer,
            consumer: try connection.query(
                "SELECT email, phone, country, legal_name, created_at FROM link_consumers WHERE id = ?",
                [.text(try customer.string("consumer_id"))]
            ).first,
            wallets: try connection.query(
                """
                SELECT id, network, wallet_address, livemode, created_at FROM crypto_wallets WHERE customer_id = ?
                ORDER BY created_at, id
                """, parameter),
            paymentTokens: try connection.query(
                """
                SELECT id, payment_method_id, created_at FROM payment_tokens WHERE customer_id = ?
                ORDER BY created_at, id
                """, parameter),
            sessions: try connection.query(
                """
                SELECT id, customer_id, status, destination_currency, destination_network, created_at
                FROM crypto_onramp_sessions WHERE customer_id = ? ORDER BY created_at DESC, id LIMIT 100
                """, parameter),
            verifications: try connection.query(
                """
                SELECT id, status, created_at FROM identity_verifications WHERE customer_id = ?
                ORDER BY created_at, id
                """, parameter))
    }

    /// One Embedded onramp session; nil when there is none.
    func onrampSession(_ id: String) throws -> Row? {
        try connection.query(
            """
            SELECT id, project_id, customer_id, livemode, status, last_error, destination_currency,
                destination_network, quote_expires_at, three_ds_status, mandate_accepted, transaction_id,
                created_at, updated_at
            FROM crypto_onramp_sessions WHERE id = ?
            """, [.text(id)]
        ).first
    }

    /// One App2App transaction; nil when there is none.
    func transaction(_ id: String) throws -> Row? {
        try connection.query("SELECT * FROM onramp_transactions WHERE transaction_id = ?", [.text(id)]).first
    }

    /// The transaction of the purchase whose redirect carried `redirectTransactionId` (the redirect's id is
    /// not the transaction's, as Coinbase's is not); nil when no redirect carried it.
    func transaction(ofRedirect redirectTransactionId: String) throws -> String? {
        try connection.query(
            "SELECT transaction_id FROM purchase_sessions WHERE redirect_transaction_id = ?",
            [.text(redirectTransactionId)]
        ).first?.optionalString("transaction_id")
    }

    /// The purchase session that made App2App transaction `transactionId`, with its challenge's creation time;
    /// nil for a transaction made otherwise (a hosted purchase, `onramp trigger`).
    func purchaseSession(forTransaction transactionId: String) throws -> Row? {
        try connection.query(
            """
            SELECT s.challenge_id, s.key_id, s.environment, s.assertion_counter, s.created_at, s.opened_at,
                s.outcome, c.created_at AS challenge_created_at
            FROM purchase_sessions s JOIN attestation_challenges c ON c.id = s.challenge_id
            WHERE s.transaction_id = ?
            """, [.text(transactionId)]
        ).first
    }

    /// An event with its deliveries and each delivery's attempts.
    typealias DeliveredEvent = (event: Row, deliveries: [(delivery: Row, attempts: [Row])])

    /// Each event with its deliveries and their attempts.
    func deliveries(of events: [Row]) throws -> [DeliveredEvent] {
        try events.map { event in
            (event, try deliveries(of: try event.string("id")).map { ($0, try attempts(of: try $0.string("id"))) })
        }
    }

    /// One Headless order; nil when there is none.
    func order(_ id: String) throws -> Row? {
        try connection.query("SELECT * FROM onramp_orders WHERE order_id = ?", [.text(id)]).first
    }

    /// The events of a project naming `objectId` in their payload (its state history), oldest first.
    func events(of projectId: String, naming objectId: String) throws -> [Row] {
        try connection.query(
            """
            SELECT id, type, family, livemode, payload, created_at FROM outbox_events
            WHERE project_id = ? AND payload LIKE ? ORDER BY created_at, id LIMIT 200
            """, [.text(projectId), .text("%\"\(Self.escapedForLike(objectId))\"%")])
    }

    /// Newest first, of `type` when given, older than `before` when given (a page's last event), at most
    /// `limit` rows.
    func events(type: String?, before: ConsoleCursor?, limit: Int) throws -> [Row] {
        var clauses: [String] = []
        var values: [SQLValue] = []
        if let type {
            clauses.append("type = ?")
            values.append(.text(type))
        }
        if let before {
            clauses.append("(created_at < ? OR (created_at = ? AND id < ?))")
            values += [.integer(before.time), .integer(before.time), .text(before.id)]
        }
        let filter = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return try connection.query(
            """
            SELECT id, project_id, type, family, livemode, created_at FROM outbox_events \(filter)
            ORDER BY created_at DESC, id DESC LIMIT ?
            """, values + [.integer(Int64(limit))])
    }

    /// One event; nil when there is none.
    func event(_ id: String) throws -> Row? {
        try connection.query("SELECT * FROM outbox_events WHERE id = ?", [.text(id)]).first
    }

    /// An event's deliveries with their subscription's URL, oldest first.
    func deliveries(of eventId: String) throws -> [Row] {
        try connection.query(
            """
            SELECT d.id, d.subscription_id, d.status, d.attempt_count, d.next_attempt_at, d.last_status_code,
                d.last_error, s.url, s.enabled
            FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
            WHERE d.event_id = ? ORDER BY d.created_at, d.id
            """, [.text(eventId)])
    }

    /// A delivery's attempts, oldest first.
    func attempts(of deliveryId: String) throws -> [Row] {
        try connection.query(
            """
            SELECT attempted_at, status_code, latency_ms, response_excerpt, error, request_headers FROM webhook_attempts
            WHERE delivery_id = ? ORDER BY attempted_at, id LIMIT 100
            """, [.text(deliveryId)])
    }

    /// Enables or disables an endpoint, or makes its next `failNext` deliveries fail; `false` when there
    /// is no such endpoint. The project it belongs to, for the page to return to.
    func changeEndpoint(_ id: String, enabled: Bool?, failNext: Int64?, now: Int64) throws -> String? {
        guard
            let projectId = try connection.query(
                "SELECT project_id FROM webhook_subscriptions WHERE id = ?", [.text(id)]
            ).first?.string("project_id")
        else { return nil }
        if let enabled {
            try connection.execute(
                """
                UPDATE webhook_subscriptions SET enabled = ?, disabled_reason = ?, failing_since = NULL, updated_at = ?
                WHERE id = ?
                """,
                [
                    .integer(enabled ? 1 : 0), enabled ? .null : .text("disabled from the console"), .integer(now),
                    .text(id),
                ])
        }
        if let failNext {
            try connection.execute(
                "UPDATE webhook_subscriptions SET fail_next = ?, updated_at = ? WHERE id = ?",
                [.integer(failNext), .integer(now), .text(id)])
        }
        return projectId
    }

    /// Makes an event's delivery to one subscription due now, whatever its status; `false` when there is
    /// no such delivery, or the event is a live-mode Stripe event (the CDP family has no test mode: its
    /// sandbox is this server).
    func resend(eventId: String, subscriptionId: String, now: Int64) throws -> Bool {
        try connection.execute(
            """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL
            WHERE event_id = ? AND subscription_id = ?
                AND EXISTS (SELECT 1 FROM outbox_events e WHERE e.id = ? AND NOT (e.family = 'stripe' AND e.livemode = 1))
            """, [.integer(now), .text(eventId), .text(subscriptionId), .text(eventId)]) == 1
    }

    /// `text` reduced to the characters of ids (letters, digits, `-`, `_`), so no `%` widens the match;
    /// LIKE's `_` still matches any one character, which at worst lists a look-alike id's event too.
    private static func escapedForLike(_ text: String) -> String {
        String(text.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
}
