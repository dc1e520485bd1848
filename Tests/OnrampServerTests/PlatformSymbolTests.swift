import Foundation
import Testing

/// The server is built and tested on Linux only, yet must build on a Mac: whatever differs between glibc
/// and Darwin lives in `OnrampPlatform`, one small file per concern with a branch for each, and the app
/// SDK's Apple-framework files are the only other platform branches. This checks the source tree, since no
/// Darwin compiler runs here: a Linux-only symbol anywhere else fails, and so does a platform branch the
/// README's list of what is built on Linux only does not name.
@Suite struct PlatformSymbolTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let platformFolder = "Sources/OnrampPlatform/"

    /// Symbols and spellings glibc has and Darwin lacks (or spells differently).
    static let linuxOnly = [
        "inotify_", "IN_MODIFY", "IN_CLOEXEC", "epoll_", "eventfd", "accept4", "pipe2", "signalfd", "timerfd",
        "mallopt", "M_ARENA_MAX", "malloc_trim", "mallinfo", "CLOCK_MONOTONIC_COARSE", "SOCK_CLOEXEC",
        "SOCK_NONBLOCK", "MSG_NOSIGNAL", "SOCK_STREAM.rawValue", "SOCK_DGRAM.rawValue", "RLIMIT_NOFILE.rawValue",
        "pthread_condattr_setclock", "sched_setaffinity", "prctl(", "Glibc.", "import CMalloc", "\"/proc/",
    ]

    /// The one import block a file outside the platform module may use to reach libc.
    static var importBlock: Regex<AnyRegexOutput> {
        get throws {
            try Regex(
                #"#if canImport\(Glibc\)\n\s*import Glibc\n#elseif canImport\(Darwin\)\n\s*import Darwin\n#endif"#)
        }
    }

    /// The Swift files of the package (sources, tests, examples), as paths from the root; not this one,
    /// which names the symbols it looks for.
    static func swiftFiles() throws -> [String] {
        try ["Sources", "Tests", "Examples"].flatMap { folder in
            try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }.filter { $0 != "Tests/OnrampServerTests/PlatformSymbolTests.swift" }
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func linuxOnlySymbolsLiveInThePlatformModuleAlone() throws {
        var found: [String] = []
        for path in try Self.swiftFiles() where !path.hasPrefix(Self.platformFolder) {
            let text = try Self.text(path)
            for symbol in Self.linuxOnly where text.contains(symbol) { found.append("\(path): \(symbol)") }
        }
        #expect(found.isEmpty, "Linux-only symbols outside \(Self.platformFolder): \(found)")
    }

    /// `import Glibc` elsewhere comes with its Darwin twin, in the one block above.
    @Test func glibcIsImportedWithDarwinBesideIt() throws {
        var unpaired: [String] = []
        for path in try Self.swiftFiles() where !path.hasPrefix(Self.platformFolder) {
            let text = try Self.text(path).replacing(try Self.importBlock, with: "")
            if text.contains("import Glibc") { unpaired.append(path) }
        }
        #expect(unpaired.isEmpty, "import Glibc without the Darwin branch: \(unpaired)")
    }

    /// Every file with a platform branch (beyond the import block and Foundation's networking split), and
    /// the README names each as built on Linux only. Outside the platform module only the app SDK's Apple
    /// framework files may branch.
    @Test func everyPlatformBranchIsListedInTheReadme() throws {
        let branch = try Regex(#"#(if|elseif)\s+[^\n]*(canImport\((?!FoundationNetworking)\w+\)|os\(\w+\))"#)
        var branching: [String] = []
        for path in try Self.swiftFiles() {
            let text = try Self.text(path).replacing(try Self.importBlock, with: "")
            if text.contains(branch) { branching.append(path) }
        }
        let outside = branching.filter { !$0.hasPrefix(Self.platformFolder) && !$0.hasPrefix("Sources/OnrampClient/") }
        #expect(outside.isEmpty, "platform branches outside OnrampPlatform and the app SDK: \(outside)")
        #expect(branching.contains { $0.hasPrefix(Self.platformFolder) }, "the scan found the platform module")

        let readme = try Self.text("README.md")
        let section = try #require(readme.firstRange(of: "### Built on Linux only"), "the README's section")
        let after = readme[section.upperBound...]
        let listed = after.range(of: "\n## ").map { after[..<$0.lowerBound] } ?? after
        let missing = branching.filter { !listed.contains("`\($0)`") }
        #expect(missing.isEmpty, "platform branches the README's list does not name: \(missing)")
    }
}
