import OnrampCore
import OnrampStore
import OnrampWire

/// A consumer's saved Link payment details: saving them, and sharing one as a payment method
/// (`pm_…`) for `createCryptoPaymentToken`.
package struct LinkPaymentDetailsService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
    }

    /// A payment method made of saved details, and when (stored milliseconds).
    package struct Shared: Sendable {
        package let methodId: String
        package let method: TestPaymentMethod
        package let created: Int64
    }

    /// The consumer's saved details, the default first.
    package func list(consumerId: String) throws -> [LinkPaymentDetails] {
        try database.read { try LinkPaymentDetails.list($0, consumerId: consumerId) }
    }

    /// Saves `creation` for the session's consumer (at most ``LinkPaymentDetails/maximumPerConsumer``)
    /// and returns the details as stored.
    package func save(_ creation: PaymentDetailsCreation, for session: ConsumerSession, caller: StripeCaller) throws
        -> LinkPaymentDetails
    {
        let details = LinkPaymentDetails(
            id: ids.id(prefix: IdPrefix.linkPaymentDetails), consumerId: session.consumerId, method: creation.method,
            billing: creation.billing, isDefault: creation.isDefault)
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            try details.insert(connection, projectId: caller.projectId, now: now)
            guard let saved = try LinkPaymentDetails.find(connection, id: details.id, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details") }
            return saved
        }
    }

    /// Applies `update` to the session's consumer's details `detailsId` (an expiry or network only to a card) and
    /// returns them as stored.
    package func update(detailsId: String, _ update: PaymentDetailsUpdate, for session: ConsumerSession) throws
        -> LinkPaymentDetails
    {
        try database.transaction { connection in
            guard let details = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details", parameter: "id") }
            var method = details.method
            if update.expiry != nil || update.preferredNetwork != nil {
                guard var card = method.card else {
                    throw OnrampError.refusal(
                        "parameter_invalid", "Only a card has an expiry and a preferred network.",
                        parameter: "exp_month")
                }
                if let expiry = update.expiry { (card.expMonth, card.expYear) = (expiry.month, expiry.year) }
                if let network = update.preferredNetwork { card.preferredNetwork = network }
                method.card = card
            }
            var billing = details.billing.objectValue ?? []
            for (key, value) in update.billing {
                billing.removeAll { $0.0 == key }
                billing.append((key, value))
            }
            try LinkPaymentDetails.replace(
                connection, id: detailsId, consumerId: session.consumerId, method: method, billing: .object(billing))
            if update.makeDefault {
                try LinkPaymentDetails.makeDefault(connection, id: detailsId, consumerId: session.consumerId)
            }
            guard let saved = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details", parameter: "id") }
            return saved
        }
    }

    /// Deletes the session's consumer's details `detailsId`; when they were the default, the oldest left
    /// becomes it. Payment methods already shared from them are not touched.
    package func delete(detailsId: String, for session: ConsumerSession) throws {
        try database.transaction { connection in
            guard try LinkPaymentDetails.delete(connection, id: detailsId, consumerId: session.consumerId) else {
                throw OnrampError.missing("payment details", parameter: "id")
            }
        }
    }

    /// Makes a payment method of the session's consumer's details `detailsId`.
    package func share(detailsId: String, for session: ConsumerSession, caller: StripeCaller) throws -> Shared {
        let methodId = ids.id(prefix: IdPrefix.paymentMethod)
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            guard let details = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details", parameter: "id") }
            try PaymentMethodRepository(connection: connection).insertMethod(
                id: methodId, projectId: caller.projectId, details.method, now: now)
            return Shared(methodId: methodId, method: details.method, created: now)
        }
    }
}
