import Foundation
import HTTPServer
import OnrampCrypto
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// In-process router tests of the subscription, endpoint and event routes.
@Suite("Webhook routes", .blocking)
struct WebhookRouteTests {
    struct Harness {
        let fixture: WebhookFixture
        let application: OnrampApplication

        init(url: String) throws {
            fixture = try WebhookFixture(url: url)
            application = try OnrampApplication(context: fixture.context)
        }

        func stripe(_ method: String, _ path: String, form: String = "", key: String? = nil) -> (Int, JSONValue) {
            let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
            let query = parts.count > 1 ? ((try? FormDecoder().pairs(parts[1])) ?? []) : []
            let request = HTTPRequest(
                method: method, path: parts[0], query: query,
                headers: HTTPHeaders([
                    ("Authorization", "Bearer \(key ?? fixture.credentials.stripeSecretKey)"),
                    ("Content-Type", "application/x-www-form-urlencoded"),
                ]), body: Array(form.utf8))
            let response = application.router.respond(to: request).response
            return (response.status, (try? JSONParser().parse(response.body)) ?? .null)
        }

        func cdp(_ method: String, _ path: String, json: JSONValue? = nil) throws -> (Int, JSONValue) {
            let key = try CDPAPIKey(id: fixture.credentials.cdpApiKeyId, secret: fixture.credentials.cdpApiKeySecret)
            // The JWT names the path without its query, as Coinbase's clients sign it.
            let token = try key.jwt(
                method: method, host: "api.test", path: String(path.prefix { $0 != "?" }), at: Date())
            let request = HTTPRequest(
                method: method, target: path,
                headers: HTTPHeaders([
                    ("Authorization", "Bearer \(token)"), ("Host", "api.test"), ("Content-Type", "application/json"),
                ]), body: json?.serialized ?? [])
            let response = application.router.respond(to: request).response
            return (response.status, (try? JSONParser().parse(response.body)) ?? .null)
        }
    }

    /// `json` as a client reads it: the wire type's `Decodable`, through Foundation's decoder.
    private static func decoded<Object: Decodable>(_ type: Object.Type, _ json: JSONValue) throws -> Object {
        try JSONDecoder().decode(type, from: Data(json.serialized))
    }

