import Foundation
import OnrampRuntime
import OnrampStore
import Synchronization

extension WebhookDispatcher {
    /// Runs the dispatcher on `workers` as a pipeline: each iteration records the attempts that
    /// finished, fans out new events and claims due deliveries up to ``Configuration/maximumInFlight``
    /// sends in flight, without waiting for them; it iterates while there is work, then sleeps `interval`
    /// or until a send finishes (its attempt is recorded at once, not an interval later) or the
    /// database's ``ChangeWatcher`` sees a commit.
    package func start(on workers: BackgroundWorkers, interval: TimeInterval) {
        let waker = BackgroundWorkers.Waker()
        let pipeline = WebhookPipeline(dispatcher: self, onFinished: waker.wake)
        // A commit (an event, a new subscription, another instance's or process's) wakes the
        // dispatcher at once instead of at its next interval (on SQLite files: inotify on the log).
        let watcher = context.database.changeWatcher()
        workers.start(name: "webhooks", interval: interval, waker: waker, watcher: watcher) {
            do {
                while try pipeline.iterate() > 0 {}
            } catch {
                AccessLog.shared.error("webhook dispatch step failed: \(error)")
            }
        }
    }
}

/// The state of the background pipeline: finished attempts waiting to be recorded, and the number
/// of sends in flight.
package final class WebhookPipeline: Sendable {
    package let dispatcher: WebhookDispatcher
    private let finished = ResultBox()
    private let inFlight = Atomic<Int>(0)
    /// What each endpoint and project has in flight, so that no tenant holds every slot.
    private let share: Mutex<WebhookFairShare>
    /// How many deliveries the next round asks to lease (``ClaimLimit``).
    private let claimLimit: Mutex<ClaimLimit>
    /// Called when a send has finished and its attempt waits to be recorded.
    private let onFinished: @Sendable () -> Void

    package init(dispatcher: WebhookDispatcher, onFinished: @escaping @Sendable () -> Void = {}) {
        self.dispatcher = dispatcher
        self.onFinished = onFinished
        share = Mutex(dispatcher.emptyShare)
        claimLimit = Mutex(ClaimLimit(floor: dispatcher.configuration.maximumInFlightPerEndpoint))
    }

    /// One round; returns how much work it did (recorded + fanned out + sent). With no finished attempt
    /// to record, a read first asks whether there is anything to do, and an idle round ends there.
    package func iterate() throws -> Int {
        let done = finished.drain()
        if done.isEmpty, try !dispatcher.mayHaveWork() { return 0 }
        let capacity = dispatcher.configuration.maximumInFlight - inFlight.load(ordering: .relaxed)
        let asked = claimLimit.withLock { $0.next(capacity: max(0, capacity)) }
        let fanned: Int
        let claims: [WebhookDispatcher.Claim]
        do {
            // Only this thread claims; finished sends give their slots back meanwhile, so the round works on a
            // copy, and the slots its claims took are taken in the live share under the lock.
            var current = share.withLock { $0 }
            (fanned, claims) = try dispatcher.round(recording: done, claiming: asked, share: &current)
            claimLimit.withLock { $0.record(asked: asked, kept: claims.count) }
            share.withLock { live in
                for claim in claims { _ = live.take(endpoint: claim.subscriptionId, project: claim.projectId) }
            }
        } catch {
            // Not recorded: the leases run out and the deliveries are sent again (at least once).
            if !done.isEmpty { AccessLog.shared.error("webhook attempts not recorded: \(error)") }
            throw error
        }
        for claim in claims {
            inFlight.add(1, ordering: .relaxed)
            dispatcher.send(claim) { [self] attempt in
                share.withLock { $0.release(endpoint: claim.subscriptionId, project: claim.projectId) }
                finished.append(attempt)
                inFlight.subtract(1, ordering: .relaxed)
                onFinished()
            }
        }
        return done.count + fanned + claims.count
    }
}

/// How many deliveries a round asks to lease. A round leases up to what it asks, then gives back in the same
/// transaction what exceeds an endpoint's or a project's share; asking for every free slot when few endpoints
/// have work leased and gave back hundreds of rows to send one (one endpoint's backlog went out at a third
/// of the rate, bench/RESULTS.md). So the ask starts at one endpoint's share, doubles after a round kept all
/// it asked (more endpoints have work), and falls back to twice what a round kept when it kept less.
struct ClaimLimit: Sendable {
    /// The least a round asks for (one endpoint's share).
    let floor: Int
    private var current: Int

    init(floor: Int) {
        self.floor = max(1, floor)
        current = self.floor
    }

    /// What the next round asks for, with `capacity` slots free.
    func next(capacity: Int) -> Int { min(capacity, current) }

    /// Learns from a round that asked for `asked` and kept `kept`.
    mutating func record(asked: Int, kept: Int) {
        guard asked > 0 else { return }  // no slot was free: nothing learned
        current = kept >= asked ? max(floor, asked * 2) : max(floor, kept * 2)
    }
}
