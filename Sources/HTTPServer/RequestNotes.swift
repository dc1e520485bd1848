/// What a handler notes about its request for the server's request log: the project it acted for,
/// once authentication or the request names one. The server binds a fresh one around each request
/// (a task-local, so it reaches the handler's thread and no other), and reads it after the answer —
/// also when the handler threw.
public final class RequestNotes: @unchecked Sendable {
    // Written and read only on the thread that handles the request.

    /// The notes of the request being handled here; nil outside a request.
    @TaskLocal public static var current: RequestNotes?

    /// The project the request acted for.
    public var projectId: String?

    /// Creates empty notes.
    public init() {}
}
