import Foundation
import Synchronization

/// The partner's own record of what each user has received. It is credited only from a verified settled
/// event, once per event id: a redelivered webhook changes nothing, and a redirect never reaches it.
public final class PartnerLedger: Sendable {
    private struct State {
        var credits: [LedgerCredit] = []
        var seenEventIds: Set<String> = []
    }

    private let state = Mutex(State())

    /// Creates an empty ledger.
    public init() {}

    /// Records `credit` unless its event id was already recorded; returns whether it was recorded.
    @discardableResult
    public func credit(_ credit: LedgerCredit) -> Bool {
        state.withLock { state in
            guard state.seenEventIds.insert(credit.eventId).inserted else { return false }
            state.credits.append(credit)
            return true
        }
    }

    /// Every credit, in the order recorded.
    public var credits: [LedgerCredit] { state.withLock { $0.credits } }

    /// The credits of one user.
    public func credits(for userRef: String) -> [LedgerCredit] {
        credits.filter { $0.userRef == userRef }
    }

    /// The user's balance in `currency` (sum of the credited amounts).
    public func balance(of userRef: String, currency: String) -> Decimal {
        credits(for: userRef).filter { $0.currency.lowercased() == currency.lowercased() }.reduce(Decimal.zero) {
            $0 + (Decimal(string: $1.amount) ?? 0)
        }
    }
}
