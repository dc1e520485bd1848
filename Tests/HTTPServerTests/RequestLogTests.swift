import Foundation
import Testing

@testable import HTTPServer

/// The console's request log: a ring of the last requests, newest first.
struct RequestLogTests {
    static func entry(_ number: Int) -> RequestLog.Entry {
        RequestLog.Entry(
            time: Date(timeIntervalSince1970: Double(number)), requestId: "req_\(number)", method: "GET",
            route: "/livez", status: 200, seconds: 0.001)
    }

    @Test func keepsTheLastEntriesNewestFirstAndFindsOneById() {
        let log = RequestLog(capacity: 3)
        #expect(log.recent().isEmpty)
        for number in 1...2 { log.record(Self.entry(number)) }
        #expect(log.recent().map(\.requestId) == ["req_2", "req_1"])
        for number in 3...7 { log.record(Self.entry(number)) }
        #expect(log.recent().map(\.requestId) == ["req_7", "req_6", "req_5"])
        #expect(log.recent(requestId: "req_6") == [Self.entry(6)])
        #expect(log.recent(requestId: "req_4").isEmpty, "overwritten")
    }
}
