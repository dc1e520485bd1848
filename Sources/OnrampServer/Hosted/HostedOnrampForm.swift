import OnrampCore
import OnrampServices

/// What the user chose on the hosted page: the offered combination (by index), one amount and
/// how to pay. Carried between the select and preview steps in form fields, re-validated on each.
struct HostedOnrampForm: Sendable, Equatable {
    /// Whether `amount` is the fiat paid (fees included) or the crypto received (fees added).
    enum AmountKind: String, Sendable { case payment, purchase }

    var choice: Int
    var amountKind: AmountKind
    var amount: String
    var currency: String
    var method: String

    /// The form as the presets start it.
    init(session: HostedOnrampSession, choices: [HostedOnrampSession.Choice]) {
        let presets = session.presets
        choice = choices.firstIndex { Self.matches(presets, $0) } ?? 0
        amountKind = presets.purchaseAmount != nil ? .purchase : .payment
        amount = presets.paymentAmount ?? presets.purchaseAmount ?? ""
        currency = presets.paymentCurrency ?? "USD"
        method = presets.paymentMethod ?? PaymentMethodType.card.rawValue
    }

    /// The form as posted; `nil` fields keep their starting values.
    init(posted fields: RequestFields, startingFrom start: HostedOnrampForm) throws(FieldError) {
        self = start
        if let text = try fields.optional("choice", maxLength: 4) {
            guard let index = Int(text), index >= 0 else {
                throw FieldError(status: 400, code: "invalid_request", message: "Choose what to buy.", param: "choice")
            }
            choice = index
        }
        if let kind = try fields.optional("amountKind", maxLength: 8) {
            guard let parsed = AmountKind(rawValue: kind) else {
                throw FieldError(status: 400, code: "invalid_request", message: "Unknown amount kind.", param: "amount")
            }
            amountKind = parsed
        }
        amount = try fields.optional("amount", maxLength: 40)?.trimmingCharacters(in: .whitespaces) ?? ""
        currency = try fields.optional("currency", maxLength: 8) ?? start.currency
        method = try fields.optional("method", maxLength: 32) ?? start.method
    }

    /// Whether exactly one combination fits the presets and an amount is set (a one-click URL).
    static func isComplete(_ session: HostedOnrampSession, choices: [HostedOnrampSession.Choice]) -> Bool {
        let presets = session.presets
        return choices.filter { matches(presets, $0) }.count == 1
            && (presets.paymentAmount != nil || presets.purchaseAmount != nil)
    }

    /// Whether `choice` fits the preset asset and network (an unset preset fits everything).
    private static func matches(_ presets: HostedOnrampSession.Presets, _ choice: HostedOnrampSession.Choice) -> Bool {
        (presets.asset.map { choice.asset.symbol == $0 || choice.asset.aliases.contains($0) } ?? true)
            && (presets.network.map { choice.network.isNamed($0) } ?? true)
    }

    /// The hidden fields that carry this form to the next step.
    var hiddenFields: String {
        [
            ("choice", String(choice)), ("amountKind", amountKind.rawValue), ("amount", amount),
            ("currency", currency), ("method", method),
        ].map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTML.escape($0.1))\">" }.joined(separator: "\n")
    }
}
