import Dispatch
import Foundation
import OnrampRuntime
import OnrampStore
import OnrampWire

/// Delivers the outbox: fans each new event out to the matching enabled subscriptions of its
/// project and family (one `webhook_deliveries` row each, in the transaction that marks the event
/// `fanned_out`), then claims due deliveries under a lease, sends them signed, and records every
/// attempt. Everything is in the database, so a restarted or second instance carries on.
///
/// A claim is one `UPDATE` writing a lease (a per-round owner token and `lease_until`) on the due
/// rows its subquery picks: on PostgreSQL with `FOR UPDATE SKIP LOCKED`, so instances never wait
/// for or take each other's rows; on SQLite under the writer lock (`BEGIN IMMEDIATE`), which
/// serializes claims between threads and processes. No transaction is held while sending.
///
/// A delivery's times (created, next attempt, failing since) are in its project's time: a test-mode
/// project whose test clock moved ahead has its retries come due as real time would have brought them.
/// Leases, and the signature's timestamp (which receivers check against their own clock), are real time.
public final class WebhookDispatcher: Sendable {
    /// Tuning of the dispatcher.
    public struct Configuration: Sendable {
        /// Deliveries claimed and sent concurrently per ``WebhookDispatcher/step()``.
        public var batchSize: Int
        /// Deliveries the background worker keeps in flight at once; a slow endpoint holds one slot
        /// (at most the timeout), never the others. It may exceed ``maximumConnectionsPerHost`` (each
        /// round's commit is then shared by more deliveries); deliveries beyond a host's connections
        /// wait for one of them.
        public var maximumInFlight: Int
        /// Connections kept open to one host at most.
        public var maximumConnectionsPerHost: Int
        /// Deliveries one endpoint may have in flight at once (its fair share of ``maximumInFlight``).
        public var maximumInFlightPerEndpoint: Int
        /// Deliveries one project's endpoints may have in flight together.
        public var maximumInFlightPerProject: Int
        /// How long a claim is exclusive; a crashed instance's claims are retried after it.
        public var leaseDuration: TimeInterval
        /// The request timeout; no 2xx within it counts as a failure.
        public var requestTimeout: TimeInterval
        /// Back-off and give-up rules.
        public var retry: WebhookRetryPolicy

        /// Creates a configuration.
        public init(
            batchSize: Int = 32, maximumInFlight: Int = 256, maximumConnectionsPerHost: Int = 64,
            maximumInFlightPerEndpoint: Int = 16, maximumInFlightPerProject: Int = 64,
            leaseDuration: TimeInterval = 30, requestTimeout: TimeInterval = 10,
            retry: WebhookRetryPolicy = WebhookRetryPolicy()
        ) {
            self.batchSize = batchSize
            self.maximumInFlight = maximumInFlight
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.maximumInFlightPerEndpoint = maximumInFlightPerEndpoint
            self.maximumInFlightPerProject = maximumInFlightPerProject
            self.leaseDuration = leaseDuration
            self.requestTimeout = requestTimeout
            self.retry = retry
        }
    }

    /// A delivery claimed by this instance, with what is needed to send it.
    package struct Claim: Sendable {
        package let deliveryId: String
        /// The `lease_owner` value written by the claim; recording requires it to be unchanged.
        package let leaseToken: String
        package let eventId: String
        package let eventType: String
        package let family: WebhookFamily
        package let payload: [UInt8]
        /// The project whose event this is (its fair share, ``WebhookFairShare``).
        package let projectId: String
        package let subscriptionId: String
        package let url: String
        package let secret: String
        package let headers: [(String, String)]
        package let attemptCount: Int64
        package let createdAt: Int64
        /// How far the project's test clock runs ahead of real time (ms) when this was claimed.
        package let clockOffset: Int64
        /// Whether this attempt fails without being sent (the console's "fail the next N deliveries").
        package var failsOnPurpose = false
    }

