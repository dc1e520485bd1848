import Foundation
import Testing

@testable import OnrampServer

/// Every hosted page a person sees (handoff, hosted onramp and offramp, payment buttons, Link consent, 3-D
/// Secure, identity) says "Sandbox", so no one mistakes the sandbox for Coinbase's or Stripe's real page: they
/// are all made by `HTML.page`, which carries the marker, and no other file writes a page of its own but the
/// console's.
@Suite struct SandboxMarkerTests {
    @Test func everyHostedPageCarriesTheMarker() throws {
        let page = HTML.page(title: "Confirm", body: "<h1>Confirm</h1>")
        #expect(page.contains(#"<span class="marker""#) && page.contains(">Sandbox</span>"))
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OnrampServer")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        let ownPages = try files.filter {
            try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8).lowercased()
                .contains("<!doctype html>")
        }
        #expect(Set(ownPages) == ["Support/HTML.swift", "Console/ConsolePage.swift"], "\(ownPages)")
    }
}
