import OnrampCore
import Testing

@Suite struct ThreeDSecureStatusTests {
    @Test func thePageOutcomeNamesTheAnswer() {
        #expect(ThreeDSecureStatus(pageOutcome: "complete") == .passed)
        #expect(ThreeDSecureStatus(pageOutcome: "fail") == .failed)
        for other in ["pending", "passed", "Complete", ""] {
            #expect(ThreeDSecureStatus(pageOutcome: other) == nil, "\(other)")
        }
    }

    @Test func onlyAPendingChallengeIsAnswerable() {
        #expect(ThreeDSecureStatus.pending.isAnswerable)
        #expect(!ThreeDSecureStatus.passed.isAnswerable)
        #expect(!ThreeDSecureStatus.failed.isAnswerable)
        // The stored strings are the wire's and the database's.
        #expect(ThreeDSecureStatus.allCases.map(\.rawValue) == ["pending", "passed", "failed"])
    }
}
