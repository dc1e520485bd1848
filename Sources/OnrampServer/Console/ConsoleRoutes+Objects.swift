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

    func onrampSession(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let (row, history, delivered) = try objectWithHistory(id, named: "onramp session") { try $0.onrampSession(id) }
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
        try timeline.add(events: delivered)
        html += timeline.html
        return ("Onramp session \(id)", html)
    }

    func transaction(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let found = try database.read {
            connection -> (Row, [Row], Row?, [ConsoleRepository.DeliveredEvent])? in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try repository.transaction(id) else { return nil }
            let history = try repository.events(of: try row.string("project_id"), naming: id)
            return (
                row, history, try repository.purchaseSession(forTransaction: id), try repository.deliveries(of: history)
            )
        }
        guard let (row, history, session, delivered) = found else {
            throw HTTPError(status: 404, code: "not_found", message: "No transaction \(id).")
        }
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
        let madeBy = try session.map { session in
            "challenge <code>\(HTML.escape(try session.string("challenge_id")))</code>, App Attest key "
                + "<code>\(HTML.escape(try session.string("key_id")))</code> (\(HTML.escape(try session.string("environment"))), "
                + "counter \(try session.int("assertion_counter")))"
        }
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
        timeline.add(row.optionalInt("created_at"), "transaction created: the user confirmed")
        timeline.add(requests: requestLog.acting(on: subjects))
        try timeline.add(events: delivered)
        html += timeline.html
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

    /// A Headless order: what was bought and paid, where it was sent, its state history. The buyer's phone
    /// and email are not shown.
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

    func order(_ id: String, finished: String?) throws -> (title: String, html: String) {
        let (row, history, delivered) = try objectWithHistory(id, named: "order") { try $0.order(id) }
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
        html += ConsolePage.table(
            caption: "State history (events)", headers: ["Event", "Type", "Time"],
            rows: try history.map { event in
                let eventId = try event.string("id")
                return [
                    ConsolePage.link("/console/events/\(ConsolePage.segment(eventId))", eventId),
                    HTML.escape(try event.string("type")), ConsolePage.time(try event.int("created_at")),
                ]
            })
        var timeline = ConsoleTimeline()
        timeline.add(row.optionalInt("created_at"), "order created")
        timeline.add(requests: requestLog.acting(on: [id]))
        try timeline.add(events: delivered)
        html += timeline.html
        return ("Headless order \(id)", html)
    }

    /// A hosted onramp session: its kind, destinations and presets, whether it was opened, how it ended and
    /// the transaction it made. Its token and page secret exist only as hashes and are not shown.
    func hostedSession(_ id: String) throws -> (title: String, html: String) {
        guard let row = try database.read({ try ConsoleRepository(connection: $0).hostedSession(id) }) else {
            throw HTTPError(status: 404, code: "not_found", message: "No hosted session \(id).")
        }
        let projectId = try row.string("project_id")
        var fields: [(String, String)] = [
            ("Project", ConsolePage.link("/console/projects/\(ConsolePage.segment(projectId))", projectId))
        ]
        fields += ["kind", "destinations", "assets", "presets", "outcome"].map {
            ($0, HTML.escape(row.optionalString($0) ?? "—"))
        }
        fields += [
            ("created", ConsolePage.time(row.optionalInt("created_at"))),
            ("expires", ConsolePage.time(row.optionalInt("expires_at"))),
            ("opened", ConsolePage.time(row.optionalInt("opened_at"))),
        ]
        if let transaction = row.optionalString("transaction_id") {
            fields.append(
                (
                    "transaction",
                    ConsolePage.link("/console/transactions/\(ConsolePage.segment(transaction))", transaction)
                ))
        }
        return ("Hosted onramp session \(id)", ConsolePage.fields(fields))
    }

    /// The object `id` found by `find`, with the events of its project that name it and their deliveries and
    /// attempts, from one read; a 404 naming the object's `kind` when there is none.
    private func objectWithHistory(
        _ id: String, named kind: String, find: (ConsoleRepository) throws -> Row?
    ) throws -> (Row, [Row], [ConsoleRepository.DeliveredEvent]) {
        let found = try database.read { connection -> (Row, [Row], [ConsoleRepository.DeliveredEvent])? in
            let repository = ConsoleRepository(connection: connection)
            guard let row = try find(repository) else { return nil }
            let history = try repository.events(of: try row.string("project_id"), naming: id)
            return (row, history, try repository.deliveries(of: history))
        }
        guard let found else { throw HTTPError(status: 404, code: "not_found", message: "No \(kind) \(id).") }
        return found
    }
}
