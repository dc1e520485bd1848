import OnrampCore
import OnrampServices
import OnrampStore
import OnrampWire

/// A console change of a webhook endpoint, as the endpoint form sends it (`action`, and `count` to fail).
/// Decoded at the edge; no I/O.
enum EndpointChange: Sendable, Equatable {
    case enable
    case disable
    /// Fail the next `count` (0 to 100) deliveries.
    case failNext(Int64)

    /// Decodes the form.
    init(form: JSONValue) throws(ConsoleFormError) {
        switch form["action"]?.stringValue {
        case "enable": self = .enable
        case "disable": self = .disable
        case "fail":
            guard let text = form["count"]?.stringValue, text.count <= 3, text.allSatisfy(\.isNumber),
                let count = Int64(text), count <= 100
            else { throw ConsoleFormError("count is 0 to 100.") }
            self = .failNext(count)
        default: throw ConsoleFormError("action is enable, disable or fail.")
        }
    }
}

/// A console form the console cannot act on, with the message the operator reads.
struct ConsoleFormError: Error, Sendable {
    let message: String

    init(_ message: String) { self.message = message }
}

/// The console's writes: changing a webhook endpoint, moving a project's test clock, revoking a key, resending
/// an event.
struct ConsoleService: Sendable {
    let database: any Database
    let clock: any OnrampCore.Clock
    /// Emptied when a key is revoked or a clock moves.
    let callers: CallerCache

    /// Applies `change` to endpoint `id`; answers the endpoint's project, `nil` when there is no such endpoint.
    func changeEndpoint(_ id: String, _ change: EndpointChange) throws -> String? {
        let now = Timestamp.milliseconds(clock.now())
        let (enabled, failNext): (Bool?, Int64?) =
            switch change {
            case .enable: (true, nil)
            case .disable: (false, nil)
            case .failNext(let count): (nil, count)
            }
        return try database.transaction {
            try ConsoleRepository(connection: $0).changeEndpoint(id, enabled: enabled, failNext: failNext, now: now)
        }
    }

    /// Moves project `id`'s test clock `minutes` forward (throws ``TestClocks/Refusal``).
    func advanceClock(projectId id: String, minutes: Int64) throws {
        _ = try TestClocks(database: database, clock: clock, callers: callers).advance(
            projectId: id, seconds: minutes * 60)
    }

    /// Revokes API key `id`; the key as it now stands, nil when there is none.
    func revokeKey(_ id: String) throws -> APIKeyRecord? {
        try ProjectProvisioner(database: database, clock: clock, callers: callers).revokeKey(id: id)
    }

    /// Queues event `eventId` again for endpoint `subscriptionId`; `false` when it has no resendable delivery
    /// there (live Stripe events are not).
    func resend(eventId: String, subscriptionId: String) throws -> Bool {
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction {
            try ConsoleRepository(connection: $0).resend(eventId: eventId, subscriptionId: subscriptionId, now: now)
        }
    }
}
