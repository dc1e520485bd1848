import HTTPServer
import OnrampCore
import OnrampStore
import OnrampWire

/// `POST /v1/consumers/payment_details` as the service takes it: a test card (bank accounts reach Link
/// through Financial Connections, which this sandbox does not run), its billing details as sent, and
/// whether it becomes the default. Decoded at the edge; no I/O.
struct PaymentDetailsCreation: Sendable {
    let method: TestPaymentMethod
    /// `billing_email_address` (lower-cased) and `billing_address`, when sent.
    let billing: JSONValue
    let isDefault: Bool

    /// Decodes the form's fields.
    init(_ fields: RequestFields) throws {
        switch try fields.required("type", maxLength: 32) {
        case "card":
            guard let card = try fields.object("card") else {
                throw OnrampError.refusal("parameter_missing", "Missing card details.", parameter: "card")
            }
            method = try TestPaymentMethod(card: card, wallet: nil)
        case "bank_account":
            throw OnrampError.refusal(
                "financial_connections_unsupported",
                "Bank accounts reach Link through Financial Connections, which this sandbox does not run; create a us_bank_account payment method instead.",
                parameter: "bank_account[account]")
        default:
            throw fields.invalid("type", "type must be card or bank_account.")
        }
        var billing: [(String, JSONValue)] = []
        if let email = try fields.optional("billing_email_address", maxLength: 800) {
            billing.append(("billing_email_address", .string(email.lowercased())))
        }
        if let address = try fields.optionalStringMap("billing_address") {
            billing.append(("billing_address", address))
        }
        self.billing = .object(billing)
        isDefault = try fields.optionalBool("is_default") ?? false
    }
}

/// A consumer's saved Link payment details: saving them, and sharing one as a payment method
/// (`pm_…`) for `createCryptoPaymentToken`.
struct LinkPaymentDetailsService: Sendable {
    let database: any Database
    /// The project's time (its test clock, when the request is bound to one).
    let clock: any OnrampCore.Clock
    let ids: IdGenerator

    /// The service on the parts of `context` it uses.
    init(context: ServerContext) {
        database = context.database
        clock = context.clock
        ids = context.ids
    }

    /// A payment method made of saved details, and when (stored milliseconds).
    struct Shared: Sendable {
        let methodId: String
        let method: TestPaymentMethod
        let created: Int64
    }

    /// The consumer's saved details, the default first.
    func list(consumerId: String) throws -> [LinkPaymentDetails] {
        try database.read { try LinkPaymentDetails.list($0, consumerId: consumerId) }
    }

    /// Saves `creation` for the session's consumer (at most ``LinkPaymentDetails/maximumPerConsumer``)
    /// and returns the details as stored.
    func save(_ creation: PaymentDetailsCreation, for session: ConsumerSession, caller: StripeCaller) throws
        -> LinkPaymentDetails
    {
        let details = LinkPaymentDetails(
            id: ids.id(prefix: IdPrefix.linkPaymentDetails), consumerId: session.consumerId, method: creation.method,
            billing: creation.billing, isDefault: creation.isDefault)
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            try details.insert(connection, projectId: caller.projectId, now: now, dialect: database.dialect)
            guard let saved = try LinkPaymentDetails.find(connection, id: details.id, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details") }
            return saved
        }
    }

    /// Makes a payment method of the session's consumer's details `detailsId`.
    func share(detailsId: String, for session: ConsumerSession, caller: StripeCaller) throws -> Shared {
        let methodId = ids.id(prefix: IdPrefix.paymentMethod)
        let now = Timestamp.milliseconds(clock.now())
        return try database.transaction { connection in
            guard let details = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details", parameter: "id") }
            try PaymentMethodStore(connection: connection).insertMethod(
                id: methodId, projectId: caller.projectId, details.method, now: now)
            return Shared(methodId: methodId, method: details.method, created: now)
        }
    }
}
