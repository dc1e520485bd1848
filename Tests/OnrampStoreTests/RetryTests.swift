import OnrampStore
import OnrampTestSupport
import Testing

@Suite(.blocking) struct RetryTests {
    @Test func retryableErrorsAreRetried() throws {
        var attempts = 0
        let result = try withRetry(maxAttempts: 3) {
            attempts += 1
            if attempts < 3 { throw StoreError(.serializationFailure, "try again") }
            return "done"
        }
        #expect(result == "done" && attempts == 3)
    }

    @Test func otherErrorsAndExhaustionAreRethrown() {
        var attempts = 0
        expectStoreError(.constraintViolation) {
            try withRetry(maxAttempts: 5) {
                attempts += 1
                throw StoreError(.constraintViolation, "duplicate")
            }
        }
        #expect(attempts == 1)
        attempts = 0
        expectStoreError(.busy) {
            try withRetry(maxAttempts: 2) {
                attempts += 1
                throw StoreError(.busy, "locked")
            }
        }
        #expect(attempts == 2)
    }
}