    /// The outcome of one HTTP attempt.
    package struct Attempt: Sendable {
        package let claim: Claim
        package let statusCode: Int?
        package let latencyMilliseconds: Int64
        package let responseExcerpt: String?
        package let error: String?
        /// The request's headers as sent (none when it was not sent); the values of the endpoint's own
        /// headers are not kept, as they may carry the receiver's credentials.
        package var requestHeaders: [(String, String)] = []
        package var succeeded: Bool { statusCode.map { (200..<300).contains($0) } ?? false }
    }

    package let context: ServerContext
    /// This instance's lease owner name.
    public let owner: String
    package let configuration: Configuration
    private let client: WebhookHTTPClient

    /// Creates a dispatcher on `context`'s database and clock.
    public init(context: ServerContext, configuration: Configuration = Configuration()) {
        self.context = context
        self.configuration = configuration
        self.owner = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(context.ids.base62(length: 8))"
        client = WebhookHTTPClient(
            maximumConnectionsPerHost: configuration.maximumConnectionsPerHost,
            maximumTransfers: max(configuration.batchSize, configuration.maximumInFlight),
            addressPolicy: { [targets = context.webhookTargets] in targets.allowsConnection(to: $0) })
    }

    /// Fans out new events and makes one round of due deliveries; returns how many events were fanned
    /// out plus how many attempts were made, so a caller can loop while there is work.
    @discardableResult
    public func step() throws -> Int {
        let fanned = try fanOut()
        let claims = try claimDue()
        guard !claims.isEmpty else { return fanned }
        try record(send(claims))
        return fanned + claims.count
    }

    /// One round of the background pipeline in one write transaction (one commit, where three used to
    /// be): records the attempts that finished, fans out new events, and leases up to `limit` due
    /// deliveries. If it fails, none of it happened: the finished attempts' leases run out and those
    /// deliveries are sent again (at least once).
    /// `share` holds what is in flight already; it gains the claims made.
    package func round(recording finished: [Attempt], claiming limit: Int, share: inout WebhookFairShare) throws -> (
        fanned: Int, claims: [Claim]
    ) {
        let now = context.realNowMilliseconds
        let before = share
        let (fanned, claims, after) = try withRetry {
            try context.database.transaction { connection in
                if !finished.isEmpty { try record(connection, finished, realNow: now) }
                let fanned = try fanOut(connection, limit: 200, now: now)
                var share = before
                let claims = limit > 0 ? try claimDue(connection, limit: limit, now: now, share: &share) : []
                return (fanned, claims, share)
            }
        }
        share = after
        return (fanned, claims)
    }

    /// A fair share with nothing in flight, under this dispatcher's limits.
    package var emptyShare: WebhookFairShare {
        WebhookFairShare(
            perEndpoint: configuration.maximumInFlightPerEndpoint, perProject: configuration.maximumInFlightPerProject)
    }

    /// Whether a round could find anything to do: an event not yet fanned out, or a pending delivery of an
    /// enabled subscription that is unleased and due by the furthest test clock (more than a round's
    /// claim takes, never less). A read, so an idle dispatcher takes no write transaction (on SQLite, no
    /// turn at the writer) every interval.
    package func mayHaveWork() throws -> Bool {
        let now = context.realNowMilliseconds
        return try context.database.read(
            SQLQuery(
                """
                SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM outbox_events WHERE fanned_out = 0)
                    OR EXISTS (
                        SELECT 1 FROM webhook_deliveries
                        WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < ?)
                          AND next_attempt_at <= ? + (SELECT COALESCE(MAX(offset_ms), 0) FROM test_clocks)
                          AND EXISTS (
                            SELECT 1 FROM webhook_subscriptions s WHERE s.id = subscription_id AND s.enabled = 1))
                """, [.integer(now), .integer(now)]
            ) { !$0.rows.isEmpty })
    }

    /// Creates the delivery rows of up to `limit` new events and marks them fanned out.
    @discardableResult
    package func fanOut(limit: Int = 200) throws -> Int {
        let now = context.realNowMilliseconds
        return try withRetry { try context.database.transaction { try fanOut($0, limit: limit, now: now) } }
    }

