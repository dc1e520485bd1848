import OnrampCore
import Testing

@Suite struct SandboxVerificationTests {
    @Test func onlyTheExactLastNameVerifiedPasses() {
        #expect(SandboxVerification.outcome(lastName: "Verified") == .verified)
        for other in ["verified", "VERIFIED", "Verified ", "Lovelace", ""] {
            #expect(SandboxVerification.outcome(lastName: other) == .rejected, "\(other)")
        }
    }
}
