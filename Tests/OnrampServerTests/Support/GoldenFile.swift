import Foundation
import HTTPServer
import OnrampTestSupport
import OnrampWire
import Testing

/// Golden files pin the wire objects clients decode: member names, their order, their types and every
/// constant value. What differs from run to run is replaced by a placeholder first — ids keep their
/// prefix (`cos_…`), secrets their shape, times become `$time`, hashes `$hex` — so a renamed member,
/// a changed type or a dropped field fails the comparison, and a new id does not. Random bytes
/// (challenges, key ids) become `$random`.
///
/// The files live in `Tests/OnrampServerTests/Golden/`. `ONRAMP_UPDATE_GOLDEN=1` rewrites them from the
/// run (review the diff); a missing file fails its test and writes the candidate to `artifacts/golden/`.
enum GoldenFile {
    static let directory = Python.repositoryRoot.appendingPathComponent("Tests/OnrampServerTests/Golden")

    /// Compares `value`, normalised, with `Golden/<name>.json`.
    static func expect(_ value: JSONValue, matches name: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let rendered = normalise(value).prettyPrinted + "\n"
        let file = directory.appendingPathComponent("\(name).json")
        if ProcessInfo.processInfo.environment["ONRAMP_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try rendered.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let golden = try? String(contentsOf: file, encoding: .utf8) else {
            let candidates = Python.repositoryRoot.appendingPathComponent("artifacts/golden")
            try FileManager.default.createDirectory(at: candidates, withIntermediateDirectories: true)
            try rendered.write(to: candidates.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
            Issue.record(
                "no golden file \(name).json; the candidate is in artifacts/golden/", sourceLocation: sourceLocation)
            return
        }
        #expect(rendered == golden, "\(name).json differs:\n\(rendered)", sourceLocation: sourceLocation)
    }

    /// Members whose values are instants (seconds or milliseconds since 1970) or durations of a run.
    private static let timeMembers: Set<String> = [
        "created", "expires_at", "updated", "createdAt", "updatedAt", "expiresAt", "completedAt", "completed_at",
        "created_at", "updated_at", "quote_expiration", "expires", "expiration",
    ]

    /// Members holding random bytes (challenges, App Attest key ids) in base64 or base64url.
    private static let randomMembers: Set<String> = ["challenge", "keyId", "nonce"]

    static func normalise(_ value: JSONValue, member: String? = nil) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.map { ($0.0, normalise($0.1, member: $0.0)) })
        case .array(let items):
            return .array(items.map { normalise($0) })
        case .number where member.map(timeMembers.contains) == true:
            return "$time"
        case .string(let text):
            return .string(placeholder(for: text, member: member))
        default:
            return value
        }
    }

    private static func placeholder(for text: String, member: String?) -> String {
        if let member, timeMembers.contains(member) { return "$time" }
        if let member, randomMembers.contains(member) { return "$random" }
        if text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/) != nil { return "$date-time" }
        if text.wholeMatch(of: /0x[0-9a-fA-F]{64}/) != nil { return "$hex" }
        if text.wholeMatch(of: /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/) != nil {
            return "$uuid"
        }
        if text.wholeMatch(of: /req_[A-Za-z0-9]+/) != nil { return "req_…" }
        // An id: a lower-case prefix and at least 12 random characters, perhaps a secret behind it.
        if let match = text.wholeMatch(of: /([a-z]+(?:_[a-z]+)*)_[A-Za-z0-9]{12,}(_secret_[A-Za-z0-9]+)?/) {
            return "\(match.1)_…" + (match.2 == nil ? "" : "_secret_…")
        }
        // URLs carry ports, tokens and ids: keep the path (its request ids as placeholders), placeholder the rest.
        if let match = text.wholeMatch(of: /https?:\/\/127\.0\.0\.1:\d+(\/[^?#]*)?(\?.*)?/) {
            let path = String(match.1 ?? "").replacing(/req_[A-Za-z0-9]+/, with: "req_…")
            return "http://127.0.0.1:$port" + path + (match.2 == nil ? "" : "?…")
        }
        return text
    }
}
