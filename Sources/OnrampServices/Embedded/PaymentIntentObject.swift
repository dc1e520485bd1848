import OnrampCore
import OnrampCrypto
import OnrampWire

/// The PaymentIntent behind an onramp session's checkout, in the shape stripe-ios decodes
/// (`StripePayments/…/Models/PaymentIntents/STPPaymentIntent.swift`: `id`, `client_secret`, `amount`,
/// `currency`, `status`, `livemode`, `created`, `payment_method_types` required). It is derived from the
/// session, not stored: its id is the session's with the `pi` prefix, its client secret a hash of the
/// session's client secret, and its status follows the session and its 3-D Secure step:
///
/// | session | intent |
/// |---|---|
/// | no checkout yet, or declined (the session is then rejected) | `requires_payment_method` (with `last_payment_error` after a decline) |
/// | 3-D Secure pending | `requires_action`, `next_action.redirect_to_url` (the hosted 3-D Secure page) |
/// | 3-D Secure passed, checkout not yet retried | `requires_capture` (authorised; the SDK then checks out again, which captures) |
/// | a bank debit checked out without its mandate | `requires_confirmation` |
/// | fulfilment processing or complete | `succeeded` (a bank debit: `processing` until fulfilment completes) |
/// | rejected for any other reason | `canceled` |
///
/// stripe-ios `CryptoOnrampCoordinator.performCheckout` (`checkoutResult`, at 00bc96b9) completes on `succeeded`
/// and `requires_capture`, on `processing` for a bank debit only, waits on `requires_action`, and fails every
/// other status, so after a passed challenge the intent must read `requires_capture` for the SDK to ask the
/// partner's backend for the second checkout. A card intent is captured manually (at checkout); a bank debit's
/// automatically (it settles on its own).
package struct PaymentIntentObject {
    package let session: OnrampSessionRecord
    /// The payment token's method, when the session has one: its id and details.
    package let paymentMethod: (id: String, method: TestPaymentMethod)?
    package let currencyDecimals: Int

    /// `pi_…` for session `cos_…`.
    package static func id(ofSession sessionId: String) -> String {
        IdPrefix.paymentIntent + "_" + sessionId.dropFirst(IdPrefix.onrampSession.count + 1)
    }

    /// The session id of intent `pi_…`, when `id` has that form.
    package static func sessionId(ofIntent id: String) -> String? {
        guard id.hasPrefix(IdPrefix.paymentIntent + "_"), id.utf8.count <= 64 else { return nil }
        return IdPrefix.onrampSession + "_" + id.dropFirst(IdPrefix.paymentIntent.count + 1)
    }

    /// `pi_…_secret_…`: the SDK takes the intent's id from the part before `_secret_`.
    package static func clientSecret(of session: OnrampSessionRecord) -> String {
        let digest = SHA256.hash(Array("payment_intent:\(session.clientSecret)".utf8))
        return id(ofSession: session.id) + "_secret_" + Hex.encode(Array(digest.prefix(12)))
    }

    package var id: String { Self.id(ofSession: session.id) }
    package var clientSecret: String { Self.clientSecret(of: session) }

    /// The intent's status, from the session's (see the table above).
    package var status: StripePaymentIntent.Status {
        switch session.machine.status {
        case .fulfillmentComplete: return .succeeded
        case .fulfillmentProcessing: return paymentMethod?.method.type == .ach ? .processing : .succeeded
        case .rejected: return session.machine.lastError == .transactionFailed ? .requiresPaymentMethod : .canceled
        case .initialized, .requiresPayment:
            guard session.machine.lastError == .actionRequired else { return .requiresPaymentMethod }
            // A bank debit checked out without its mandate: the partner confirms again with `mandate_data`.
            switch session.threeDSStatus {
            case nil: return .requiresConfirmation
            case .passed: return .requiresCapture
            case .failed: return .requiresPaymentMethod
            case .pending: return .requiresAction
            }
        }
    }

    /// The amount charged in the currency's minor units (`"10.50"` USD is `1050`).
    package var amount: Int64 {
        Int64(session.details.quoted.sourceTotal.string(places: currencyDecimals).filter { $0 != "." }) ?? 0
    }

    /// The intent; `expandPaymentMethod` embeds the payment method object instead of its id.
    package func wire(expandPaymentMethod: Bool) -> StripePaymentIntent {
        let isBankDebit = paymentMethod?.method.type == .ach
        let method = paymentMethod.map { found -> StripePaymentIntent.PaymentMethod in
            expandPaymentMethod
                ? .expanded(
                    found.method.wire(id: found.id, livemode: session.livemode, created: session.createdAt / 1000))
                : .id(found.id)
        }
        let redirect = status == .requiresAction ? session.details.nextActionURL : nil
        return StripePaymentIntent(
            id: id, amount: amount, captureMethod: isBankDebit ? "automatic" : "manual", clientSecret: clientSecret,
            created: session.createdAt / 1000, currency: session.details.purchase.sourceCurrency,
            livemode: session.livemode, paymentMethodTypes: [isBankDebit ? "us_bank_account" : "card"], status: status,
            paymentMethod: method, nextAction: redirect.map(CryptoOnrampSession.NextAction.init(redirectingTo:)),
            lastPaymentError: lastPaymentError)
    }

    /// Why the last attempt failed.
    private var lastPaymentError: StripePaymentIntent.LastPaymentError? {
        if session.machine.lastError == .actionRequired, session.threeDSStatus == .failed {
            return .init(
                type: "card_error", code: "payment_intent_authentication_failure", declineCode: nil,
                message: "The customer did not pass 3-D Secure authentication.")
        }
        guard session.machine.lastError == .transactionFailed, session.machine.status != .fulfillmentComplete else {
            return nil
        }
        return .init(
            type: "card_error", code: "card_declined", declineCode: "generic_decline",
            message: "Your card was declined.")
    }
}