    private func fanOut(_ connection: any SQLConnection, limit: Int, now: Int64) throws -> Int {
        let lock = connection.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        let events = try connection.query(
            """
            SELECT id, project_id, family, type, livemode,
                COALESCE((SELECT offset_ms FROM test_clocks c WHERE c.project_id = outbox_events.project_id), 0)
                    AS clock_offset
            FROM outbox_events WHERE fanned_out = 0 ORDER BY created_at, id LIMIT ?\(lock)
            """,
            [.integer(Int64(limit))])
        let subscriptions = WebhookSubscriptionRepository(connection: connection)
        var cache: [String: [WebhookSubscription]] = [:]
        // The deliveries and the marks go in one batch (one round trip on PostgreSQL, where each was
        // one); only the subscriptions are read as the events come.
        var writes: [SQLStatement] = []
        for event in events {
            let eventId = try event.string("id")
            let livemode = try event.int("livemode") != 0
            let key = "\(try event.string("project_id"))\u{0}\(try event.string("family"))\u{0}\(livemode)"
            if cache[key] == nil {
                cache[key] = try subscriptions.enabled(
                    projectId: try event.string("project_id"), family: try event.string("family"),
                    livemode: livemode)
            }
            // First due now in the project's time.
            let due = now + (try event.int("clock_offset"))
            for subscription in cache[key]! where subscription.accepts(try event.string("type")) {
                writes.append(
                    SQLStatement(
                        """
                        INSERT INTO webhook_deliveries (id, event_id, subscription_id, status, attempt_count,
                            next_attempt_at, created_at)
                        VALUES (?, ?, ?, 'pending', 0, ?, ?)
                        ON CONFLICT (event_id, subscription_id) DO NOTHING
                        """,
                        [
                            .text(context.ids.timeOrderedUUID(milliseconds: now)), .text(eventId),
                            .text(subscription.id), .integer(due), .integer(due),
                        ]))
            }
            writes.append(SQLStatement("UPDATE outbox_events SET fanned_out = 1 WHERE id = ?", [.text(eventId)]))
        }
        _ = try connection.run(writes)
        return events.count
    }

    /// Leases up to a batch of due deliveries of enabled subscriptions to this instance.
    /// Leases up to a batch of due deliveries of enabled subscriptions to this instance, each endpoint and
    /// project within its fair share.
    package func claimDue(limit: Int? = nil) throws -> [Claim] {
        let now = context.realNowMilliseconds
        return try withRetry {
            try context.database.transaction { connection in
                var share = emptyShare
                return try claimDue(connection, limit: limit ?? configuration.batchSize, now: now, share: &share)
            }
        }
    }

