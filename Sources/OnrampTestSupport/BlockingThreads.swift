import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of the concurrency pool's.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core (two here).
/// Most of our tests block their thread — a socket read against a real server, a database commit
/// waiting on fsync, a poll for a webhook — and while two of them block, every other test waits,
/// whatever the cores are doing. Under `.blocking` a test's jobs run on ``ThreadPoolTaskExecutor``'s
/// wider pool, so a waiting test holds one of its threads and the cores stay busy with the others.
/// Child tasks (the cases of a parameterised test) inherit it.
public struct BlockingThreads: SuiteTrait, TestTrait, TestScoping {
    /// Applied to every test of a suite, not once around the suite.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPoolTaskExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingThreads {
    /// The suite's tests block their threads: run them on threads of their own (``BlockingThreads``).
    public static var blocking: Self { BlockingThreads() }
}

/// A task executor with a fixed set of threads of its own, taking jobs in the order they come.
///
/// Wider than the concurrency pool, so that tests waiting on a socket or a commit leave room for
/// others, and bounded, so that a suite of hundreds of servers does not start them all at once: past
/// about two waiting tests per core the machine is overloaded, and timeouts (a webhook sender's, a
/// URLSession's) start firing in tests that are not about time.
public final class ThreadPoolTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor the `.blocking` suites share: two threads per core, at least four.
    public static let shared = ThreadPoolTaskExecutor(
        threadCount: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var next = 0
    private let condition = NSCondition()

    /// Starts `threadCount` threads that run jobs until the process ends.
    public init(threadCount: Int) {
        for index in 0..<threadCount {
            let thread = Thread { [unowned self] in run() }
            thread.name = "blocking-test-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next > 1024 && next * 2 > jobs.count {
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