    @Test(arguments: DatabaseDriver.all)
    func stripeWebhookEndpointsLifecycle(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            let form =
                "url=https%3A%2F%2Fexample.com%2Fhook&enabled_events[]=crypto.onramp_session.updated&description=main"
                + "&metadata[zone]=eu&metadata[app]=wallet"
            let (status, created) = harness.stripe("POST", "/v1/webhook_endpoints", form: form)
            #expect(status == 200)
            let endpoint = try Self.decoded(StripeWebhookEndpoint.self, created)
            #expect(endpoint.metadata == ["app": "wallet", "zone": "eu"])
            #expect(created["metadata"]?.objectValue?.map(\.0) == ["zone", "app"], "metadata keep the order given")
            #expect(endpoint.secret?.hasPrefix("whsec_") == true && endpoint.apiVersion == nil)
            let id = try #require(created["id"]?.stringValue)
            #expect(id.hasPrefix("we_"))
            #expect(created["object"] == "webhook_endpoint")
            #expect(created["secret"]?.stringValue?.hasPrefix("whsec_") == true)
            #expect(created["enabled_events"] == ["crypto.onramp_session.updated"])
            #expect(created["status"] == "enabled")

            let (_, retrieved) = harness.stripe("GET", "/v1/webhook_endpoints/\(id)")
            #expect(retrieved["secret"] == nil, "the secret is shown only on creation")
            #expect(retrieved["application"] == .null && retrieved["api_version"] == .null)
            var expected = endpoint
            expected.secret = nil
            #expect(try Self.decoded(StripeWebhookEndpoint.self, retrieved) == expected)
            #expect(retrieved["url"] == "https://example.com/hook")

            let (_, updated) = harness.stripe(
                "POST", "/v1/webhook_endpoints/\(id)", form: "disabled=true&enabled_events[]=*")
            #expect(updated["status"] == "disabled")
            #expect(updated["enabled_events"] == ["*"])
            #expect(updated["metadata"]?.objectValue?.map(\.0) == ["zone", "app"], "left as they were")
            // Stripe's metadata change key by key: an empty value unsets one, `metadata=` unsets them all.
            let (_, merged) = harness.stripe(
                "POST", "/v1/webhook_endpoints/\(id)", form: "metadata[zone]=&metadata[tier]=gold&metadata[app]=pay")
            #expect(merged["metadata"]?.objectValue?.map(\.0) == ["app", "tier"], "\(merged)")
            #expect(merged["metadata"]?["app"] == "pay")
            let many = (0..<49).map { "metadata[k\($0)]=v" }.joined(separator: "&")
            let (tooMany, refused) = harness.stripe("POST", "/v1/webhook_endpoints/\(id)", form: many)
            #expect(tooMany == 400 && refused["error"]?["code"] == "parameter_invalid", "51 keys: \(refused)")
            #expect(harness.stripe("GET", "/v1/webhook_endpoints/\(id)").1["metadata"]?["tier"] == "gold")
            let (_, cleared) = harness.stripe("POST", "/v1/webhook_endpoints/\(id)", form: "metadata=")
            #expect(cleared["metadata"] == .object([]), "\(cleared)")

            _ = harness.stripe(
                "POST", "/v1/webhook_endpoints", form: "url=https%3A%2F%2Fb.example%2F&enabled_events[]=*")
            let (_, page) = harness.stripe("GET", "/v1/webhook_endpoints?limit=1")
            #expect(page["object"] == "list")
            #expect(try Self.decoded(StripeList<StripeWebhookEndpoint>.self, page).data.count == 1)
            #expect(page["has_more"] == true)
            #expect(page["url"] == "/v1/webhook_endpoints")
            let first = try #require(page["data"]?.arrayValue?.first?["id"]?.stringValue)
            let (_, rest) = harness.stripe("GET", "/v1/webhook_endpoints?limit=10&starting_after=\(first)")
            #expect(rest["data"]?.arrayValue?.count == 1)
            #expect(rest["has_more"] == false)

            let (deleteStatus, deleted) = harness.stripe("DELETE", "/v1/webhook_endpoints/\(id)")
            #expect(deleteStatus == 200)
            #expect(deleted["deleted"] == true)
            #expect(try Self.decoded(StripeDeletedObject.self, deleted) == .init(id: id, object: "webhook_endpoint"))
            #expect(harness.stripe("GET", "/v1/webhook_endpoints/\(id)").0 == 404)
        }
    }

    @Test func stripeEndpointValidationAndAuth() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            let insecure = harness.stripe(
                "POST", "/v1/webhook_endpoints", form: "url=http%3A%2F%2Fexample.com%2F&enabled_events[]=*")
            #expect(insecure.0 == 400)
            #expect(insecure.1["error"]?["param"] == "url")
            let local = harness.stripe(
                "POST", "/v1/webhook_endpoints", form: "url=http%3A%2F%2Flocalhost%3A4242%2Fhook&enabled_events[]=*")
            #expect(local.0 == 200)
            let missing = harness.stripe("POST", "/v1/webhook_endpoints", form: "url=https%3A%2F%2Fa.example%2F")
            #expect(missing.0 == 400)
            #expect(missing.1["error"]?["param"] == "enabled_events")
            let unauthorized = harness.stripe("GET", "/v1/webhook_endpoints", key: "sk_test_wrong")
            #expect(unauthorized.0 == 401)
            #expect(unauthorized.1["error"]?["type"] == "authentication_error")
            let hook = "url=http%3A%2F%2Flocalhost%3A4242%2Fhook&enabled_events[]=*"
            let longValue = String(repeating: "v", count: 501)
            for metadata in ["metadata[\(String(repeating: "k", count: 41))]=v", "metadata[k]=\(longValue)"] {
                let refused = harness.stripe("POST", "/v1/webhook_endpoints", form: "\(hook)&\(metadata)")
                #expect(refused.0 == 400 && refused.1["error"]?["param"] == "metadata", "\(refused)")
            }
            // 16 endpoints per project and mode (one exists already): the 17th is refused.
            for index in 2...17 {
                let created = harness.stripe("POST", "/v1/webhook_endpoints", form: "\(hook)&metadata[n]=\(index)")
                #expect(created.0 == (index <= 16 ? 200 : 400), "\(index): \(created)")
                if index == 17 {
                    #expect(created.1["error"]?["code"] == "parameter_invalid", "\(created)")
                    #expect(created.1["error"]?["type"] == "invalid_request_error")
                }
            }
        }
    }

    /// Editing an enabled subscription keeps its failure clock; re-enabling a disabled one clears it.
    @Test(arguments: DatabaseDriver.all)
    func onlyReEnablingClearsTheFailureClock(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            var subscription = try fixture.subscribe(.cdp, url: "http://localhost:4242/hook")
            try fixture.database.transaction {
                try $0.execute(
                    "UPDATE webhook_subscriptions SET failing_since = 1000 WHERE id = ?", [.text(subscription.id)])
            }
            let failingSince = {
                try fixture.database.read {
                    try $0.query(
                        "SELECT failing_since FROM webhook_subscriptions WHERE id = ?", [.text(subscription.id)]
                    )
                    .first?.optionalInt("failing_since")
                }
            }
            subscription.description = "renamed"
            try fixture.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).update(subscription, now: 2000)
            }
            #expect(try failingSince() == 1000)
            subscription.enabled = false
            try fixture.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).update(subscription, now: 3000)
            }
            #expect(try failingSince() == 1000)
            subscription.enabled = true
            try fixture.database.transaction {
                try WebhookSubscriptionRepository(connection: $0).update(subscription, now: 4000)
            }
            #expect(try failingSince() == nil)
        }
    }

    /// One round claiming several deliveries of one endpoint spends exactly its "fail the next N" (two of
    /// three fail on purpose), and recording a success and then a failure of that endpoint in one batch
    /// leaves its failure clock running (the success's clearing is not carried past the failure).
    @Test(arguments: DatabaseDriver.all)
    func aRoundSpendsFailNextOncePerClaimAndKeepsTheLastFailureClock(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let subscription = try fixture.subscribe(.cdp, url: "http://localhost:4242/hook")
            for _ in 0..<3 { _ = try fixture.emitCDPEvent() }
            try fixture.database.transaction {
                try $0.execute(
                    "UPDATE webhook_subscriptions SET fail_next = 2, failing_since = 500 WHERE id = ?",
                    [.text(subscription.id)])
            }
            let dispatcher = WebhookDispatcher(context: fixture.context)
            try dispatcher.fanOut()
            let claims = try dispatcher.claimDue(limit: 10)
            #expect(claims.count == 3)
            #expect(claims.filter(\.failsOnPurpose).count == 2)
            let state = {
                try #require(
                    try fixture.database.read {
                        try $0.query(
                            "SELECT fail_next, failing_since FROM webhook_subscriptions WHERE id = ?",
                            [.text(subscription.id)]
                        ).first
                    })
            }
            #expect(try state().int("fail_next") == 0)
            try dispatcher.record([
                .init(claim: claims[0], statusCode: 200, latencyMilliseconds: 1, responseExcerpt: "ok", error: nil),
                .init(claim: claims[1], statusCode: 500, latencyMilliseconds: 1, responseExcerpt: "down", error: nil),
                .init(claim: claims[2], statusCode: 200, latencyMilliseconds: 1, responseExcerpt: "ok", error: nil),
            ])
            #expect(try state().optionalInt("failing_since") == nil, "the last success clears it")
            for _ in 0..<2 { _ = try fixture.emitCDPEvent() }
            try dispatcher.fanOut()
            let next = try dispatcher.claimDue(limit: 10)
            #expect(next.count == 2 && next.allSatisfy { !$0.failsOnPurpose })
            try dispatcher.record([
                .init(claim: next[0], statusCode: 200, latencyMilliseconds: 1, responseExcerpt: "ok", error: nil),
                .init(claim: next[1], statusCode: 500, latencyMilliseconds: 1, responseExcerpt: "down", error: nil),
            ])
            #expect(try state().optionalInt("failing_since") != nil, "the failure after the success sets it")
        }
    }

    /// A failed attempt recorded after another instance took the delivery's lease is logged, but changes
    /// neither the delivery nor its endpoint's failure clock.
    @Test func anAttemptAfterTheLeaseWasLostOnlyLogs() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let subscription = try fixture.subscribe(.cdp, url: "http://localhost:4242/hook")
            _ = try fixture.emitCDPEvent()
            let dispatcher = WebhookDispatcher(context: fixture.context)
            try dispatcher.fanOut()
            let claim = try #require(try dispatcher.claimDue().first)
            try fixture.database.transaction {
                try $0.execute(
                    "UPDATE webhook_deliveries SET lease_owner = 'another-instance' WHERE id = ?",
                    [.text(claim.deliveryId)])
            }
            try dispatcher.record([
                .init(claim: claim, statusCode: 500, latencyMilliseconds: 3, responseExcerpt: "down", error: nil)
            ])
            let state = try #require(
                try fixture.database.read {
                    try $0.query(
                        """
                        SELECT d.attempt_count AS attempts, d.lease_owner AS owner, s.failing_since AS failing,
                            (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged
                        FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
                        WHERE d.id = ?
                        """, [.text(claim.deliveryId)]
                    ).first
                })
            #expect(try state.int("attempts") == 0 && state.optionalString("owner") == "another-instance")
            #expect(state.optionalInt("failing") == nil, "subscription \(subscription.id) keeps a clean clock")
            #expect(try state.int("logged") == 1)
        }
    }

    /// The cap holds under concurrent creation too (on PostgreSQL the project row is locked to count).
    @Test(arguments: DatabaseDriver.all)
    func concurrentCreationsStopAtTheCap(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            let hook = "url=http%3A%2F%2Flocalhost%3A4242%2Fhook&enabled_events[]=*"
            for _ in 0..<12 { #expect(harness.stripe("POST", "/v1/webhook_endpoints", form: hook).0 == 200) }
            let statuses = Mutex<[Int]>([])
            let done = DispatchGroup()
            for _ in 0..<24 {
                done.enter()
                Thread {  // real threads, so the creations overlap even on two cores
                    let status = harness.stripe("POST", "/v1/webhook_endpoints", form: hook).0
                    statuses.withLock { $0.append(status) }
                    done.leave()
                }.start()
            }
            done.wait()
            #expect(
                statuses.withLock { $0.sorted() } == Array(repeating: 200, count: 4) + Array(repeating: 400, count: 20))
            let total = try harness.fixture.database.read {
                try $0.query("SELECT COUNT(*) AS n FROM webhook_subscriptions").first?.int("n")
            }
            #expect(total == 16)
        }
    }

    /// Custom target headers cannot smuggle lines into the request or replace framing and signed headers;
    /// metadata and labels are string maps within limits.
    @Test func cdpSubscriptionInputsAreBounded() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            let path = "/platform/v2/data/webhooks/subscriptions"
            func create(headers: JSONValue = .object([]), labels: JSONValue = .object([])) throws -> Int {
                try harness.cdp(
                    "POST", path,
                    json: [
                        "eventTypes": ["onramp.transaction.success"],
                        "target": ["url": "http://localhost:4242/hook", "headers": headers], "labels": labels,
                    ]
                ).0
            }
            #expect(try create(headers: ["X-Partner": "p1"]) == 201)
            for headers: JSONValue in [
                ["X-Partner": "p1\r\nX-Injected: yes"], ["X Partner": "p1"], ["X-Partner:": "p1"],
                ["Transfer-Encoding": "chunked"], ["X-Event-Id": "forged"], ["": "p1"],
                ["X-Long": .string(String(repeating: "a", count: 1025))], ["X-Number": 1],
            ] {
                #expect(try create(headers: headers) == 400, "\(headers)")
            }
            for labels: JSONValue in [["env": 1], ["env": ["nested": "x"]], .array(["env"])] {
                #expect(try create(labels: labels) == 400, "\(labels)")
            }
        }
    }

    @Test(arguments: DatabaseDriver.all)
    func cdpSubscriptionsLifecycleAndEvents(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            let receiver = try WebhookReceiver()
            let path = "/platform/v2/data/webhooks/subscriptions"
            let (status, created) = try harness.cdp(
                "POST", path,
                json: [
                    "description": "settlement", "eventTypes": ["onramp.transaction.success"],
                    "target": ["url": .string(receiver.url), "headers": ["X-Partner": "p1"]], "isEnabled": true,
                    "labels": ["env": "test"],
                ])
            #expect(status == 201)
            let id = try #require(created["subscriptionId"]?.stringValue)
            #expect(created["secret"]?.stringValue?.isEmpty == false)
            #expect(created["createdAt"]?.stringValue?.hasSuffix("Z") == true)
            #expect(created["target"]?["headers"]?["X-Partner"] == "p1")
            let subscription = try Self.decoded(CDPWebhookSubscription.self, created)
            #expect(subscription.metadata["secret"] == subscription.secret, "cdp-sdk's metadata.secret")
            #expect(subscription.labels == ["env": "test"])

            let (_, list) = try harness.cdp("GET", path)
            #expect(list["subscriptions"]?.arrayValue?.count == 1)
            #expect(try Self.decoded(CDPWebhookSubscriptionList.self, list).subscriptions == [subscription])

            let eventId = try harness.fixture.emitCDPEvent()
            try WebhookDispatcher(context: harness.fixture.context).step()
            #expect(receiver.deliveries.first?.headers["x-partner"] == "p1")
            let (_, events) = try harness.cdp("GET", "\(path)/\(id)/events")
            let entry = try #require(events["events"]?.arrayValue?.first)
            let decodedEntry = try #require(try Self.decoded(CDPWebhookEventList.self, events).events.first)
            #expect(decodedEntry.status == .succeeded && decodedEntry.response?.httpCode == 200)
            #expect(entry["eventId"] == .string(eventId))
            #expect(entry["eventTypeName"] == "onramp.transaction.success")
            #expect(entry["status"] == "succeeded")
            #expect(entry["retryCount"] == 0)
            #expect(entry["response"]?["httpCode"] == 200, "cdp-sdk's WebhookEventResponseDetail")
            #expect(entry["response"]?["elapsedTimeMs"] != nil)
            #expect(entry["succeededAt"] != nil)
            // The filters cdp-sdk 1.51.0 sends: event id, creation window (its `+0000` form too), event types.
            let other = try harness.fixture.emitCDPEvent(type: "onramp.transaction.success")
            try WebhookDispatcher(context: harness.fixture.context).step()
            let (_, byId) = try harness.cdp("GET", "\(path)/\(id)/events?eventId=\(eventId)")
            #expect(byId["events"]?.arrayValue?.map { $0["eventId"] } == [.string(eventId)])
            let (_, byType) = try harness.cdp("GET", "\(path)/\(id)/events?eventTypeNames=onramp.transaction.failed")
            #expect(byType["events"]?.arrayValue?.isEmpty == true)
            let (_, both) = try harness.cdp(
                "GET",
                "\(path)/\(id)/events?minCreatedAt=2000-01-01T00:00:00.000000%2B0000&maxCreatedAt=2999-01-01T00:00:00Z")
            #expect(
                Set(both["events"]?.arrayValue?.compactMap { $0["eventId"]?.stringValue } ?? []) == [eventId, other])
            let (_, none) = try harness.cdp("GET", "\(path)/\(id)/events?maxCreatedAt=2000-01-01T00:00:00Z")
            #expect(none["events"]?.arrayValue?.isEmpty == true)

            let (_, replaced) = try harness.cdp(
                "PUT", "\(path)/\(id)", json: ["isEnabled": false, "eventTypes": ["onramp.transaction.failed"]])
            #expect(replaced["isEnabled"] == false)
            #expect(replaced["eventTypes"] == ["onramp.transaction.failed"])

            let bad = try harness.cdp(
                "POST", path, json: ["eventTypes": ["x"], "target": ["url": "http://example.com/hook"]])
            #expect(bad.0 == 400)
            #expect(bad.1["errorType"] == "invalid_request")

            #expect(try harness.cdp("DELETE", "\(path)/\(id)").0 == 204)
            let gone = try harness.cdp("GET", "\(path)/\(id)")
            #expect(gone.0 == 404 && gone.1["errorType"] == "not_found", "\(gone)")
            #expect(try harness.cdp("PUT", "\(path)/\(id)", json: ["isEnabled": true]).0 == 404)

            // A subscription holds at most 50 labels, also when labelKey adds one.
            let labels = JSONValue.object((0..<50).map { ("l\($0)", .string("v")) })
            let (labelledStatus, labelled) = try harness.cdp(
                "POST", path,
                json: ["eventTypes": ["*"], "target": ["url": .string(receiver.url)], "labels": labels])
            #expect(labelledStatus == 201, "\(labelled)")
            let full = try #require(labelled["subscriptionId"]?.stringValue)
            let more = try harness.cdp("PUT", "\(path)/\(full)", json: ["labelKey": "extra", "labelValue": "v"])
            #expect(more.0 == 400 && more.1["errorType"] == "invalid_request", "\(more)")
            let relabelled = try harness.cdp("PUT", "\(path)/\(full)", json: ["labelKey": "l0", "labelValue": "w"])
            #expect(relabelled.0 == 200 && relabelled.1["labels"]?["l0"] == "w", "\(relabelled)")
            // 16 subscriptions per project: the 17th is refused in the CDP error shape.
            for index in 2...17 {
                let created = try harness.cdp(
                    "POST", path, json: ["eventTypes": ["*"], "target": ["url": .string(receiver.url)]])
                #expect(created.0 == (index <= 16 ? 201 : 400), "\(index): \(created)")
                if index == 17 { #expect(created.1["errorType"] == "invalid_request", "\(created)") }
            }
        }
    }

    @Test(arguments: DatabaseDriver.all)
    func stripeEventsAreListedNewestFirstAsStored(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let harness = try Harness(url: url)
            defer { harness.fixture.database.close() }
            var ids: [String] = []
            for _ in 0..<3 {
                ids.append(try harness.fixture.emitStripeEvent())
                Thread.sleep(forTimeInterval: 0.002)
            }
            try harness.fixture.emitStripeEvent(type: "crypto.other")
            try harness.fixture.emitCDPEvent()
            let (_, page) = harness.stripe("GET", "/v1/events?type=crypto.onramp_session.updated&limit=2")
            #expect(page["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [ids[2], ids[1]])
            #expect(page["has_more"] == true)
            let (_, next) = harness.stripe(
                "GET", "/v1/events?type=crypto.onramp_session.updated&starting_after=\(ids[1])")
            #expect(next["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [ids[0]])
            let (status, event) = harness.stripe("GET", "/v1/events/\(ids[0])")
            #expect(status == 200)
            #expect(event["object"] == "event")
            #expect(event["data"]?["object"]?["status"] == "fulfillment_complete")
            #expect(harness.stripe("GET", "/v1/events/evt_missing").0 == 404)
        }
    }

    /// `onramp events redeliver`: same event id, delivered again, including to endpoints added since.
    @Test func redeliverySendsTheSameEventIdAgain() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let fixture = try WebhookFixture(url: url)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver()
            try fixture.subscribe(.stripe, url: receiver.url)
            let eventId = try fixture.emitStripeEvent()
            let dispatcher = WebhookDispatcher(context: fixture.context)
            while try dispatcher.step() > 0 {}
            let later = try WebhookReceiver()
            try fixture.subscribe(.stripe, url: later.url)
            let operations = WebhookOperations(database: fixture.database)
            #expect(try operations.redeliver(eventId: eventId))
            #expect(try !operations.redeliver(eventId: "evt_unknown"))
            while try dispatcher.step() > 0 {}
            #expect(receiver.deliveries.map(\.eventId) == [eventId, eventId])
            #expect(later.deliveries.map(\.eventId) == [eventId])
            let listed = try operations.listEvents(limit: 5)
            #expect(listed.first?["deliveries"]?.arrayValue?.count == 2)
        }
    }
}
