import Foundation
import OnrampCrypto
import OnrampWire

/// One JSON vector from `Fixtures/appattest` (the repository's copy of the team's real App Attest
/// vectors; each file names its source), with typed accessors for the fields the tests use.
struct TestVector: Sendable, CustomStringConvertible {
    let name: String
    let fields: [String: any Sendable]

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/appattest")

    /// The vector in `file`, or one without fields when it cannot be read: the tests that use it then
    /// fail, and the rest of the run goes on.
    static func loadIfPresent(_ file: String) -> TestVector {
        (try? load(file)) ?? TestVector(name: file, fields: [:])
    }

    static func all() throws -> [TestVector] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
            .map { try load($0) }
    }

    static func load(_ file: String) throws -> TestVector {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var fields: [String: any Sendable] = [:]
        for (key, value) in object {
            if let text = value as? String {
                fields[key] = text
            } else if let number = value as? Int {
                fields[key] = number
            }
        }
        return TestVector(name: String(file.dropLast(5)), fields: fields)
    }

    var description: String { name }
    var kind: String { string("kind") }
    var appId: String { string("app_id") }
    var keyId: String { string("key_id") }
    var clientDataHash: [UInt8] { Hex.decode(string("client_data_hash_hex")) ?? [] }
    var environment: String { string("environment") }
    var attestation: [UInt8] { Self.lenientBase64(string("attestation_b64")) }
    var assertion: [UInt8] { Self.lenientBase64(string("assertion_b64")) }
    var publicKeyX963: [UInt8] { Self.lenientBase64(string("public_key_x963_b64")) }
    var previousCounter: UInt32 { UInt32(fields["previous_counter_for_success"] as? Int ?? 0) }
    var counter: UInt32 { UInt32(fields["counter"] as? Int ?? 0) }
    var linkedAttestation: String? { fields["linked_attestation_vector"] as? String }
    var verifyAt: Date { Self.date(string("verify_at_time")) }
    var leafNotAfter: Date { Self.date(string("leaf_not_after")) }

    func string(_ key: String) -> String { fields[key] as? String ?? "" }

    /// Standard or URL-safe base64, padded or not (the vectors keep their sources' alphabets).
    static func lenientBase64(_ text: String) -> [UInt8] {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Base64.decode(standard) ?? []
    }

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text) ?? .distantPast
    }
}
