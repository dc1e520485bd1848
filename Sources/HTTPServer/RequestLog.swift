import Foundation
import OnrampPlatform
import OnrampRuntime
import Synchronization

/// The last requests the server answered, newest first, for the sandbox console: time, Request-Id,
/// method, route pattern (never the raw path or query, which can carry tokens), status, latency, the
/// caller's project, and both bodies with their secrets redacted (``LoggedBody``). Kept in memory only.
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
        /// The refusal's code, when the request was refused.
        public let errorCode: String?
        /// The refusal's message, when the request was refused.
        public let errorMessage: String?
        /// The ids of the objects the request acted on (``RequestNotes/noteSubject(_:)``).
        public let subjects: [String]
        /// The request's body as kept: redacted and cut (``LoggedBody``); nil when it had none.
        public let requestBody: String?
        /// The answer's body as kept, like ``requestBody``.
        public let responseBody: String?

        /// Creates an entry.
        public init(
            time: Date, requestId: String, method: String, route: String, status: Int, seconds: Double,
            projectId: String? = nil, errorCode: String? = nil, errorMessage: String? = nil, subjects: [String] = [],
            requestBody: String? = nil, responseBody: String? = nil
        ) {
            self.time = time
            self.requestId = requestId
            self.method = method
            self.route = route
            self.status = status
            self.seconds = seconds
            self.projectId = projectId
            self.errorCode = errorCode
            self.errorMessage = errorMessage
            self.subjects = subjects
            self.requestBody = requestBody
            self.responseBody = responseBody
        }
    }

    /// The kept entries: a ring that overwrites its oldest entry once full.
    private struct Ring {
        let capacity: Int
        var items: [Entry] = []
        var next = 0

        mutating func append(_ entry: Entry) {
            if items.count < capacity {
                items.append(entry)
            } else {
                items[next] = entry
            }
            next = next + 1 == capacity ? 0 : next + 1
        }

        /// Oldest first.
        var ordered: [Entry] { items.count < capacity ? items : Array(items[next...] + items[..<next]) }
    }

    private let ring: Locked<Ring>
    /// The second bodies were last kept in, and how many were kept in it.
    private let bodyBudget = Locked((second: Int64(0), kept: 0))

    /// Bodies are kept for at most this many requests a second, and for every refusal: a load does not pay
    /// to redact bodies no one reads (an entry beyond it says so). 0 keeps none.
    public let bodiesPerSecond: Int
    /// The default of ``bodiesPerSecond``.
    public static let defaultBodiesPerSecond = 50
    /// What an entry whose bodies were not kept shows instead.
    public var bodiesNotKept: String {
        bodiesPerSecond == 0
            ? "(not kept: the server keeps no bodies)"
            : "(not kept: the log keeps the bodies of \(bodiesPerSecond) requests a second, and of every refusal)"
    }

    /// Whether the bodies of a request answered now are kept: always for a refusal, else while this second's
    /// budget lasts.
    public func keepsBodies(refused: Bool) -> Bool {
        guard bodiesPerSecond > 0 else { return false }
        if refused { return true }
        let second = Int64(CoarseClock.seconds())
        return bodyBudget.withLock { budget in
            if budget.second != second { budget = (second, 0) }
            guard budget.kept < bodiesPerSecond else { return false }
            budget.kept += 1
            return true
        }
    }

    /// Keeps the last `capacity` requests, the bodies of `bodiesPerSecond` of them a second (and of every
    /// refusal; none at all when 0).
    public init(capacity: Int = 1_000, bodiesPerSecond: Int = RequestLog.defaultBodiesPerSecond) {
        self.bodiesPerSecond = max(0, bodiesPerSecond)
        var ring = Ring(capacity: max(1, capacity))
        ring.items.reserveCapacity(ring.capacity)
        self.ring = Locked(ring)
    }

    /// Records an answered request, dropping the oldest when full.
    public func record(_ entry: Entry) {
        ring.withLock { $0.append(entry) }
    }

    /// The kept requests, newest first, those whose Request-Id is `requestId` when given.
    public func recent(requestId: String? = nil) -> [Entry] {
        ring.withLock { $0.ordered }.reversed().filter { requestId == nil || $0.requestId == requestId }
    }

    /// The kept requests after the one with id `requestId` (all of them when it is nil or no longer kept),
    /// oldest first, at most `limit`.
    public func after(_ requestId: String?, limit: Int) -> [Entry] {
        let ordered = ring.withLock { $0.ordered }
        let start = requestId.flatMap { id in ordered.lastIndex { $0.requestId == id } }.map { $0 + 1 } ?? 0
        return Array(ordered[start...].prefix(limit))
    }

    /// The kept requests that acted on any of `ids`, oldest first.
    public func acting(on ids: Set<String>) -> [Entry] {
        ring.withLock { $0.ordered }.filter { !ids.isDisjoint(with: $0.subjects) }
    }
}
