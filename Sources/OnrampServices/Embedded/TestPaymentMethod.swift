import OnrampCore
import OnrampWire

/// A payment method made from Stripe's test cards and bank accounts. Only brand, last 4 and expiry
/// (or bank name and last 4) are kept, plus how the sandbox charge behaves; never the full number.
package struct TestPaymentMethod: Sendable {
    /// How a charge on the method ends in the sandbox.
    package enum Behaviour: String, Sendable {
        case succeeds
        case declines
        case requiresAuthentication = "requires_authentication"
    }

    package let type: PaymentMethodType
    package let behaviour: Behaviour
    /// The stored details: `{type, behaviour, card{…}}` or `{type, behaviour, us_bank_account{…}}`.
    package let stored: JSONValue

    /// Stripe's well-known test ids, usable without creating a method.
    package static func wellKnown(_ id: String) throws -> TestPaymentMethod? {
        let behaviour: Behaviour
        switch id {
        case "pm_card_visa": behaviour = .succeeds
        case "pm_card_chargeDeclined": behaviour = .declines
        case "pm_card_authenticationRequired": behaviour = .requiresAuthentication
        default: return nil
        }
        let last4 = [
            "pm_card_visa": "4242", "pm_card_chargeDeclined": "0002", "pm_card_authenticationRequired": "3220",
        ]
        return try card(
            brand: "visa", last4: last4[id] ?? "4242", expMonth: 12, expYear: 2034, wallet: nil, behaviour: behaviour)
    }

    package static func card(
        brand: String, last4: String, expMonth: Int, expYear: Int, wallet: String?, behaviour: Behaviour
    )
        throws -> TestPaymentMethod
    {
        let card: JSONValue = [
            "brand": .string(brand), "exp_month": .integer(expMonth), "exp_year": .integer(expYear),
            "funding": "credit",
            "last4": .string(last4), "wallet": wallet.map { ["type": .string($0)] } ?? .null,
        ]
        return try TestPaymentMethod(stored: ["type": "card", "behaviour": .string(behaviour.rawValue), "card": card])
    }

    package init(stored: JSONValue) throws {
        guard let type = stored["type"]?.stringValue,
            let behaviour = stored["behaviour"]?.stringValue.flatMap(Behaviour.init)
        else { throw OnrampError.refusal("payment_method_invalid", "The stored payment method is unreadable.") }
        self.type =
            type == "us_bank_account"
            ? .ach : (stored["card"]?["wallet"]?["type"]?.stringValue == "apple_pay" ? .applePay : .card)
        self.behaviour = behaviour
        self.stored = stored
    }

    /// The Stripe `payment_method` object.
    package func methodJSON(id: String, livemode: Bool, created: Int64) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id)), ("object", "payment_method"), ("created", .integer(created)),
            ("livemode", .bool(livemode)), ("type", stored["type"] ?? "card"),
        ]
        if let card = stored["card"] { members.append(("card", card)) }
        if let bank = stored["us_bank_account"] { members.append(("us_bank_account", bank)) }
        return .object(members)
    }

    /// The `crypto.payment_token` object.
    package func tokenJSON(id: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id)), ("object", "crypto.payment_token"), ("type", stored["type"] ?? "card"),
        ]
        if let card = stored["card"] { members.append(("card", card)) }
        if let bank = stored["us_bank_account"] { members.append(("us_bank_account", bank)) }
        return .object(members)
    }
}
