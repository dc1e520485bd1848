import AppAttest
import Foundation
import OnrampCrypto

extension AppAttestCommand {
    /// Parsed `--name value` options (repeatable) and positional arguments.
    struct Options {
        private(set) var positional: [String] = []
        private var named: [String: [String]] = [:]

        init(_ arguments: [String]) throws {
            var index = 0
            while index < arguments.count {
                let argument = arguments[index]
                if argument.hasPrefix("--") {
                    guard index + 1 < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
                    named[argument, default: []].append(arguments[index + 1])
                    index += 2
                } else {
                    positional.append(argument)
                    index += 1
                }
            }
        }

        func values(_ name: String) -> [String] { named[name] ?? [] }

        func value(_ name: String) -> String? { named[name]?.last }

        func required(_ name: String) throws -> String {
            guard let value = value(name) else { throw UsageError(message: "missing \(name)") }
            return value
        }

        /// `--client-data-hash HEX`, or SHA256 of `--challenge TEXT`.
        func clientDataHash() throws -> [UInt8] {
            if let hex = value("--client-data-hash") {
                guard let bytes = Hex.decode(hex) else { throw UsageError(message: "--client-data-hash is not hex") }
                return bytes
            }
            return SHA256.hash(try required("--challenge"))
        }
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
