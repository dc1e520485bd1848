import OnrampPlatform

/// What a handler notes about its request for the server's request log: the project it acted for,
/// once authentication or the request names one. The server makes fresh notes current on the thread
/// that handles the request (handlers run synchronously on it, and no other thread sees them), and
/// reads them after the answer — also when the handler threw.
public final class RequestNotes: @unchecked Sendable {
    // Written and read only on the thread that handles the request.

    /// The notes of the request being handled on this thread; nil outside a request.
    ///
    /// A thread-specific slot, not a `@TaskLocal`: outside a task, binding a task-local allocates its
    /// record on every request (`swift_task_localValuePush` was 0.6 % of `/livez` and one of its heap
    /// allocations), where the slot costs a `pthread_setspecific`.
    public static var current: RequestNotes? { slot.current }

    private static let slot = ThreadSlot<RequestNotes>(owning: false)

    /// The project the request acted for.
    public var projectId: String?
    /// The refusal the request was answered with, as its family's error body names it.
    public private(set) var refusal: (code: String, message: String)?

    /// The objects the request acted on (a challenge, a transaction, a session: their ids), so a purchase's
    /// timeline can list the requests that made it.
    public private(set) var subjects: [String] = []

    /// Notes that the request acted on the object `id` (at most 32 are kept).
    public func noteSubject(_ id: String) {
        if subjects.count < 32, !subjects.contains(id) { subjects.append(id) }
    }

    /// Notes that the request was refused with `error` (the request log and the access log show its code).
    public func noteRefusal(_ error: HTTPError) {
        refusal = (error.code, error.message)
    }

    /// Creates empty notes.
    public init() {}

    /// Runs `body` with these notes current on this thread, then puts back whatever was current.
    func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = Self.slot.current
        Self.slot.set(self)
        defer { Self.slot.set(previous) }
        return try withExtendedLifetime(self) { try body() }
    }
}
