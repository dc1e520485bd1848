/// A statement with its bindings and the decoding of what it answers, so that a caller gets typed values back
/// and never reads a batch's results by position (postgres-nio's prepared-statement shape). Run one, or
/// several in one round trip, with ``SQLConnection/run(_:)-(SQLQuery<each Output>)`` or
/// ``Database/read(_:)-(SQLQuery<each Output>)``.
///
/// ```swift
/// let (customer, wallet) = try connection.run(
///     CryptoCustomerRepository.lookup(id: customerId), CryptoWalletRepository.lookup(customerId: customerId, …))
/// ```
public struct SQLQuery<Output>: Sendable {
    /// The statement and its parameters.
    public let statement: SQLStatement
    private let decode: @Sendable (SQLOutcome) throws -> Output

    /// A query of `sql` with `parameters`, whose outcome `decode` turns into its value.
    public init(
        _ sql: String, _ parameters: [SQLValue] = [], decode: @escaping @Sendable (SQLOutcome) throws -> Output
    ) {
        statement = SQLStatement(sql, parameters)
        self.decode = decode
    }

    /// A query of `statement`, whose outcome `decode` turns into its value.
    public init(_ statement: SQLStatement, decode: @escaping @Sendable (SQLOutcome) throws -> Output) {
        self.statement = statement
        self.decode = decode
    }

    /// The value of `outcome`, this query's result.
    public func output(of outcome: SQLOutcome) throws -> Output {
        try decode(outcome)
    }

    /// This query with its value turned into another.
    public func map<Mapped>(_ transform: @escaping @Sendable (Output) throws -> Mapped) -> SQLQuery<Mapped> {
        let decode = self.decode
        return SQLQuery<Mapped>(statement) { try transform(decode($0)) }
    }
}

extension SQLQuery where Output == Int {
    /// A statement whose value is the number of rows it inserted, updated or deleted.
    public static func changing(_ sql: String, _ parameters: [SQLValue] = []) -> SQLQuery<Int> {
        SQLQuery(sql, parameters) { $0.changes }
    }
}

/// The outcomes of a batch handed to its queries in order: each query takes the next one.
private final class OutcomeCursor {
    private let outcomes: [SQLOutcome]
    private var position = 0

    init(_ outcomes: [SQLOutcome]) { self.outcomes = outcomes }

    func next<Output>(for query: SQLQuery<Output>) throws -> Output {
        defer { position += 1 }
        return try query.output(of: outcomes[position])
    }
}

extension SQLConnection {
    /// Runs `query` and returns its value.
    public func run<Output>(_ query: SQLQuery<Output>) throws -> Output {
        let outcomes = try run([query.statement])
        return try query.output(of: outcomes[0])
    }

    /// Runs `queries` in order, as ``run(_:)-([SQLStatement])`` runs statements (one round trip on
    /// PostgreSQL), and returns each one's value.
    public func run<each Output>(_ queries: repeat SQLQuery<each Output>) throws -> (repeat each Output) {
        var statements: [SQLStatement] = []
        repeat statements.append((each queries).statement)
        let cursor = OutcomeCursor(try run(statements))
        return (repeat try cursor.next(for: each queries))
    }
}

extension Database {
    /// Runs `query` as one read and returns its value.
    public func read<Output>(_ query: SQLQuery<Output>) throws -> Output {
        let outcomes = try read([query.statement])
        return try query.output(of: outcomes[0])
    }

    /// Runs `queries` in order as one read (one snapshot; on PostgreSQL with its `BEGIN` and `COMMIT` in one
    /// pipeline, as ``read(_:)-([SQLStatement])``) and returns each one's value.
    public func read<each Output>(_ queries: repeat SQLQuery<each Output>) throws -> (repeat each Output) {
        var statements: [SQLStatement] = []
        repeat statements.append((each queries).statement)
        let cursor = OutcomeCursor(try read(statements))
        return (repeat try cursor.next(for: each queries))
    }
}
