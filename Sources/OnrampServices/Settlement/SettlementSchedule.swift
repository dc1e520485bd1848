import Foundation
import OnrampCore

/// When a purchase's settlement steps come due, and in whose time: each step comes `delay` after the
/// one before in its project's time (a test clock moves it), is taken bound to that project's test
/// clock, and is leased in real time (``SettlementLease``).
package struct SettlementSchedule: Sendable {
    /// The projects' test clocks; their clock is the real one.
    package let testClocks: TestClocks
    /// Seconds between a purchase's steps.
    package let delay: TimeInterval

    /// The schedule of `context`: its test clocks and settlement delay.
    package init(context: ServerContext) {
        testClocks = context.testClocks
        delay = context.settlementDelay
    }

    /// The current real time in stored milliseconds, whatever project is bound: for leases and for
    /// finding due steps across projects.
    package var realNowMilliseconds: Int64 { Timestamp.milliseconds(testClocks.clock.now()) }

    /// When the step after one taken at `now` (stored milliseconds) comes due.
    package func nextStep(after now: Int64) -> Int64 {
        now + Int64(delay * 1000)
    }

    /// Runs `body` in `projectId`'s time (real time when nil or without a test clock).
    package func bound<T>(to projectId: String?, _ body: () throws -> T) throws -> T {
        try testClocks.bound(to: projectId, body)
    }
}
