import Foundation
import OnrampCore
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

@Suite("Webhook retries", .blocking)
struct WebhookRetryTests {
    @Test func backOffGrowsExponentiallyWithinTheJitterBand() {
        let policy = WebhookRetryPolicy()
        #expect(policy.delay(afterAttempts: 1, jitter: 0) == 3.75)
        #expect(policy.delay(afterAttempts: 1, jitter: 1) == 6.25)
        #expect(policy.delay(afterAttempts: 3, jitter: 0.5) == 20)
        #expect(policy.delay(afterAttempts: 40, jitter: 0.5) == 6 * 3600)
    }

    /// An endpoint answering 500 then 200 gets the event, at the time the back-off says, same id.
    @Test(arguments: DatabaseDriver.all)
    func failedDeliveryIsRetriedAfterTheBackOff(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let fixture = try WebhookFixture(url: url, clock: clock)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver { $0 == 0 ? 500 : 200 }
            let subscription = try fixture.subscribe(.stripe, url: receiver.url)
            let eventId = try fixture.emitStripeEvent()
            let dispatcher = WebhookDispatcher(context: fixture.context)

            try dispatcher.step()
            #expect(receiver.deliveries.count == 1)
            var delivery = try #require(fixture.deliveries(of: eventId).first)
            #expect(delivery.status == "pending")
            #expect(delivery.attemptCount == 1)
            #expect(delivery.lastStatusCode == 500)
            let delay = Double(delivery.nextAttemptAt) / 1000 - clock.now().timeIntervalSince1970
            #expect(delay >= 3.75 && delay <= 6.25)

            clock.advance(by: delay - 1)
            try dispatcher.step()
            #expect(receiver.deliveries.count == 1, "not due yet")

            clock.advance(by: 1)
            try dispatcher.step()
            #expect(receiver.deliveries.count == 2)
            delivery = try #require(fixture.deliveries(of: eventId).first)
            #expect(delivery.status == "succeeded")
            #expect(delivery.attemptCount == 2)
            #expect(receiver.deliveries.map(\.eventId) == [eventId, eventId])
            let attempts = try fixture.database.read {
                try $0.query(
                    "SELECT status_code FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempted_at",
                    [
                        .text(delivery.id)
                    ]
                ).map { try $0.int("status_code") }
            }
            #expect(attempts == [500, 200])
            let stored = try fixture.database.read {
                try WebhookSubscriptionRepository(connection: $0).find(
                    id: subscription.id, projectId: fixture.projectId, family: .stripe)
            }
            #expect(stored?.failingSince == nil)
        }
    }

    /// A retry comes due when its project's test clock moves past it, as it would in real time; the retry
    /// after it is scheduled in the project's time too (not already due), and every attempt is still
    /// signed with the real time, which receivers check against their own clock.
    @Test(arguments: DatabaseDriver.all)
    func aRetryComesDueWhenTheProjectsClockMoves(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let fixture = try WebhookFixture(url: url, clock: clock)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver { _ in 500 }
            try fixture.subscribe(.stripe, url: receiver.url)
            let eventId = try fixture.emitStripeEvent()
            let dispatcher = WebhookDispatcher(context: fixture.context)

            try dispatcher.step()
            #expect(receiver.deliveries.count == 1)
            let first = try #require(fixture.deliveries(of: eventId).first)
            let delay = Double(first.nextAttemptAt) / 1000 - clock.now().timeIntervalSince1970
            try dispatcher.step()
            #expect(receiver.deliveries.count == 1, "not due in real time")

            let moved = Int64(delay.rounded(.up))
            _ = try TestClockControl(database: fixture.database, clock: clock).advance(
                projectId: fixture.projectId, seconds: moved)
            try dispatcher.step()
            #expect(receiver.deliveries.count == 2, "due in the project's time")
            let second = try #require(fixture.deliveries(of: eventId).first)
            #expect(second.attemptCount == 2)
            let projectNow = Int64(clock.now().timeIntervalSince1970 * 1000) + moved * 1000
            #expect(second.nextAttemptAt > projectNow, "the next retry lies ahead in the project's time")
            try dispatcher.step()
            #expect(receiver.deliveries.count == 2, "and is not due yet")

            let realSeconds = Int64(clock.now().timeIntervalSince1970)
            for delivery in receiver.deliveries {
                let signature = try #require(delivery.headers["stripe-signature"])
                #expect(signature.hasPrefix("t=\(realSeconds),"), "\(signature)")
            }
        }
    }

    /// An endpoint that fails for 3 days: the delivery gives up and the endpoint is disabled with a reason.
    @Test func endpointFailingForThreeDaysIsDisabled() throws {
        try withWebhookDatabaseURL(.sqlite) { url in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let fixture = try WebhookFixture(url: url, clock: clock)
            defer { fixture.database.close() }
            let receiver = try WebhookReceiver { _ in 503 }
            let subscription = try fixture.subscribe(.cdp, url: receiver.url)
            let eventId = try fixture.emitCDPEvent()
            let dispatcher = WebhookDispatcher(context: fixture.context)
            let start = clock.now()
            while clock.now().timeIntervalSince(start) < 4 * 86400 {
                try dispatcher.step()
                clock.advance(by: 600)
            }
            let delivery = try #require(fixture.deliveries(of: eventId).first)
            #expect(delivery.status == "failed")
            #expect(delivery.attemptCount > 10 && delivery.attemptCount < 40)
            let stored = try #require(
                fixture.database.read {
                    try WebhookSubscriptionRepository(connection: $0).find(
                        id: subscription.id, projectId: fixture.projectId, family: .cdp)
                })
            #expect(!stored.enabled)
            #expect(stored.disabledReason?.contains("72 hours") == true)
            #expect(Set(receiver.deliveries.map(\.eventId)) == [eventId])
        }
    }
}
