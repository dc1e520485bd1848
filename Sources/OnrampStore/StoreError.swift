/// An error raised by the storage layer.
///
/// Compare on ``code``. The ``message`` is meant for developers and logs: it may quote the SQL text
/// but never parameter values or connection secrets.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable category of a ``StoreError``.
    public enum Code: String, Sendable, Hashable {
        /// The database could not be reached, or the connection broke.
        case connectionFailed
        /// A unique or primary-key constraint rejected the write.
        case constraintViolation
        /// The database was locked for too long, or no pooled connection became free in time.
        case busy
        /// PostgreSQL aborted the transaction (serialization failure or deadlock); retrying may succeed.
        case serializationFailure
        /// Any other failure while preparing or running a statement.
        case queryFailed
        /// A migration could not be applied, or the applied history conflicts with the code.
        case migrationFailed
        /// A column was missing or held a value of another type than the one asked for.
        case typeMismatch
        /// The database URL could not be understood.
        case invalidURL
        /// A text parameter held a character no driver may store (NUL); nothing was run.
        case invalidText
        /// A prepared statement was outdated by a schema change inside a transaction, which PostgreSQL
        /// then aborts; running the transaction again succeeds (the statement is prepared afresh).
        case statementOutdated
    }

    /// The stable category of the error.
    public let code: Code
    /// A developer-facing explanation without parameter values or secrets.
    public let message: String

    /// Creates an error with a code and a developer-facing message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether running the same transaction again may succeed (`busy`, `serializationFailure` or
    /// `statementOutdated`).
    public var isRetryable: Bool {
        code == .busy || code == .serializationFailure || code == .statementOutdated
    }

    /// `code: message`.
    public var description: String {
        "\(code.rawValue): \(message)"
    }
}
