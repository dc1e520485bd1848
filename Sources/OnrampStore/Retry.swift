import Foundation

/// Runs `body` again when it throws a retryable ``StoreError`` (`busy` or `serializationFailure`),
/// up to `maxAttempts` times in all, sleeping a short, growing, jittered delay between attempts.
///
/// Use it around a whole ``Database/transaction(_:)`` call whose body has no side effects outside
/// the database.
@discardableResult
public func withRetry<T>(maxAttempts: Int = 5, _ body: () throws -> T) throws -> T {
    var attempt = 1
    while true {
        do {
            return try body()
        } catch let error as StoreError where error.isRetryable && attempt < maxAttempts {
            let baseMicroseconds = UInt32(1_000 << min(attempt, 8))
            usleep(baseMicroseconds / 2 + UInt32.random(in: 0...baseMicroseconds))
            attempt += 1
        }
    }
}
