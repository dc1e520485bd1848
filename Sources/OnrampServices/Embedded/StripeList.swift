import OnrampWire

/// Stripe's list conventions: the `limit` query parameter and the list object.
package enum StripeList {
    /// The `limit` query value: 1 to 100, `defaultLimit` when absent; 400 `parameter_invalid_integer`
    /// otherwise.
    package static func limit(_ text: String?, default defaultLimit: Int = 10) throws(FieldError) -> Int {
        guard let text else { return defaultLimit }
        guard let limit = Int(text), (1...100).contains(limit) else {
            throw FieldError.stripe("parameter_invalid_integer", "limit must be between 1 and 100.", param: "limit")
        }
        return limit
    }

    /// The list object of the first `limit` of `items`; an item beyond them (fetched to tell) only sets
    /// `has_more`.
    package static func object(url: String, limit: Int, _ items: [JSONValue]) -> JSONValue {
        [
            "object": "list", "url": .string(url), "has_more": .bool(items.count > limit),
            "data": .array(Array(items.prefix(limit))),
        ]
    }
}
