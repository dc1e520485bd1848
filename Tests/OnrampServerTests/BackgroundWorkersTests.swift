import Foundation
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// A background loop runs again when its waker is woken: every wake after a drained one runs an
/// iteration, and the wakes that arrive during one iteration make one more, not one each.
@Suite struct BackgroundWorkersTests {
    /// A step that counts its runs and, while `holding` is set, waits for it to be cleared.
    private final class CountingStep: Sendable {
        let runs = Atomic<Int>(0)
        let holding = Atomic<Bool>(false)

        func run() {
            runs.add(1, ordering: .relaxed)
            while holding.load(ordering: .acquiring) { usleep(1000) }
        }
    }

    @Test func eachWakeAfterAnIterationRunsAnotherAndABurstDuringOneRunsOneMore() async {
        let workers = BackgroundWorkers()
        defer { workers.stopAll() }
        let waker = BackgroundWorkers.Waker()
        let step = CountingStep()
        workers.start(name: "test-loop", interval: 3600, waker: waker) { step.run() }
        #expect(await Eventually.holds(timeout: 5) { step.runs.load(ordering: .relaxed) == 1 })
        for expected in 2...4 {
            waker.wake()
            #expect(await Eventually.holds(timeout: 5) { step.runs.load(ordering: .relaxed) == expected })
        }
        // Hold the next iteration, wake many times meanwhile: exactly one iteration follows it.
        step.holding.store(true, ordering: .releasing)
        waker.wake()
        #expect(await Eventually.holds(timeout: 5) { step.runs.load(ordering: .relaxed) == 5 })
        for _ in 0..<100 { waker.wake() }
        step.holding.store(false, ordering: .releasing)
        #expect(await Eventually.holds(timeout: 5) { step.runs.load(ordering: .relaxed) == 6 })
        try? await Task.sleep(for: .milliseconds(200))
        #expect(step.runs.load(ordering: .relaxed) == 6)
        waker.wake()
        #expect(await Eventually.holds(timeout: 5) { step.runs.load(ordering: .relaxed) == 7 })
    }
}
