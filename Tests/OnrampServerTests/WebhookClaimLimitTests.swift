import Testing

@testable import OnrampServices

/// How much a webhook round asks to lease: one endpoint's share at first, twice as much after a round kept all it
/// asked, back to twice what a round kept when it kept less, never more than the free slots.
@Suite struct WebhookClaimLimitTests {
    @Test func theAskGrowsWhileRoundsKeepItAndFallsBackWhenTheyDoNot() {
        var limit = ClaimLimit(floor: 16)
        #expect(limit.next(capacity: 256) == 16)
        limit.record(asked: 16, kept: 16)
        #expect(limit.next(capacity: 256) == 32)
        limit.record(asked: 32, kept: 32)
        limit.record(asked: 64, kept: 64)
        limit.record(asked: 128, kept: 128)
        #expect(limit.next(capacity: 256) == 256)
        #expect(limit.next(capacity: 40) == 40, "never more than the free slots")
        // One endpoint's backlog: a round keeps what that endpoint's share has room for.
        limit.record(asked: 256, kept: 1)
        #expect(limit.next(capacity: 256) == 16)
        limit.record(asked: 16, kept: 9)
        #expect(limit.next(capacity: 256) == 18)
        // A round with no free slot teaches nothing.
        limit.record(asked: 0, kept: 0)
        #expect(limit.next(capacity: 256) == 18)
    }
}
