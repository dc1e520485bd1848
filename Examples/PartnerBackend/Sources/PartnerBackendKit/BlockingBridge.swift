import Dispatch
import Synchronization

/// Runs async backend work from a synchronous HTTP handler (libmicrohttpd threads, not the cooperative pool,
/// so waiting there is safe).
enum BlockingBridge {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            box.result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try box.result.withLock { $0! }.get()
    }

    private final class ResultBox<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
    }
}
