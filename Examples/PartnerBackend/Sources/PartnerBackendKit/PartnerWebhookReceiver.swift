import Foundation
import OnrampBackend
import OnrampClient
import Synchronization

/// The backend's webhook endpoint logic for both schemes: verify over the raw body (``WebhookVerifier``),
/// then credit the ``PartnerLedger`` only for a settled event (`onramp.transaction.success`, or an onramp
/// session whose status is `fulfillment_complete`), idempotently by event id.
public final class PartnerWebhookReceiver: Sendable {
    /// The ledger credited.
    public let ledger: PartnerLedger
    private struct Secrets {
        var cdp: String?
        var stripe: String?
        var sessionUsers: [String: String] = [:]
    }
    private let secrets = Mutex(Secrets())
    private let onReceive: @Sendable (ReceivedWebhook) -> Void

    /// Creates a receiver; `onReceive` sees every accepted delivery (for logging).
    public init(ledger: PartnerLedger, onReceive: @escaping @Sendable (ReceivedWebhook) -> Void = { _ in }) {
        self.ledger = ledger
        self.onReceive = onReceive
    }

    /// Sets the CDP subscription secret (returned once when the subscription is created).
    public func setCDPSecret(_ secret: String) { secrets.withLock { $0.cdp = secret } }

    /// Sets the Stripe endpoint secret (`whsec_…`).
    public func setStripeSecret(_ secret: String) { secrets.withLock { $0.stripe = secret } }

    /// Remembers which user an onramp session (`cos_…`) belongs to, so its settlement can be credited.
    public func assign(session sessionId: String, to userRef: String) {
        secrets.withLock { $0.sessionUsers[sessionId] = userRef }
    }

    /// Handles a CDP-scheme delivery; returns what was done, or throws when it is not authentic.
    @discardableResult
    public func receiveCDP(payload: [UInt8], headers: [String: String], now: Date = Date()) throws -> ReceivedWebhook {
        guard let secret = secrets.withLock({ $0.cdp }) else {
            throw WebhookVerificationError(.signatureMismatch, "No CDP subscription secret is configured.")
        }
        let event = try WebhookVerifier(secret: secret).verifyCDP(payload: payload, headers: headers, now: now)
        let eventId = headers.first { $0.key.lowercased() == "x-event-id" }?.value ?? event.transactionId
        var credit: LedgerCredit?
        // A purchase made without a partnerUserRef names no user to credit.
        if let ref = event.partnerUserRef, !ref.isEmpty,
            let settlement = WebhookSettlementMatcher(partnerUserRef: ref).settlement(from: event, eventId: eventId)
        {
            credit = LedgerCredit(
                eventId: eventId, userRef: ref, amount: settlement.amount ?? "0",
                currency: settlement.currency ?? "", txHash: settlement.txHash)
        }
        return record(.cdp, eventId: eventId, type: event.eventType, credit: credit)
    }

    /// Handles a Stripe-scheme delivery; returns what was done, or throws when it is not authentic.
    @discardableResult
    public func receiveStripe(payload: [UInt8], signatureHeader: String?, now: Date = Date()) throws -> ReceivedWebhook
    {
        guard let secret = secrets.withLock({ $0.stripe }) else {
            throw WebhookVerificationError(.signatureMismatch, "No Stripe endpoint secret is configured.")
        }
        let event = try WebhookVerifier(secret: secret).verifyStripe(
            payload: payload, signatureHeader: signatureHeader, as: StripeSessionEventObject.self, now: now)
        var credit: LedgerCredit?
        let session = event.object
        if event.type == "crypto.onramp_session.updated", session.status == "fulfillment_complete",
            let user = secrets.withLock({ $0.sessionUsers[session.id] })
        {
            credit = LedgerCredit(
                eventId: event.id, userRef: user, amount: session.transactionDetails?.destinationAmount ?? "0",
                currency: session.transactionDetails?.destinationCurrency ?? "",
                txHash: session.transactionDetails?.transactionId)
        }
        return record(.stripe, eventId: event.id, type: event.type, credit: credit)
    }

    private func record(_ scheme: ReceivedWebhook.Scheme, eventId: String, type: String, credit: LedgerCredit?)
        -> ReceivedWebhook
    {
        var duplicate = false
        var credited: LedgerCredit?
        if let credit {
            duplicate = !ledger.credit(credit)
            credited = duplicate ? nil : credit
        }
        let received = ReceivedWebhook(
            scheme: scheme, eventId: eventId, type: type, credit: credited, duplicate: duplicate)
        onReceive(received)
        return received
    }
}
