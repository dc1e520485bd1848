import Foundation
import HTTPServer
import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// The console's object pages: an App2App transaction, an Embedded crypto customer, an onramp session.
extension ConsoleRoutes {
    /// A session's row cells: id (linked), customer (linked), status, destination, created.
    static func sessionCells(_ row: Row) throws -> [String] {
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

    func customer(_ id: String) throws -> (title: String, html: String) {
        guard let view = try database.read({ try ConsoleRepository(connection: $0).customer(id) }) else {
            throw ConsoleRefusal.notFound("No crypto customer \(id).")
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

    func onrampSession(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let object = try objectWithHistory(id, named: "onramp session") { try $0.onrampSession(id) }
        let (row, history) = (object.row, object.events)
        let projectId = try row.string("project_id")
        let customer = try row.string("customer_id")
        var html = Self.notice(finished)
        if try row.string("status") == OnrampSession.Status.fulfillmentProcessing.rawValue,
            try row.int("livemode") == 0
        {
            html += finishNowForms("/console/onramp_sessions/\(ConsolePage.segment(id))")
        }
        html += ConsolePage.fields([
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
        var timeline = ConsoleTimeline()
        timeline.add(try row.int("created_at"), "session created")
        timeline.add(requests: requestLog.acting(on: [id]))
        try timeline.add(events: object.delivered)
        html += timeline.html
        return ("Onramp session \(id)", html)
    }

    func transaction(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let found = try database.read {
            connection -> Result<(ObjectHistory, Row?), ConsoleRefusal> in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try repository.transaction(id) else {
                return .failure(try Self.noTransaction(id, redirectOf: repository.transaction(ofRedirect: id)))
            }
            return .success(
                (try history(of: row, id: id, in: repository), try repository.purchaseSession(forTransaction: id)))
        }
        let (object, session) = try found.get()
        let row = object.row
        let projectId = try row.string("project_id")
        let shown = [
            "status", "partner_user_ref", "purchase_amount", "purchase_currency", "purchase_network", "payment_total",
            "payment_currency", "payment_method", "wallet_address", "country", "tx_hash",
        ]
        let status = try row.string("status")
        var html = Self.notice(finished)
        if status == "ONRAMP_TRANSACTION_STATUS_CREATED" || status == "ONRAMP_TRANSACTION_STATUS_IN_PROGRESS" {
            html += finishNowForms("/console/transactions/\(ConsolePage.segment(id))")
        }
        let madeBy =
            try session.map { session in
                "challenge <code>\(HTML.escape(try session.string("challenge_id")))</code>, App Attest key "
                    + "<code>\(HTML.escape(try session.string("key_id")))</code> (\(HTML.escape(try session.string("environment")))), "
                    + "counter \(try session.int("assertion_counter")))"
            } ?? (try object.hostedOrigin.map { "hosted session " + Self.hostedSessionLink(try $0.string("id")) })
        html += ConsolePage.fields(
            [("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId))]
                + shown.map { ($0, HTML.escape(row.optionalString($0) ?? "—")) }
                + [("created", ConsolePage.time(row.optionalInt("created_at"))), ("made by", madeBy ?? "—")])
        var timeline = ConsoleTimeline()
        var subjects: Set<String> = [id]
        if let session {
            let challenge = try session.string("challenge_id")
            subjects.insert(challenge)
            timeline.add(
                try session.int("challenge_created_at"), "purchase challenge issued",
                "<code>\(HTML.escape(challenge))</code>")
            timeline.add(try session.int("created_at"), "purchase session created: the key's assertion verified")
            timeline.add(session.optionalInt("opened_at"), "hosted page opened")
        }
        try timeline.add(hostedOrigin: object.hostedOrigin, subjects: &subjects)
        timeline.add(row.optionalInt("created_at"), "transaction created: the user confirmed")
        timeline.add(requests: requestLog.acting(on: subjects))
        try timeline.add(events: object.delivered)
        html += timeline.html
        html += try Self.stateHistory(object.events)
        return ("Transaction \(id)", html)
    }

    /// The 404 for a transaction id that names none; when it is a redirect's `transactionId`, it says so and
    /// names the purchase's transaction.
    private static func noTransaction(_ id: String, redirectOf transaction: String?) -> ConsoleRefusal {
        guard let transaction else {
            return ConsoleRefusal.notFound("No transaction \(id).")
        }
        return ConsoleRefusal.notFound(
            "No transaction \(id): that is the transactionId of a purchase's redirect, which is not its "
                + "transaction's id (match by partnerUserRef, txHash, currency and amount). Its transaction is "
                + "\(transaction): /console/transactions/\(transaction)")
    }

    /// A sell (offramp transaction): what was sold at which quote, the deposit it waits for, the sell page
    /// that made it, and its timeline.
    func sell(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let object = try objectWithHistory(id, named: "sell") { try $0.sell(id) }
        let row = object.row
        let projectId = try row.string("project_id")
        let asset = try row.string("asset")
        let cashout = try row.string("cashout_currency")
        func amount(_ column: String, _ currency: String) throws -> String {
            HTML.escape("\(try row.string(column)) \(currency)")
        }
        var fields: [(String, String)] = [
            ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId)),
            ("status", HTML.escape(try row.string("status"))),
            ("partner_user_ref", HTML.escape(try row.string("partner_user_ref"))),
            ("sold", try amount("sell_amount", asset) + " on " + HTML.escape(try row.string("network"))),
            ("unit price", try amount("unit_price", cashout)), ("subtotal", try amount("subtotal", cashout)),
            ("coinbase fee", try amount("coinbase_fee", cashout)), ("total", try amount("total", cashout)),
            ("cash-out method", HTML.escape(try row.string("payment_method"))),
            ("from address", HTML.escape(try row.string("from_address"))),
            ("deposit address", HTML.escape(try row.string("to_address"))),
            ("tx_hash", HTML.escape(row.optionalString("tx_hash") ?? "—")),
            ("sandbox", try row.int("sandbox") != 0 ? "yes (no webhooks)" : "no"),
            ("deposit window ends", ConsolePage.time(try row.int("expires_at"))),
            ("next step due", ConsolePage.time(row.optionalInt("next_step_at"))),
            ("created", ConsolePage.time(try row.int("created_at"))),
            ("updated", ConsolePage.time(try row.int("updated_at"))),
        ]
        if let origin = object.hostedOrigin {
            fields.append(("made by", "sell page of hosted session " + Self.hostedSessionLink(try origin.string("id"))))
        }
        var html = Self.notice(finished)
        if try row.string("status") == OfframpTransaction.Status.started.rawValue {
            html += finishNowForms("/console/sells/\(ConsolePage.segment(id))")
        }
        html += ConsolePage.fields(fields)
        var timeline = ConsoleTimeline()
        var subjects: Set<String> = [id]
        try timeline.add(hostedOrigin: object.hostedOrigin, subjects: &subjects)
        timeline.add(try row.int("created_at"), "sell created: the user pressed Cash out")
        timeline.add(requests: requestLog.acting(on: subjects))
        try timeline.add(events: object.delivered)
        html += timeline.html
        html += try Self.stateHistory(object.events)
        return ("Sell \(id)", html)
    }

    /// The "State history (events)" table of a purchase's events.
    private static func stateHistory(_ events: [Row]) throws -> String {
        ConsolePage.table(
            caption: "State history (events)", headers: ["Event", "Type", "Time"],
            rows: try events.map { event in
                let eventId = try event.string("id")
                return [
                    ConsolePage.link("/console/events/\(ConsolePage.segment(eventId))", eventId),
                    HTML.escape(try event.string("type")), ConsolePage.time(try event.int("created_at")),
                ]
            })
    }

    /// A link to hosted session `id`'s console page.
    private static func hostedSessionLink(_ id: String) -> String {
        ConsolePage.link("/console/hosted_sessions/\(ConsolePage.segment(id))", id)
    }

    /// What the settle or fail action that just ran did, as a status notice.
    static func notice(_ finished: String?) -> String {
        let notices = ["settled": "Settled.", "failed": "Failed on purpose."]
        return finished.flatMap { notices[$0] }.map { "<p class=\"notice\" role=\"status\">\($0)</p>" } ?? ""
    }

    /// The "Settle now" and "Fail now" forms of a pending purchase at `path`.
    func finishNowForms(_ path: String) -> String {
        [("settle", "Settle now"), ("fail", "Fail now (buy failed)")].map { action, label in
            """
            <form method="post" action="\(path)/\(action)">
            <input type="hidden" name="csrf" value="\(access.csrfValue)">
            <button type="submit">\(label)</button></form>
            """
        }.joined()
    }

    /// A Headless order: what was bought and paid, where it was sent, its state history. The buyer's phone
    /// and email are not shown.
    func order(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let object = try objectWithHistory(id, named: "order") { try $0.order(id) }
        let row = object.row
        let projectId = try row.string("project_id")
        let shown = [
            "status", "failure_reason", "partner_user_ref", "partner_order_ref", "payment_method", "payment_total",
            "payment_currency", "purchase_amount", "purchase_currency", "destination_network", "destination_address",
            "tx_hash",
        ]
        var html = Self.notice(finished)
        if try row.string("status") == GuestCheckoutOrder.Status.processing.rawValue {
            html += finishNowForms("/console/orders/\(ConsolePage.segment(id))")
        }
        html += ConsolePage.fields(
            [("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId))]
                + shown.map { ($0, HTML.escape(row.optionalString($0) ?? "—")) }
                + [
                    ("sandbox", try row.int("sandbox") != 0 ? "yes (no webhooks, no limits)" : "no"),
                    ("created", ConsolePage.time(row.optionalInt("created_at"))),
                ])
        html += try Self.stateHistory(object.events)
        var timeline = ConsoleTimeline()
        timeline.add(row.optionalInt("created_at"), "order created")
        timeline.add(requests: requestLog.acting(on: [id]))
        try timeline.add(events: object.delivered)
        html += timeline.html
        return ("Headless order \(id)", html)
    }

    /// A hosted onramp or sell session: its kind, destinations and presets, whether it was opened, how it ended,
    /// the transaction or sell it made and its timeline. Its token and page secret exist only as hashes and are
    /// not shown.
    func hostedSession(_ id: String) throws -> (title: String, html: String) {
        let found = try database.read { connection -> (Row, [ConsoleRepository.DeliveredEvent])? in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try repository.hostedSession(id) else { return nil }
            let made = row.optionalString("transaction_id")
            let events = try made.map { try repository.events(of: try row.string("project_id"), naming: $0) } ?? []
            return (row, try repository.deliveries(of: events))
        }
        guard let (row, delivered) = found else {
            throw ConsoleRefusal.notFound("No hosted session \(id).")
        }
        let projectId = try row.string("project_id")
        let isSell = row.optionalString("flow") == HostedOnrampSession.Flow.sell.rawValue
        var fields: [(String, String)] = [
            ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId))
        ]
        fields += ["kind", "flow", "destinations", "assets", "presets", "outcome"].map {
            ($0, HTML.escape(row.optionalString($0) ?? "—"))
        }
        fields += [
            ("created", ConsolePage.time(row.optionalInt("created_at"))),
            ("expires", ConsolePage.time(row.optionalInt("expires_at"))),
            ("opened", ConsolePage.time(row.optionalInt("opened_at"))),
        ]
        var subjects: Set<String> = [id]
        if let made = row.optionalString("transaction_id") {
            subjects.insert(made)
            let path = isSell ? "/console/sells/" : "/console/transactions/"
            fields.append((isSell ? "sell" : "transaction", ConsolePage.link(path + ConsolePage.segment(made), made)))
        }
        var timeline = ConsoleTimeline()
        try timeline.add(hostedOrigin: row, subjects: &subjects)
        timeline.add(requests: requestLog.acting(on: subjects))
        try timeline.add(events: delivered)
        return (
            isSell ? "Hosted sell session \(id)" : "Hosted onramp session \(id)",
            ConsolePage.fields(fields) + timeline.html
        )
    }

    /// A purchase's row with the events of its project that name it, their deliveries and attempts, and the
    /// hosted session that made it when one did.
    struct ObjectHistory {
        let row: Row
        let events: [Row]
        let delivered: [ConsoleRepository.DeliveredEvent]
        let hostedOrigin: Row?
    }

    /// The history of `row` (object `id`) from `repository`'s read.
    private func history(of row: Row, id: String, in repository: ConsoleRepository) throws -> ObjectHistory {
        let events = try repository.events(of: try row.string("project_id"), naming: id)
        return ObjectHistory(
            row: row, events: events, delivered: try repository.deliveries(of: events),
            hostedOrigin: try repository.hostedSession(forTransaction: id))
    }

    /// The object `id` found by `find` with its history, from one read; a 404 naming the object's `kind`
    /// when there is none.
    private func objectWithHistory(
        _ id: String, named kind: String, find: (ConsoleRepository) throws -> Row?
    ) throws -> ObjectHistory {
        let found = try database.read { connection -> ObjectHistory? in
            let repository = ConsoleRepository(connection: connection)
            return try find(repository).map { try history(of: $0, id: id, in: repository) }
        }
        guard let found else { throw ConsoleRefusal.notFound("No \(kind) \(id).") }
        return found
    }
}
