import AppAttest
import Foundation
import OnrampCrypto
import OnrampWire

extension AppAttestCommand {
    /// Every option the `onramp appattest` subcommands take (each with a value).
    static let valueOptions: Set<String> = [
        "--attestation", "--assertion", "--trust-root", "--out", "--ca", "--key", "--app-id", "--challenge",
        "--client-data-hash", "--environment", "--seconds",
    ]

    /// Parses a subcommand's arguments with the CLI's shared parser.
    static func options(_ arguments: [String]) throws -> Arguments {
        try Arguments(arguments, valueOptions: valueOptions)
    }

    /// A JSON vector file in the shared format.
    struct Vector {
        let path: String
        let fields: [String: Any]

        init(path: String) throws {
            self.path = path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw UsageError(message: "\(path) is not a JSON object")
            }
            fields = object
        }

        func optionalString(_ key: String) -> String? { fields[key] as? String }

        func string(_ key: String) -> String { optionalString(key) ?? "" }

        func hex(_ key: String) throws -> [UInt8] {
            guard let bytes = Hex.decode(string(key)) else {
                throw AppAttestError(code: .invalidInput, message: "\(key) is not hex")
            }
            return bytes
        }

        /// Standard or URL-safe base64, padded or not (vectors keep their sources' alphabets).
        func base64(_ key: String) throws -> [UInt8] {
            var text = string(key).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            text = text.trimmingCharacters(in: CharacterSet(charactersIn: "="))
            text += String(repeating: "=", count: (4 - text.count % 4) % 4)
            guard let bytes = Base64.decode(text) else {
                throw AppAttestError(code: .invalidInput, message: "\(key) is not base64")
            }
            return bytes
        }

        func date(_ key: String) throws -> Date {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: string(key)) { return date }
            formatter.formatOptions = [.withInternetDateTime]
            guard let date = formatter.date(from: string(key)) else {
                throw AppAttestError(code: .invalidInput, message: "\(key) is not an ISO 8601 time")
            }
            return date
        }
    }
}

extension Arguments {
    /// The value of an option that must be given.
    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw AppAttestCommand.UsageError(message: "missing \(name)") }
        return value
    }

    /// `--client-data-hash HEX`, or SHA256 of `--challenge TEXT`.
    func clientDataHash() throws -> [UInt8] {
        if let hex = value("--client-data-hash") {
            guard let bytes = Hex.decode(hex) else {
                throw AppAttestCommand.UsageError(message: "--client-data-hash is not hex")
            }
            return bytes
        }
        return SHA256.hash(try required("--challenge"))
    }
}
