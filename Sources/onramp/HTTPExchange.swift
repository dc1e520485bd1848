import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request from the command line, waited for: the CLI's commands run on the main thread and
/// have nothing else to do meanwhile.
enum HTTPExchange {
    /// What came back: the status (nil when no answer came), the transport's error, the body.
    struct Outcome {
        let status: Int?
        let error: String?
        let body: Data
    }

    /// Sends `request` and waits for its answer.
    static func send(_ request: URLRequest) -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let slot = Slot()
        URLSession.shared.dataTask(with: request) { data, response, error in
            slot.outcome = Outcome(
                status: (response as? HTTPURLResponse)?.statusCode, error: error?.localizedDescription,
                body: data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return slot.outcome ?? Outcome(status: nil, error: "no answer", body: Data())
    }

    /// The outcome, written by the completion handler before the waiting thread is signalled, read after.
    private final class Slot: @unchecked Sendable {
        var outcome: Outcome?
    }
}
