import OnrampStore

/// The Stripe family's events as `GET /v1/events` reads them: each stored payload is the full event
/// object, answered byte for byte as it was delivered.
package struct StripeEventService: Sendable {
    package let database: any Database

    /// Up to `limit` of the caller's event payloads, newest first, of `type` when given, after the event
    /// `startingAfter` when given.
    package func payloads(caller: StripeCaller, type: String?, startingAfter: String?, limit: Int) throws -> [String] {
        try database.read {
            try StripeEventRepository(connection: $0).payloads(
                projectId: caller.projectId, livemode: caller.livemode, type: type, startingAfter: startingAfter,
                limit: limit)
        }
    }

    /// The payload of the caller's event `id`.
    package func payload(id: String, caller: StripeCaller) throws -> String? {
        try database.read {
            try StripeEventRepository(connection: $0).payload(
                id: id, projectId: caller.projectId, livemode: caller.livemode)
        }
    }

    /// A value with each stored property given.
    package init(database: any Database) {
        self.database = database
    }
}
