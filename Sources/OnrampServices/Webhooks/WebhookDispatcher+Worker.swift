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
    /// Called when a send has finished and its attempt waits to be recorded.
    private let onFinished: @Sendable () -> Void

    package init(dispatcher: WebhookDispatcher, onFinished: @escaping @Sendable () -> Void = {}) {
        self.dispatcher = dispatcher
        self.onFinished = onFinished
        share = Mutex(dispatcher.emptyShare)
    }

    /// One round; returns how much work it did (recorded + fanned out + sent). With no finished attempt
    /// to record, a read first asks whether there is anything to do, and an idle round ends there.
    package func iterate() throws -> Int {
        let done = finished.drain()
        if done.isEmpty, try !dispatcher.mayHaveWork() { return 0 }
        let capacity = dispatcher.configuration.maximumInFlight - inFlight.load(ordering: .relaxed)
        let fanned: Int
        let claims: [WebhookDispatcher.Claim]
        do {
            // Only this thread claims; finished sends give their slots back meanwhile, so the round works on a
            // copy, and the slots its claims took are taken in the live share under the lock.
            var current = share.withLock { $0 }
            (fanned, claims) = try dispatcher.round(recording: done, claiming: max(0, capacity), share: &current)
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
