import OnrampTestSupport
import Testing

@testable import OnrampStore

@Suite(.blocking) struct PostgresPlaceholdersTests {
    @Test(arguments: [
        ("SELECT ?", "SELECT $1", 1),
        ("INSERT INTO t VALUES (?, ?, ?)", "INSERT INTO t VALUES ($1, $2, $3)", 3),
        ("SELECT '?', 'it''s ?', ?", "SELECT '?', 'it''s ?', $1", 1),
        (#"SELECT E'\'?', ?"#, #"SELECT E'\'?', $1"#, 1),
        (#"SELECT "odd?name" FROM t WHERE a = ?"#, #"SELECT "odd?name" FROM t WHERE a = $1"#, 1),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2),
        ("SELECT /* ? */ ?", "SELECT /* ? */ $1", 1),
        ("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0),
    ])
    func questionMarksOutsideLiteralsBecomeNumbered(sql: String, expected: String, count: Int) {
        let rewritten = PostgresPlaceholders.rewrite(sql)
        #expect(rewritten.sql == expected)
        #expect(rewritten.count == count)
    }
}
