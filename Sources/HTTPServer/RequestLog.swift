import Foundation
import Synchronization

/// The last requests the server answered, newest first, for the sandbox console: time, Request-Id,
/// method, route pattern (never the raw path or query, which can carry tokens), status, latency and the
/// caller's project.
public final class RequestLog: Sendable {
    /// One answered request.
    public struct Entry: Sendable, Equatable {
        /// When the answer was sent.
        public let time: Date
        /// The request's id (the `Request-Id` header).
        public let requestId: String
        /// The method.
        public let method: String
        /// The matched route's pattern (`/v1/crypto/onramp_sessions/{id}`), or `not_found` and the like.
        public let route: String
        /// The answer's status.
        public let status: Int
        /// Seconds from the complete request to the answer.
        public let seconds: Double
        /// The project the request acted for, when its handler noted one (``RequestNotes``).
        public let projectId: String?

        /// Creates an entry.
        public init(
            time: Date, requestId: String, method: String, route: String, status: Int, seconds: Double,
            projectId: String? = nil
        ) {
            self.time = time
            self.requestId = requestId
            self.method = method
            self.route = route
            self.status = status
            self.seconds = seconds
            self.projectId = projectId
        }
    }

    private let capacity: Int
    private let entries: Locked<(items: [Entry], next: Int)>

    /// Keeps the last `capacity` requests.
    public init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
        entries = Locked(([], 0))
    }

    /// Records an answered request, dropping the oldest when full.
    public func record(_ entry: Entry) {
        entries.withLock { state in
            if state.items.count < capacity {
                state.items.append(entry)
            } else {
                state.items[state.next] = entry
            }
            state.next = (state.next + 1) % capacity
        }
    }

    /// The kept requests, newest first, those whose Request-Id is `requestId` when given.
    public func recent(requestId: String? = nil) -> [Entry] {
        let (items, next) = entries.withLock { ($0.items, $0.next) }
        let ordered = items.count < capacity ? items : Array(items[next...] + items[..<next])
        return ordered.reversed().filter { requestId == nil || $0.requestId == requestId }
    }
}
