/// The limits of guest checkout (Headless Onramp orders without a Coinbase account), per verified phone
/// number, as the API reference gives its defaults (cdp-sdk `OnrampLimitType`): spending over a rolling
/// week (168 hours) and a lifetime count of transactions.
public struct GuestCheckoutLimits: Sendable, Hashable {
    /// The most a phone number may spend in any 168 hours, in USD.
    public var weeklySpendingUSD: DecimalAmount
    /// The most orders a phone number may ever place.
    public var lifetimeTransactions: Int
    /// The length of the rolling week, in milliseconds.
    public static let weekMilliseconds: Int64 = 168 * 3_600_000

    /// The documented defaults: 500 USD a week, 15 orders.
    public static let standard = GuestCheckoutLimits(
        weeklySpendingUSD: DecimalAmount(exactly: 500), lifetimeTransactions: 15)
    /// After an active limit upgrade: 2,500 USD a week and no count (`2147483647`, as Coinbase writes
    /// "unlimited").
    public static let upgraded = GuestCheckoutLimits(
        weeklySpendingUSD: DecimalAmount(exactly: 2500), lifetimeTransactions: 2_147_483_647)

    /// Creates limits.
    public init(weeklySpendingUSD: DecimalAmount, lifetimeTransactions: Int) {
        self.weeklySpendingUSD = weeklySpendingUSD
        self.lifetimeTransactions = lifetimeTransactions
    }

    /// What is left given what the phone number spent this week and how many orders it placed.
    public func remaining(spentThisWeek: DecimalAmount, orders: Int) -> (spending: DecimalAmount, transactions: Int) {
        let spending = weeklySpendingUSD - spentThisWeek
        return (spending.isNegative ? DecimalAmount(exactly: 0) : spending, max(0, lifetimeTransactions - orders))
    }

    /// Why an order of `amount` would break a limit, or `nil` when it fits.
    public enum Breach: Sendable, Hashable {
        /// It would take the week's spending over ``weeklySpendingUSD`` (`guest_transaction_limit`).
        case weeklySpending
        /// The phone number has placed ``lifetimeTransactions`` orders already (`guest_transaction_count`).
        case lifetimeTransactions
    }

    /// The limit an order of `amount` USD would break.
    public func breach(ordering amount: DecimalAmount, spentThisWeek: DecimalAmount, orders: Int) -> Breach? {
        if orders >= lifetimeTransactions { return .lifetimeTransactions }
        if weeklySpendingUSD < spentThisWeek + amount { return .weeklySpending }
        return nil
    }
}
