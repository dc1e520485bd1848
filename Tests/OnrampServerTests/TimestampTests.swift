import Foundation
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The strict RFC 3339 reader: what it accepts agrees with Foundation's formatter, and what Foundation
/// would bend into another date it refuses.
struct TimestampTests {
    @Test(arguments: [
        "1970-01-01T00:00:00Z", "2026-11-30T06:00:00Z", "2024-02-29T23:59:59Z", "2026-11-30T06:00:00+01:30",
        "2026-11-30T06:00:00-08:00", "9999-12-31T23:59:59Z", "2000-03-01T12:34:56Z",
    ])
    func agreesWithFoundationOnValidTimes(text: String) throws {
        let parsed = try #require(Timestamp.parseRFC3339(text))
        let foundation = try #require(ISO8601DateFormatter().date(from: text))
        #expect(parsed.milliseconds == Timestamp.milliseconds(foundation))
        #expect(!parsed.dateOnly)
    }

    @Test func readsFractionsAndDates() throws {
        #expect(Timestamp.parseRFC3339("1970-01-01T00:00:01.250Z")?.milliseconds == 1250)
        #expect(Timestamp.parseRFC3339("1970-01-01T00:00:01.2Z")?.milliseconds == 1200)
        #expect(Timestamp.parseRFC3339("1970-01-01T00:00:01.123456789Z")?.milliseconds == 1123)
        let day = try #require(Timestamp.parseRFC3339("2026-11-30"))
        #expect(day.dateOnly)
        #expect(
            day.milliseconds
                == Timestamp.milliseconds(try #require(ISO8601DateFormatter().date(from: "2026-11-30T00:00:00Z"))))
    }

    @Test(arguments: [
        "2026-02-29", "2023-02-29T00:00:00Z", "2026-04-31", "2026-00-10", "2026-13-01", "0001-01-01", "1969-12-31",
        "999999999-01-01", "10000-01-01", "2026-11-30T24:00:00Z", "2026-11-30T06:60:00Z", "2026-11-30T06:00:00",
        "2026-11-30T06:00:00+25:00", "2026-11-30T06:00:00.Z", "2026-11-30T06:00:00.1234567890Z", "2026-1-30",
        " 2026-11-30", "2026-11-30 ", "last-week", "", "1970-01-01T00:00:00+01:00",
    ])
    func refusesWhatIsNoRealTime(text: String) {
        #expect(Timestamp.parseRFC3339(text) == nil, "\(text)")
    }
}
