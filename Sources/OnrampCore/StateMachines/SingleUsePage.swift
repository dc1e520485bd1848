/// How a single-use purchase page ended: the `status` a buy page's redirect back to the app carries
/// (the sell page goes back without one).
public enum PurchaseOutcome: String, Sendable, Hashable, CaseIterable {
    /// The user confirmed; the purchase was made (or, in the sandbox, would have been).
    case success
    /// The user cancelled; nothing was bought.
    case cancelled
    /// The page could not end with a purchase: its link was spent or had expired.
    case error
}

/// The lifecycle both single-use purchase pages share, App2App's handoff and the hosted onramp
/// (buy and sell): a link that opens once, before it expires, and binds the page to a secret; a page
/// that ends with at most one ``PurchaseOutcome``; and a spent link that reports the outcome recorded,
/// so a purchase made stays a `success` and the app is never told to buy again. The buy pages record
/// `error` for a spent link or an expired page; the sell page records only its Cancel and its sale.
///
/// The decisions live here; the store applies them with conditional writes (`opened_at IS NULL`,
/// `outcome IS NULL`), so of two racing requests exactly one opens the link or records the outcome.
public struct SingleUsePage: Sendable, Hashable {
    /// When the link stops opening, in milliseconds.
    public let linkExpiresAt: Int64
    /// How long an opened page takes actions, in milliseconds; `nil` when it lasts as long as its link.
    public let pageLifetime: Int64?
    /// When the link was opened, if it was.
    public let openedAt: Int64?
    /// The outcome recorded, if any.
    public let outcome: PurchaseOutcome?

    /// A page in the state its store recorded.
    public init(linkExpiresAt: Int64, pageLifetime: Int64? = nil, openedAt: Int64?, outcome: PurchaseOutcome?) {
        self.linkExpiresAt = linkExpiresAt
        self.pageLifetime = pageLifetime
        self.openedAt = openedAt
        self.outcome = outcome
    }

    /// What opening the link does.
    public enum Opening: Sendable, Hashable {
        /// The first open before the link expires: bind a page secret and show the page.
        case show
        /// Opened before, or expired: show the spent page with the outcome recorded. The buy pages
        /// first record ``PurchaseOutcome/error`` unless an outcome is recorded (a second open ends the
        /// purchase); the sell page records nothing, so its first tab can still finish.
        case spent(expired: Bool)
    }

    /// What a submitted action does.
    public enum Submission: Sendable, Hashable {
        /// The page has ended: answer with its recorded outcome again (a double tap, the back button).
        case replay(PurchaseOutcome)
        /// End the page with this outcome (unless a racing request recorded one first): `error` once
        /// the page has expired (recorded by the buy pages only), `cancelled` for a Cancel.
        case end(PurchaseOutcome)
        /// Carry on with the action (Confirm, a preview).
        case proceed
    }

    /// Decides an open of the link at `now`.
    public func open(now: Int64) -> Opening {
        openedAt == nil && now < linkExpiresAt ? .show : .spent(expired: now >= linkExpiresAt)
    }

    /// Decides a submitted action at `now`; `cancelling` when the action is Cancel.
    public func submit(cancelling: Bool, now: Int64) -> Submission {
        if let outcome { return .replay(outcome) }
        if now >= pageExpiresAt { return .end(.error) }
        return cancelling ? .end(.cancelled) : .proceed
    }

    /// When the page stops taking actions: its lifetime after opening, or its link's expiry.
    public var pageExpiresAt: Int64 {
        guard let pageLifetime, let openedAt else { return linkExpiresAt }
        return openedAt + pageLifetime
    }

    /// The outcome a spent or ended page reports: the one recorded, else `error`.
    public var reportedOutcome: PurchaseOutcome { outcome ?? .error }
}
