import OnrampWire

/// The `limit` query parameter of Stripe's lists.
package enum StripeListLimit {
    /// The `limit` query value: 1 to 100, `defaultLimit` when absent; 400 `parameter_invalid_integer`
    /// otherwise.
    package static func read(_ text: String?, default defaultLimit: Int = 10) throws(FieldError) -> Int {
        guard let text else { return defaultLimit }
        guard let limit = Int(text), (1...100).contains(limit) else {
            throw FieldError.stripe("parameter_invalid_integer", "limit must be between 1 and 100.", param: "limit")
        }
        return limit
    }
}
