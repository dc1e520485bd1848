import OnrampCore
import OnrampStore
import OnrampWire

/// Test payment methods (`pm_…`) and the single-use card tokens (`tok_…`) one can be made from.
package struct PaymentMethodService: Sendable, UsesServiceEnvironment {
    /// How long an unused card token stays redeemable.
    package static let cardTokenLifetimeMilliseconds: Int64 = 600_000

    package let environment: ServiceEnvironment

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
    }

    /// A stored payment method or card token, and when it was made (stored milliseconds).
    package struct Created: Sendable {
        package let id: String
        package let method: TestPaymentMethod
        package let created: Int64
    }

    /// Stores the method `creation` makes in the caller's project. A card token is spent in the same
    /// transaction, so a token is never spent without its method stored.
    package func create(_ creation: PaymentMethodCreation, caller: StripeCaller) throws -> Created {
        let id = ids.id(prefix: IdPrefix.paymentMethod)
        let now = Timestamp.milliseconds(clock.now())
        let method = try database.transaction { connection -> TestPaymentMethod in
            let store = PaymentMethodRepository(connection: connection)
            let method: TestPaymentMethod
            switch creation {
            case .method(let made): method = made
            case .cardToken(let token): method = try spend(token, caller: caller, now: now, store: store)
            }
            try store.insertMethod(id: id, projectId: caller.projectId, method, now: now)
            return method
        }
        return Created(id: id, method: method, created: now)
    }

    /// Stores a card token for the card `creation` stands for.
    package func createToken(_ creation: CardTokenCreation, caller: StripeCaller) throws -> Created {
        let id = ids.id(prefix: IdPrefix.cardToken)
        let now = Timestamp.milliseconds(clock.now())
        try database.transaction {
            try PaymentMethodRepository(connection: $0).insertCardToken(
                id: id, projectId: caller.projectId, livemode: caller.livemode, creation.method, now: now)
        }
        return Created(id: id, method: creation.method, created: now)
    }

    private func spend(_ token: String, caller: StripeCaller, now: Int64, store: PaymentMethodRepository) throws
        -> TestPaymentMethod
    {
        switch try store.spendCardToken(
            id: token, projectId: caller.projectId, livemode: caller.livemode,
            createdAfter: now - Self.cardTokenLifetimeMilliseconds, now: now)
        {
        case .spent(let method): return method
        case .unknown: throw OnrampError.missing("token: \(token)", parameter: "card[token]")
        case .alreadyUsed:
            throw OnrampError.refusal(
                "token_already_used", "You cannot use a Stripe token more than once.", parameter: "card[token]")
        }
    }
}
