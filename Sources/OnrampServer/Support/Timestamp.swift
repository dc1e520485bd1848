import Foundation

/// Times as the wire formats write them. Stored times are milliseconds since 1970 (UTC) in BIGINT
/// columns, so both databases order and compare them the same way.
enum Timestamp {
    /// Milliseconds since 1970 for `date`.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The date for stored milliseconds.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// RFC 3339 in UTC with seconds precision (`2026-11-30T06:00:00Z`), as the CDP API writes times.
    static func rfc3339(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Unix seconds, as the Stripe API writes times.
    static func unixSeconds(milliseconds: Int64) -> Int64 {
        milliseconds / 1000
    }
}