    /// Leases up to `limit` due deliveries, leaving out the endpoints and projects `share` says are at their
    /// share; a round that picked more of one than its share gives the extra leases back in the same
    /// transaction (no extra commit), and they go out in a later round.
    private func claimDue(_ connection: any SQLConnection, limit: Int, now: Int64, share: inout WebhookFairShare)
        throws -> [Claim]
    {
        let leaseUntil = now + Int64(configuration.leaseDuration * 1000)
        let lock = connection.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        // A token per claim round, so the rows of this round are told apart from earlier ones.
        let token = "\(owner):\(context.ids.base62(length: 12))"
        let (fullEndpoints, fullProjects) = (share.fullEndpoints, share.fullProjects)
        var exclusions = ""
        if !fullEndpoints.isEmpty {
            exclusions +=
                " AND subscription_id NOT IN (\(Array(repeating: "?", count: fullEndpoints.count).joined(separator: ", ")))"
        }
        if !fullProjects.isEmpty {
            exclusions += """
                 AND NOT EXISTS (SELECT 1 FROM outbox_events x WHERE x.id = event_id AND x.project_id IN (\(Array(repeating: "?", count: fullProjects.count).joined(separator: ", "))))
                """
        }
        let excluded = (fullEndpoints + fullProjects).map(SQLValue.text)
        // The lease and the read of what it leased, in one batch.
        let (_, rows) = try connection.run(
            SQLQuery.changing(
                """
                UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
                WHERE id IN (
                    SELECT id FROM webhook_deliveries
                    WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < ?)
                      AND next_attempt_at <= ? + (SELECT COALESCE(MAX(offset_ms), 0) FROM test_clocks)
                      AND next_attempt_at <= ? + COALESCE((
                        SELECT c.offset_ms FROM test_clocks c JOIN outbox_events e ON e.project_id = c.project_id
                        WHERE e.id = webhook_deliveries.event_id), 0)
                      AND EXISTS (
                        SELECT 1 FROM webhook_subscriptions s WHERE s.id = subscription_id AND s.enabled = 1)\(exclusions)
                    ORDER BY next_attempt_at LIMIT ?\(lock))
                """,
                [.text(token), .integer(leaseUntil), .integer(now), .integer(now), .integer(now)] + excluded
                    + [.integer(Int64(limit))]),
            SQLQuery(
                """
                SELECT d.id, d.event_id, d.attempt_count, d.created_at, e.type, e.family, e.payload, e.project_id,
                       s.id AS subscription_id, s.url, s.secret, s.headers, s.fail_next,
                       COALESCE(c.offset_ms, 0) AS clock_offset
                FROM webhook_deliveries d
                JOIN outbox_events e ON e.id = d.event_id
                JOIN webhook_subscriptions s ON s.id = d.subscription_id
                LEFT JOIN test_clocks c ON c.project_id = e.project_id
                WHERE d.lease_owner = ?
                """, [.text(token)]
            ) { $0.rows })
        // More of one endpoint or project than its share in this round: those leases are given back.
        var overShare: [SQLValue] = []
        // What is left of each endpoint's "fail the next N" as this round takes them, starting from
        // what the query read (an endpoint with none costs no statement per claim).
        var failuresLeft: [String: Int64] = [:]
        let claims = try rows.compactMap { row -> Claim? in
            guard var claim = try Self.claim(row, token: token) else { return nil }
            guard share.take(endpoint: claim.subscriptionId, project: claim.projectId) else {
                overShare.append(.text(claim.deliveryId))
                return nil
            }
            let left = try failuresLeft[claim.subscriptionId] ?? row.int("fail_next")
            guard left > 0 else { return claim }
            // One of the endpoint's "fail the next N" taken in the claim's transaction: with several
            // instances each failure is spent once.
            claim.failsOnPurpose =
                try connection.execute(
                    "UPDATE webhook_subscriptions SET fail_next = fail_next - 1 WHERE id = ? AND fail_next > 0",
                    [.text(claim.subscriptionId)]) == 1
            failuresLeft[claim.subscriptionId] = claim.failsOnPurpose ? left - 1 : 0
            return claim
        }
        if !overShare.isEmpty {
            try connection.execute(
                """
                UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL
                WHERE lease_owner = ? AND id IN (\(Array(repeating: "?", count: overShare.count).joined(separator: ", ")))
                """, [.text(token)] + overShare)
        }
        return claims
    }

    private static func claim(_ row: Row, token: String) throws -> Claim? {
        guard let family = WebhookFamily(rawValue: try row.string("family")) else { return nil }
        let headers = (try? JSONParser().parse(try row.string("headers")))?.objectValue ?? []
        return Claim(
            deliveryId: try row.string("id"), leaseToken: token, eventId: try row.string("event_id"),
            eventType: try row.string("type"), family: family, payload: Array(try row.string("payload").utf8),
            projectId: try row.string("project_id"), subscriptionId: try row.string("subscription_id"),
            url: try row.string("url"),
            secret: try row.string("secret"),
            headers: headers.compactMap { name, value in value.stringValue.map { (name, $0) } },
            attemptCount: try row.int("attempt_count"), createdAt: try row.int("created_at"),
            clockOffset: try row.int("clock_offset"))
    }

    /// Sends every claim concurrently and waits for all of them (each bounded by the timeout).
    package func send(_ claims: [Claim]) -> [Attempt] {
        let results = ResultBox()
        let group = DispatchGroup()
        for claim in claims {
            group.enter()
            send(claim) { attempt in
                results.append(attempt)
                group.leave()
            }
        }
        group.wait()
        return results.values
    }

