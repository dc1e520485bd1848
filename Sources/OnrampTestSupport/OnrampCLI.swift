import Foundation

/// The `onramp` command the tests build (``Python/onrampBinary``), run as a process the way a person runs it.
public enum OnrampCLI {
    /// A process of `onramp` with `arguments`, in `directory` when given, its environment the test's own with
    /// `environment` laid over it (a `nil` value removes the variable). Not started.
    public static func process(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]
    ) -> Process {
        let process = Process()
        process.executableURL = Python.onrampBinary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        return process
    }

    /// Runs `onramp` with `arguments` to its end (see ``process(_:in:environment:)``): its exit status, standard
    /// output and standard error.
    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = process(arguments, in: directory, environment: environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: printed, as: UTF8.self),
            String(decoding: complaints, as: UTF8.self)
        )
    }
}
