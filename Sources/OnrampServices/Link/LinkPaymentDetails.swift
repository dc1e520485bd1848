import OnrampCore
import OnrampStore
import OnrampWire

/// A Link consumer's saved payment details: a card (only brand, last 4 and expiry are kept, plus how the
/// sandbox charge behaves) shared as a payment method when the consumer pays. The wire object is
/// stripe-ios `ConsumerPaymentDetails` (`StripePaymentSheet/…/API Bindings/Link/PaymentDetails.swift`):
/// `id`, `is_default`, `type` (`CARD`, `BANK_ACCOUNT`) and `card_details` (`exp_year`, `exp_month`, `brand`,
/// `networks`, `last4`, `funding`) or `bank_account_details` (`bank_name`, `last4`) required.
package struct LinkPaymentDetails: Sendable {
    /// The most payment details one consumer may save.
    package static let maximumPerConsumer = 100

    package let id: String
    package let consumerId: String
    /// The card or bank account, as a test payment method.
    package let method: TestPaymentMethod
    /// `billing_email_address` and `billing_address`, as sent.
    package let billing: JSONValue
    package let isDefault: Bool

    package init(id: String, consumerId: String, method: TestPaymentMethod, billing: JSONValue, isDefault: Bool) {
        self.id = id
        self.consumerId = consumerId
        self.method = method
        self.billing = billing
        self.isDefault = isDefault
    }

    package init(row: Row) throws {
        id = try row.string("id")
        consumerId = try row.string("consumer_id")
        method = try TestPaymentMethod(storedText: try row.string("details"))
        billing = try JSONParser().parse(Array(try row.string("billing").utf8))
        isDefault = try row.int("is_default") != 0
    }

    /// Saves the details; the first of a consumer's becomes the default, as does one saved with `isDefault`.
    package func insert(_ connection: any SQLConnection, projectId: String, now: Int64) throws {
        try connection.lockParent(table: "link_consumers", id: consumerId)
        let count =
            try connection.query(
                "SELECT COUNT(*) AS n FROM link_payment_details WHERE consumer_id = ?", [.text(consumerId)]
            ).first?.int("n") ?? 0
        guard count < Self.maximumPerConsumer else {
            throw OnrampError.refusal(
                "resource_limit_exceeded", "A consumer may save at most \(Self.maximumPerConsumer) payment details.")
        }
        let makeDefault = isDefault || count == 0
        if makeDefault {
            try connection.execute(
                "UPDATE link_payment_details SET is_default = 0 WHERE consumer_id = ?", [.text(consumerId)])
        }
        try connection.execute(
            """
            INSERT INTO link_payment_details (id, project_id, consumer_id, details, billing, is_default, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(id), .text(projectId), .text(consumerId), .text(method.storedText),
                .text(billing.serializedString), .integer(makeDefault ? 1 : 0), .integer(now),
            ])
    }

    /// The consumer's details, oldest first.
    package static func list(_ connection: any SQLConnection, consumerId: String) throws -> [LinkPaymentDetails] {
        try connection.query(
            "SELECT * FROM link_payment_details WHERE consumer_id = ? ORDER BY created_at, id", [.text(consumerId)]
        ).map(LinkPaymentDetails.init(row:))
    }

    /// The consumer's details `id`.
    package static func find(_ connection: any SQLConnection, id: String, consumerId: String) throws
        -> LinkPaymentDetails?
    {
        try connection.query(
            "SELECT * FROM link_payment_details WHERE id = ? AND consumer_id = ?", [.text(id), .text(consumerId)]
        ).first.map(LinkPaymentDetails.init(row:))
    }

    /// Replaces the stored details and billing of the consumer's details `id`.
    package static func replace(
        _ connection: any SQLConnection, id: String, consumerId: String, method: TestPaymentMethod, billing: JSONValue
    ) throws {
        try connection.execute(
            "UPDATE link_payment_details SET details = ?, billing = ? WHERE id = ? AND consumer_id = ?",
            [.text(method.storedText), .text(billing.serializedString), .text(id), .text(consumerId)])
    }

    /// Makes the consumer's details `id` the default (and no other).
    package static func makeDefault(_ connection: any SQLConnection, id: String, consumerId: String) throws {
        try connection.execute(
            "UPDATE link_payment_details SET is_default = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE consumer_id = ?",
            [.text(id), .text(consumerId)])
    }

    /// Deletes the consumer's details `id`, making the oldest left the default if they were; false when there
    /// were none.
    package static func delete(_ connection: any SQLConnection, id: String, consumerId: String) throws -> Bool {
        guard let deleted = try find(connection, id: id, consumerId: consumerId) else { return false }
        try connection.execute(
            "DELETE FROM link_payment_details WHERE id = ? AND consumer_id = ?", [.text(id), .text(consumerId)])
        if deleted.isDefault, let oldest = try list(connection, consumerId: consumerId).first {
            try makeDefault(connection, id: oldest.id, consumerId: consumerId)
        }
        return true
    }

    /// `CARD` or `BANK_ACCOUNT`.
    package var type: String { method.type == .ach ? "BANK_ACCOUNT" : "CARD" }

    /// The redacted `ConsumerPaymentDetails` object.
    package var wire: ConsumerPaymentDetails {
        ConsumerPaymentDetails(
            id: id, isDefault: isDefault, billingEmailAddress: billing["billing_email_address"]?.stringValue,
            billingAddress: billing["billing_address"].flatMap(OrderedStringMap.init(json:)),
            cardDetails: method.card.map { card in
                .init(
                    brand: card.brand.uppercased(), last4: card.last4, expMonth: card.expMonth,
                    expYear: card.expYear, networks: [card.brand.uppercased()], funding: card.funding.uppercased())
            },
            bankAccountDetails: method.bankAccount.map { .init(bankName: $0.bankName, last4: $0.last4) })
    }
}
