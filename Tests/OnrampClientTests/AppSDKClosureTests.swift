import Foundation
import Testing

/// The app-side SDK builds for iOS: `OnrampClient`'s dependency closure, as `Package.swift` declares it, holds no
/// system library (the C libraries exist on this Linux machine, not in the iOS SDK), and its sources import only
/// Foundation, the standard library's modules, Apple's frameworks behind `#if canImport`, and the closure's own
/// pure-Swift modules. No Apple toolchain runs here, so this is the check that fails when a C library creeps in.
@Suite struct AppSDKClosureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each target of the manifest with the targets it depends on, and the system-library targets.
    static func manifest() throws -> (dependencies: [String: [String]], systemLibraries: Set<String>) {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var dependencies: [String: [String]] = [:]
        let target = try Regex(
            #"\.(?:target|executableTarget|testTarget)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        for match in text.matches(of: target) {
            let name = String(try #require(match.output[1].substring))
            let list = match.output[2].substring.map(String.init) ?? ""
            dependencies[name] = list.matches(of: try Regex(#""(\w+)""#)).compactMap {
                $0.output[1].substring.map(String.init)
            }
        }
        let systemLibraries = Set(
            text.matches(of: try Regex(#"\.systemLibrary\(\s*name:\s*"(\w+)""#)).compactMap {
                $0.output[1].substring.map(String.init)
            })
        return (dependencies, systemLibraries)
    }

    @Test func theAppSDKsClosureHoldsNoCLibrary() throws {
        let (dependencies, systemLibraries) = try Self.manifest()
        #expect(systemLibraries.contains("COpenSSL") && dependencies["OnrampServer"] != nil, "read the manifest")
        var closure: Set<String> = []
        var pending = ["OnrampClient"]
        while let next = pending.popLast() {
            guard closure.insert(next).inserted else { continue }
            pending += dependencies[next] ?? []
        }
        #expect(
            closure.isDisjoint(with: systemLibraries),
            "C libraries in OnrampClient's closure: \(closure.intersection(systemLibraries))")
        #expect(closure == ["OnrampClient", "OnrampCore", "OnrampWire"], "\(closure.sorted())")
        // The backend module keeps OpenSSL, through OnrampCrypto.
        #expect(dependencies["OnrampBackend"]?.contains("OnrampCrypto") == true)
    }

    @Test func theAppSDKImportsNothingElse() throws {
        let allowed: Set<String> = [
            "Foundation", "FoundationNetworking", "Synchronization", "OnrampCore", "OnrampWire", "UIKit", "DeviceCheck",
        ]
        let sources = Self.root.appendingPathComponent("Sources/OnrampClient")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "found the SDK's files")
        let importLine = try Regex(#"(?m)^\s*(?:@\w+\s+)?import\s+(\w+)"#)
        var imported: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: importLine) {
                imported.insert(String(try #require(match.output[1].substring)))
            }
        }
        #expect(
            imported.isSubset(of: allowed), "modules the app SDK imports: \(imported.subtracting(allowed).sorted())")
    }
}
