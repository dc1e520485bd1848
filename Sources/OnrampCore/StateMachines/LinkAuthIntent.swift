/// The lifecycle of a LinkAuthIntent: `created → authenticated → consented | rejected`, and
/// `expired` from either open state.
public struct LinkAuthIntent: Sendable, Hashable {
    /// An intent status, in the contract's spelling.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Created by the partner backend.
        case created
        /// The user passed OTP verification.
        case authenticated
        /// The user granted consent; tokens may be issued.
        case consented
        /// The user refused consent.
        case rejected
        /// The intent timed out before consent.
        case expired

        /// Whether the status is final.
        public var isTerminal: Bool {
            switch self {
            case .created, .authenticated: return false
            case .consented, .rejected, .expired: return true
            }
        }
    }

    /// What happens to an intent.
    public enum Event: Sendable, Hashable {
        /// The user confirmed the one-time code.
        case authenticate
        /// The user answered the consent screen.
        case consent(granted: Bool)
        /// The intent's lifetime ran out.
        case expire
    }

    /// What the intent emits.
    public enum DomainEvent: Sendable, Hashable {
        /// The status changed from one value to another.
        case statusChanged(from: Status, to: Status)
    }

    /// The current status.
    public private(set) var status: Status

    /// Creates an intent in `status` (``Status/created`` for a new one).
    public init(status: Status = .created) {
        self.status = status
    }

    /// Whether OAuth tokens may be issued for the intent.
    public var mayIssueTokens: Bool { status == .consented }

    /// Applies `event` and returns the events to emit.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/illegalTransition``.
    public mutating func handle(_ event: Event) throws -> [DomainEvent] {
        let next: Status
        switch (status, event) {
        case (.created, .authenticate):
            next = .authenticated
        case (.authenticated, .consent(let granted)):
            next = granted ? .consented : .rejected
        case (.created, .expire), (.authenticated, .expire):
            next = .expired
        case (.created, .consent), (.authenticated, .authenticate), (.consented, _), (.rejected, _),
            (.expired, _):
            throw OnrampError.illegalTransition(
                machine: "LinkAuthIntent", state: status.rawValue, event: "\(event)")
        }
        let previous = status
        status = next
        return [.statusChanged(from: previous, to: next)]
    }
}
