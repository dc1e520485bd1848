/// The result of a payment attempt at checkout.
public enum PaymentOutcome: Sendable, Hashable {
    /// The charge succeeded.
    case succeeded
    /// The charge needs 3-D Secure authentication first.
    case requiresAction
    /// The card or bank declined.
    case declined
    /// An ACH debit was attempted without `mandate_data`.
    case missingMandate
}

/// What checkout found, in order of precedence: a blocker, an expired quote, or the payment result.
public enum CheckoutOutcome: Sendable, Hashable {
    /// A pre-payment check failed (KYC, wallet, limit, location); no charge was attempted.
    case blocked(OnrampSessionLastError)
    /// The quote expired before payment; no charge was attempted.
    case quoteExpired
    /// A charge was attempted with this result.
    case payment(PaymentOutcome)

    /// Evaluates checkout lazily: `charge` runs only when nothing blocks and the quote is live.
    public static func evaluate(
        blocker: OnrampSessionLastError?, quoteExpired: Bool, charge: () throws -> PaymentOutcome
    ) rethrows -> CheckoutOutcome {
        if let blocker { return .blocked(blocker) }
        if quoteExpired { return .quoteExpired }
        return .payment(try charge())
    }
}
