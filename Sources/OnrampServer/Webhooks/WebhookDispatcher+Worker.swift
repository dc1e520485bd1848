import Foundation
import HTTPServer

extension WebhookDispatcher {
    /// Runs the dispatcher on `workers`: every `interval` seconds it steps until no work is left.
    func start(on workers: BackgroundWorkers, interval: TimeInterval) {
        workers.start(name: "webhooks", interval: interval) { [self] in
            do {
                while try step() > 0 {}
            } catch {
                AccessLog.shared.error("webhook dispatch step failed: \(error)")
            }
        }
    }
}
