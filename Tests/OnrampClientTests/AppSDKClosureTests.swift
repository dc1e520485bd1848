import Foundation
import Testing

/// The app-side SDK builds for iOS: `OnrampClient`'s dependency closure, as SwiftPM resolves it (`swift package
/// describe --type json`), holds no system library (the C libraries exist on this Linux machine, not in the iOS
/// SDK), and its sources import only Foundation, the standard library's modules, Apple's frameworks behind
/// `#if canImport`, and the closure's own pure-Swift modules. No Apple toolchain runs here, so this is the check
/// that fails when a C library creeps in.
@Suite struct AppSDKClosureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The package as SwiftPM describes it: each target's direct dependencies, the system-library targets, and
    /// each product's targets. Run with a scratch folder of its own, so it never waits for the lock of the build
    /// running these tests.
    static func describe() throws -> (
        dependencies: [String: [String]], systemLibraries: Set<String>, products: [String: [String]]
    ) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            ProcessInfo.processInfo.environment["SWIFT"] ?? "swift", "package", "--package-path", root.path,
            "--scratch-path", scratch.path, "describe", "--type", "json",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package describe failed")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        var systemLibraries: Set<String> = []
        for target in targets {
            let name = try #require(target["name"] as? String)
            dependencies[name] = target["target_dependencies"] as? [String] ?? []
            if target["module_type"] as? String == "SystemLibraryTarget" { systemLibraries.insert(name) }
        }
        var products: [String: [String]] = [:]
        for product in try #require(json["products"] as? [[String: Any]]) {
            products[try #require(product["name"] as? String)] = product["targets"] as? [String] ?? []
        }
        return (dependencies, systemLibraries, products)
    }

    /// `targets` and everything they depend on.
    static func closure(of targets: [String], in dependencies: [String: [String]]) -> Set<String> {
        var closure: Set<String> = []
        var pending = targets
        while let next = pending.popLast() {
            guard closure.insert(next).inserted else { continue }
            pending += dependencies[next] ?? []
        }
        return closure
    }

    @Test func theAppSDKsClosureHoldsNoCLibrary() throws {
        let (dependencies, systemLibraries, _) = try Self.describe()
        #expect(systemLibraries.contains("COpenSSL") && dependencies["OnrampServer"] != nil, "read the package")
        let closure = Self.closure(of: ["OnrampClient"], in: dependencies)
        #expect(
            closure.isDisjoint(with: systemLibraries),
            "C libraries in OnrampClient's closure: \(closure.intersection(systemLibraries))")
        #expect(closure == ["OnrampClient", "OnrampCore", "OnrampWire"], "\(closure.sorted())")
    }

    /// Which products an app may add (no C library in their closure) and which are for a backend or a
    /// server (they link OpenSSL and the other Debian libraries), as the README's "Adding the SDK" says.
    @Test func theProductsAreAppSideOrBackend() throws {
        let (dependencies, systemLibraries, products) = try Self.describe()
        var appSide: Set<String> = []
        var backend: [String: Set<String>] = [:]
        for (product, targets) in products {
            let libraries = Self.closure(of: targets, in: dependencies).intersection(systemLibraries)
            if libraries.isEmpty { appSide.insert(product) } else { backend[product] = libraries }
        }
        #expect(appSide == ["OnrampClient", "OnrampCore"], "app-side products: \(appSide.sorted())")
        #expect(
            Set(backend.keys) == [
                "OnrampBackend", "OnrampCrypto", "AppAttest", "PartnerBackendKit", "onramp", "partner-backend",
            ], "backend products: \(backend.keys.sorted())")
        #expect(backend["OnrampBackend"]?.contains("COpenSSL") == true, "the backend module keeps OpenSSL")
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
