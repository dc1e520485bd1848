import Foundation

/// Runs the project's Python tools (the venv made by `scripts/install-deps.sh test`) from tests.
public enum Python {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's interpreter.
    public static var interpreter: URL { repositoryRoot.appendingPathComponent(".venv/bin/python") }

    /// The built `onramp` binary next to the test bundle.
    public static var onrampBinary: URL { repositoryRoot.appendingPathComponent(".build/debug/onramp") }

    /// The result of a run.
    public struct Output: Sendable {
        /// The exit status.
        public let status: Int32
        /// Standard output.
        public let standardOutput: String
        /// Standard error.
        public let standardError: String
    }

    /// Runs `Tests/python/<script>` with `arguments` and extra environment variables.
    public static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Output
    {
        let process = Process()
        process.executableURL = interpreter
        process.arguments = [repositoryRoot.appendingPathComponent("Tests/python/\(script)").path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }
}
