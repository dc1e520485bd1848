import Foundation

/// Times as the wire formats write them. Stored times are milliseconds since 1970 (UTC) in BIGINT
/// columns, so both databases order and compare them the same way.
package enum Timestamp {
    /// Milliseconds since 1970 for `date`.
    package static func milliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        // Saturates instead of trapping: a date beyond Int64's milliseconds (about 292 million years) is
        // clamped, and NaN is 0.
        guard milliseconds.isFinite else { return milliseconds.isNaN ? 0 : (milliseconds > 0 ? .max : .min) }
        return Int64(exactly: milliseconds) ?? (milliseconds > 0 ? .max : .min)
    }

    /// The date for stored milliseconds.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// RFC 3339 in UTC with seconds precision (`2026-11-30T06:00:00Z`), as the CDP API writes times.
    package static func rfc3339(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Unix seconds, as the Stripe API writes times.
    package static func unixSeconds(milliseconds: Int64) -> Int64 {
        milliseconds / 1000
    }

    /// Parses an RFC 3339 time (`2026-11-30T06:00:00Z`, `…T06:00:00.250+01:00`) or a full date alone
    /// (`2026-11-30`, midnight UTC, `dateOnly`) strictly: a calendar date (no 30 February), years 1970 to
    /// 9999, hours, minutes and offsets in range; `nil` for anything else. Sub-millisecond digits are cut.
    package static func parseRFC3339(_ text: String) -> (milliseconds: Int64, dateOnly: Bool)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            (1970...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let midnight = daysSince1970(year: year, month: month, day: day) * 86_400_000
        if bytes.count == 10 { return (midnight, true) }
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, index - start <= 9 else { return nil }
            for position in start..<min(start + 3, index) {
                milliseconds = milliseconds * 10 + Int64(bytes[position] - 48)
            }
            for _ in min(index - start, 3)..<3 { milliseconds *= 10 }
        }
        var offsetMinutes: Int64 = 0
        switch bytes.count - index {
        case 1 where bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z"):
            break
        case 6 where bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"):
            guard bytes[index + 3] == UInt8(ascii: ":"), let hours = number(bytes, index + 1, 2),
                let minutes = number(bytes, index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        // A leap second (:60) is read as the last millisecond of its minute.
        let secondsPart = second == 60 ? 59_999 : second * 1000 + milliseconds
        let total = midnight + (hour * 3600 + minute * 60) * 1000 + secondsPart - offsetMinutes * 60_000
        return total >= 0 ? (total, false) : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        guard start + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[start..<start + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return value
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
