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

    /// Runs `Tests/python/<script>` with `arguments` and extra environment variables. The script runs
    /// while the calling task waits without holding a thread of the concurrency pool (two threads on a
    /// two-core machine): a minute of Chromium or a fuzzer would otherwise stall every other test.
    public static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:])
        async throws -> Output
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
        let running = RunningScript(process: process, out: out, err: err)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: running.collect()) }
        }
    }

    /// A started script and its pipes, collected on a thread of its own.
    private struct RunningScript: @unchecked Sendable {
        // Only the collecting thread touches these once the script has started.
        let process: Process
        let out: Pipe
        let err: Pipe

        /// Reads both pipes to their end (standard error on a second thread, so neither fills up and
        /// blocks the script), then waits for the exit status.
        func collect() -> Output {
            let errorText = ErrorText()
            let errorRead = Thread { errorText.set(err.fileHandleForReading.readDataToEndOfFile()) }
            errorRead.start()
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                standardError: String(decoding: errorText.wait(), as: UTF8.self))
        }
    }

    /// Standard error as its reading thread hands it over.
    private final class ErrorText: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        func set(_ value: Data) {
            data = value
            done.signal()
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
