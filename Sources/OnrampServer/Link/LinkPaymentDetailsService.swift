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

/// `POST /v1/consumers/payment_details/{id}` as the service takes it (stripe-ios `updatePaymentDetails`): a
/// card's new expiry (`exp_month` and `exp_year` together), `preferred_network`, billing details replacing the
/// saved ones, and `is_default: true` making it the default. Decoded at the edge; no I/O.
struct PaymentDetailsUpdate: Sendable {
    /// The new expiry, checked as a card's is when saved.
    let expiry: (month: Int, year: Int)?
    let preferredNetwork: String?
    /// `billing_email_address` (lower-cased) and `billing_address`, each replacing the saved one when sent.
    let billing: [(String, JSONValue)]
    let makeDefault: Bool

    /// Decodes the form's fields.
    init(_ fields: RequestFields) throws {
        let month = try fields.optional("exp_month", maxLength: 2)
        let year = try fields.optional("exp_year", maxLength: 4)
        switch (month.flatMap { Int($0) }, year.flatMap { Int($0) }) {
        case (nil, nil) where month == nil && year == nil:
            expiry = nil
        case (let month?, let year?) where (1...12).contains(month) && year >= 2024:
            expiry = (month, year)
        default:
            throw HTTPError(
                status: 402, code: "invalid_expiry_year", message: "Your card's expiration date is invalid.",
                param: "exp_year", type: "card_error")
        }
        preferredNetwork = try fields.optional("preferred_network", maxLength: 32)
        var billing: [(String, JSONValue)] = []
        if let email = try fields.optional("billing_email_address", maxLength: 800) {
            billing.append(("billing_email_address", .string(email.lowercased())))
        }
        if let address = try fields.optionalStringMap("billing_address") {
            billing.append(("billing_address", address))
        }
        self.billing = billing
        makeDefault = try fields.optionalBool("is_default") ?? false
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

    /// Applies `update` to the session's consumer's details `detailsId` (an expiry or network only to a card) and
    /// returns them as stored.
    func update(detailsId: String, _ update: PaymentDetailsUpdate, for session: ConsumerSession) throws
        -> LinkPaymentDetails
    {
        try database.transaction { connection in
            guard let details = try LinkPaymentDetails.find(connection, id: detailsId, consumerId: session.consumerId)
            else { throw OnrampError.missing("payment details", parameter: "id") }
            var stored = details.method.stored
            if update.expiry != nil || update.preferredNetwork != nil {
                guard case .object(var card) = stored["card"] ?? .null, case .object(var members) = stored else {
                    throw OnrampError.refusal(
                        "parameter_invalid", "Only a card has an expiry and a preferred network.",
                        parameter: "exp_month")
                }
                func set(_ key: String, _ value: JSONValue) {
                    card.removeAll { $0.0 == key }
                    card.append((key, value))
                }
                if let expiry = update.expiry {
                    set("exp_month", .integer(expiry.month))
                    set("exp_year", .integer(expiry.year))
                }
                if let network = update.preferredNetwork { set("preferred_network", .string(network)) }
                members.removeAll { $0.0 == "card" }
                members.append(("card", .object(card)))
                stored = .object(members)
            }
            var billing = details.billing.objectValue ?? []
            for (key, value) in update.billing {
                billing.removeAll { $0.0 == key }
                billing.append((key, value))
            }
            try LinkPaymentDetails.replace(
                connection, id: detailsId, consumerId: session.consumerId, stored: stored, billing: .object(billing))
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
    func delete(detailsId: String, for session: ConsumerSession) throws {
        try database.transaction { connection in
            guard try LinkPaymentDetails.delete(connection, id: detailsId, consumerId: session.consumerId) else {
                throw OnrampError.missing("payment details", parameter: "id")
            }
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
