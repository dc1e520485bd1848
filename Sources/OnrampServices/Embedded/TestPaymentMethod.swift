import OnrampCore
import OnrampWire

/// A payment method made from Stripe's test cards and bank accounts. Only brand, last 4 and expiry
/// (or bank name and last 4) are kept, plus how the sandbox charge behaves; never the full number.
package struct TestPaymentMethod: Sendable {
    /// How a charge on the method ends in the sandbox.
    package enum Behaviour: String, Sendable, Encodable {
        case succeeds
        case declines
        case requiresAuthentication = "requires_authentication"
    }

    /// How a charge on it ends.
    package let behaviour: Behaviour
    /// The card, for a card.
    package var card: StripePaymentMethod.Card?
    /// The bank account, for a bank account.
    package let bankAccount: StripePaymentMethod.USBankAccount?

    /// A card method.
    package init(card: StripePaymentMethod.Card, behaviour: Behaviour) {
        self.card = card
        bankAccount = nil
        self.behaviour = behaviour
    }

    /// A bank account method.
    package init(bankAccount: StripePaymentMethod.USBankAccount, behaviour: Behaviour) {
        card = nil
        self.bankAccount = bankAccount
        self.behaviour = behaviour
    }

    /// What kind of payment the method makes.
    package var type: PaymentMethodType {
        bankAccount != nil ? .ach : (card?.wallet?.type == "apple_pay" ? .applePay : .card)
    }

    /// Stripe's well-known test ids, usable without creating a method.
    package static func wellKnown(_ id: String) -> TestPaymentMethod? {
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
        return card(
            brand: "visa", last4: last4[id] ?? "4242", expMonth: 12, expYear: 2034, wallet: nil, behaviour: behaviour)
    }

    /// A test card's method: what it shows and how it is charged.
    package static func card(
        brand: String, last4: String, expMonth: Int, expYear: Int, wallet: String?, behaviour: Behaviour
    ) -> TestPaymentMethod {
        TestPaymentMethod(
            card: .init(
                brand: brand, expMonth: expMonth, expYear: expYear, funding: "credit", last4: last4,
                wallet: wallet.map(StripePaymentMethod.Card.Wallet.init(type:))),
            behaviour: behaviour)
    }

    /// The details as stored: `{type, behaviour, card{…}}` or `{type, behaviour, us_bank_account{…}}`.
    private struct Stored: Encodable {
        var type: String
        var behaviour: Behaviour
        var card: StripePaymentMethod.Card?
        var usBankAccount: StripePaymentMethod.USBankAccount?

        enum CodingKeys: String, CodingKey {
            case type, behaviour, card, usBankAccount = "us_bank_account"
        }
    }

    /// The method stored as `text` (``storedText``). Read through ``JSONParser`` rather than `JSONDecoder`, which
    /// cost 130k instructions a checkout (bench/RESULTS.md).
    package init(storedText text: String) throws {
        let unreadable = OnrampError.refusal("payment_method_invalid", "The stored payment method is unreadable.")
        guard let stored = try? JSONParser().parse(Array(text.utf8)),
            let behaviour = stored["behaviour"]?.stringValue.flatMap(Behaviour.init(rawValue:))
        else { throw unreadable }
        if let card = stored["card"], let brand = card["brand"]?.stringValue,
            let expMonth = card["exp_month"].flatMap(Self.integer),
            let expYear = card["exp_year"].flatMap(Self.integer),
            let last4 = card["last4"]?.stringValue
        {
            self.init(
                card: .init(
                    brand: brand, expMonth: expMonth, expYear: expYear,
                    funding: card["funding"]?.stringValue ?? "credit", last4: last4,
                    wallet: card["wallet"]?["type"]?.stringValue.map(StripePaymentMethod.Card.Wallet.init(type:)),
                    preferredNetwork: card["preferred_network"]?.stringValue),
                behaviour: behaviour)
        } else if let bank = stored["us_bank_account"], let last4 = bank["last4"]?.stringValue {
            self.init(
                bankAccount: .init(
                    accountType: bank["account_type"]?.stringValue ?? "checking",
                    bankName: bank["bank_name"]?.stringValue ?? "", last4: last4,
                    routingNumber: bank["routing_number"]?.stringValue ?? ""),
                behaviour: behaviour)
        } else {
            throw unreadable
        }
    }

    /// A stored integer.
    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let text) = value else { return nil }
        return Int(text)
    }

    /// The method as the database keeps it.
    package var storedText: String {
        let stored = Stored(
            type: bankAccount == nil ? "card" : "us_bank_account", behaviour: behaviour, card: card,
            usBankAccount: bankAccount)
        do {
            return try JSONValueEncoder().encode(stored).serializedString
        } catch {
            preconditionFailure("a payment method does not encode: \(error)")
        }
    }

    /// The Stripe `payment_method` object.
    package func wire(id: String, livemode: Bool, created: Int64) -> StripePaymentMethod {
        StripePaymentMethod(id: id, created: created, livemode: livemode, card: card, usBankAccount: bankAccount)
    }

    /// The `crypto.payment_token` object.
    package func token(id: String) -> CryptoPaymentToken {
        CryptoPaymentToken(id: id, card: card, usBankAccount: bankAccount)
    }
}