    /// Sends one claim signed at the current time and calls `completion` (on the client's thread) with
    /// the outcome. Returns at once.
    package func send(_ claim: Claim, completion: @escaping @Sendable (Attempt) -> Void) {
        guard !claim.failsOnPurpose else {
            completion(
                Attempt(
                    claim: claim, statusCode: nil, latencyMilliseconds: 0, responseExcerpt: nil,
                    error: "failed on purpose (the console's fail the next deliveries); not sent"))
            return
        }
        let userAgent = ("User-Agent", "OnrampKit-Webhooks/1.0")
        let signed = WebhookSigner.headers(
            family: claim.family, secret: claim.secret, eventId: claim.eventId, eventType: claim.eventType,
            body: claim.payload, timestamp: Int64(context.realClock.now().timeIntervalSince1970))
        // The endpoint's own headers after the user agent and before the signature's, which they
        // therefore cannot replace.
        let headers = Self.merged([userAgent] + claim.headers + signed)
        let requestHeaders = [userAgent] + claim.headers.map { name, _ in (name, Self.withheldValue) } + signed
        let started = DispatchTime.now().uptimeNanoseconds
        client.send(
            .init(url: claim.url, headers: headers, body: claim.payload, timeout: configuration.requestTimeout)
        ) { response in
            let latency = Int64((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
            completion(
                Attempt(
                    claim: claim, statusCode: response.statusCode, latencyMilliseconds: latency,
                    responseExcerpt: response.statusCode == nil ? nil : Self.excerpt(response.body),
                    error: response.error, requestHeaders: requestHeaders))
        }
    }

    /// One field per name (names compare case-insensitively), each where its name first appears, with
    /// the value that comes last.
    package static func merged(_ headers: [(String, String)]) -> [(String, String)] {
        // A handful of fields per delivery: a scan with an ASCII comparison, no lower-cased copies.
        var fields: [(String, String)] = []
        fields.reserveCapacity(headers.count)
        for (name, value) in headers {
            if let position = fields.firstIndex(where: { Self.sameFieldName($0.0, name) }) {
                fields[position].1 = value
            } else {
                fields.append((name, value))
            }
        }
        return fields
    }

    /// Whether two field names are equal ignoring ASCII case (field names are ASCII tokens).
    private static func sameFieldName(_ lhs: String, _ rhs: String) -> Bool {
        let lower = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// Writes the attempts and the deliveries' new states in one transaction, each in its project's time.
    package func record(_ attempts: [Attempt]) throws {
        let realNow = context.realNowMilliseconds
        try withRetry { try context.database.transaction { try record($0, attempts, realNow: realNow) } }
    }

    private func record(_ connection: any SQLConnection, _ attempts: [Attempt], realNow: Int64) throws {
        let window = Int64(configuration.retry.retryWindow * 1000)
        // Endpoints whose failing state this round has cleared and not set since: a second success
        // for one of them has nothing to clear.
        var cleared = Set<String>()
        for attempt in attempts {
            let claim = attempt.claim
            let now = realNow + claim.clockOffset
            try connection.execute(
                """
                INSERT INTO webhook_attempts (id, delivery_id, event_id, subscription_id, attempted_at,
                    status_code, latency_ms, response_excerpt, error, request_headers)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(context.ids.timeOrderedUUID(milliseconds: realNow)), .text(claim.deliveryId),
                    .text(claim.eventId),
                    .text(claim.subscriptionId), .integer(now),
                    attempt.statusCode.map { .integer(Int64($0)) } ?? .null,
                    .integer(attempt.latencyMilliseconds), attempt.responseExcerpt.map(SQLValue.text) ?? .null,
                    attempt.error.map(SQLValue.text) ?? .null,
                    attempt.requestHeaders.isEmpty
                        ? .null
                        : .text(
                            JSONValue.array(
                                attempt.requestHeaders.map { .array([.string($0.0), .string($0.1)]) }
                            ).serializedString),
                ])
            let outcome: [SQLValue] = [
                attempt.statusCode.map { .integer(Int64($0)) } ?? .null,
                attempt.responseExcerpt.map(SQLValue.text) ?? .null, attempt.error.map(SQLValue.text) ?? .null,
            ]
            if attempt.succeeded {
                try connection.execute(
                    """
                    UPDATE webhook_deliveries SET status = 'succeeded', attempt_count = attempt_count + 1,
                        succeeded_at = ?, last_status_code = ?, last_response = ?, last_error = ?,
                        lease_owner = NULL, lease_until = NULL
                    WHERE id = ? AND lease_owner = ?
                    """, [.integer(now)] + outcome + [.text(claim.deliveryId), .text(claim.leaseToken)])
                if cleared.insert(claim.subscriptionId).inserted {
                    try connection.execute(
                        "UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL",
                        [.text(claim.subscriptionId)])
                }
                continue
            }
            let attempts = Int(claim.attemptCount) + 1
            let jitter = Double(context.ids.randomBytes(1)[0]) / 255
            let delay = Int64(configuration.retry.delay(afterAttempts: attempts, jitter: jitter) * 1000)
            let next = min(now + delay, claim.createdAt + window)
            let givesUp = now >= claim.createdAt + window
            let stillLeased = try connection.execute(
                """
                UPDATE webhook_deliveries SET status = ?, attempt_count = attempt_count + 1, next_attempt_at = ?,
                    last_status_code = ?, last_response = ?, last_error = ?, lease_owner = NULL, lease_until = NULL
                WHERE id = ? AND lease_owner = ?
                """,
                [.text(givesUp ? "failed" : "pending"), .integer(next)] + outcome + [
                    .text(claim.deliveryId), .text(claim.leaseToken),
                ])
            // A lease lost meanwhile: the delivery and its endpoint's failure state belong to whoever
            // holds it now; this attempt stays in the log only.
            guard stillLeased == 1 else { continue }
            try connection.execute(
                "UPDATE webhook_subscriptions SET failing_since = ? WHERE id = ? AND failing_since IS NULL",
                [.integer(now), .text(claim.subscriptionId)])
            cleared.remove(claim.subscriptionId)
            // Disabled once every attempt has failed for the window, or when a delivery gives up
            // and every attempt since its first one has failed.
            let disabled = try connection.execute(
                """
                UPDATE webhook_subscriptions SET enabled = 0, disabled_reason = ?, updated_at = ?
                WHERE id = ? AND enabled = 1 AND (failing_since <= ? OR (? = 1 AND failing_since <=
                    (SELECT MIN(attempted_at) FROM webhook_attempts WHERE delivery_id = ?)))
                """,
                [
                    .text("Every delivery failed for \(Int(configuration.retry.retryWindow / 3600)) hours."),
                    .integer(now), .text(claim.subscriptionId), .integer(now - window),
                    .integer(givesUp ? 1 : 0), .text(claim.deliveryId),
                ])
            if disabled == 1 {
                AccessLog.shared.error(
                    "webhook endpoint \(claim.subscriptionId) disabled: every delivery failed for the retry window"
                )
            }
        }

    }

    /// What the attempt log keeps of an endpoint's own header value.
    package static let withheldValue = "(the endpoint's value, not kept)"

    /// At most 1 KB of a response body, as text.
    package static func excerpt(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes.prefix(1024), as: UTF8.self)
        while text.utf8.count > 1024 { text.removeLast() }
        return text
    }
}

/// Results written by the HTTP client's completion handlers on its thread.
package final class ResultBox: @unchecked Sendable {
    // Every access holds `lock`.
    private let lock = NSLock()
    private var attempts: [WebhookDispatcher.Attempt] = []

    package func append(_ attempt: WebhookDispatcher.Attempt) {
        lock.withLock { attempts.append(attempt) }
    }

    /// Every result so far.
    package var values: [WebhookDispatcher.Attempt] { lock.withLock { attempts } }

    /// Removes and returns every result so far.
    package func drain() -> [WebhookDispatcher.Attempt] {
        lock.withLock {
            defer { attempts = [] }
            return attempts
        }
    }
}
