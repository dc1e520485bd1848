extension CryptoOnrampCoordinator {
    /// Registers a wallet for the signed-in customer; the server validates the address for the network.
    public func registerWalletAddress(walletAddress: String, network: CryptoNetwork) async throws {
        try ensureActive()
        _ = try await api.post(
            "/v1/crypto/internal/wallet",
            [try credentials(), ("wallet_address", walletAddress), ("network", network.rawValue)])
    }

    /// Presents the payment-method sheet and remembers the selection for ``createCryptoPaymentToken()``.
    /// Returns how to display it, or `nil` when the user canceled.
    public func collectPaymentMethod(type: PaymentMethodType, from viewController: PresentingViewController)
        async throws -> PaymentMethodDisplayData?
    {
        try ensureActive()
        _ = try credentials()
        guard let selection = try await presenters.paymentMethod.selectPaymentMethod(type: type, from: viewController)
        else { return nil }
        var fields: [(String, String)]
        switch selection {
        case .existing(let id):
            selectedPaymentMethodId = id
            return PaymentMethodDisplayData(paymentMethodType: "card", icon: "card", label: id, sublabel: nil)
        case .card(let card):
            fields = [
                ("type", "card"), ("card[number]", card.number), ("card[exp_month]", String(card.expMonth)),
                ("card[exp_year]", String(card.expYear)), ("card[cvc]", card.cvc),
            ]
            if case .applePay = type { fields.append(("wallet[type]", "apple_pay")) }
        case .bankAccount(let routing, let account):
            fields = [
                ("type", "us_bank_account"), ("us_bank_account[routing_number]", routing),
                ("us_bank_account[account_number]", account),
            ]
        }
        let method = try await api.post("/v1/payment_methods", fields)
        guard let id = method.string("id") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The payment method has no id.")
        }
        selectedPaymentMethodId = id
        return Self.displayData(method, applePay: { if case .applePay = type { true } else { false } }())
    }

    /// Creates a payment token (`cpt_…`) for the selected payment method; pass it to your backend's session
    /// creation.
    public func createCryptoPaymentToken() async throws -> String {
        try ensureActive()
        guard let customerId else {
            throw CryptoOnrampError(.missingCryptoCustomerId, developer: "Sign the user in first.")
        }
        guard let selectedPaymentMethodId else {
            throw CryptoOnrampError(.noPaymentMethodSelected, developer: "Call collectPaymentMethod(type:from:) first.")
        }
        // As `createCryptoPaymentToken` does: the platform's key first, then the token without credentials.
        _ = try await platformPublishableKey()
        let token = try await api.post(
            "/v1/crypto/internal/payment_token",
            [("payment_method", selectedPaymentMethodId), ("crypto_customer_id", customerId), ("ui_mode", "headless")])
        guard let id = token.string("id") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The payment token has no id.")
        }
        return id
    }

    /// `GET platform_settings`: the publishable key of the platform the payment is made on.
    func platformPublishableKey() async throws -> String {
        var query = [("ui_mode", "headless")]
        if let customerId { query.insert(("crypto_customer_id", customerId), at: 0) }
        let settings = try await api.get("/v1/crypto/internal/platform_settings", query)
        guard let key = settings.string("publishable_key") else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "The platform settings have no publishable key.")
        }
        return key
    }

    static func displayData(_ method: JSONObject, applePay: Bool) -> PaymentMethodDisplayData {
        if let card = method.object("card") {
            let brand = card.string("brand") ?? "card"
            let expiry = card.int("exp_month").flatMap { month in
                card.int("exp_year").map { "Expires \(month)/\($0 % 100)" }
            }
            return PaymentMethodDisplayData(
                paymentMethodType: applePay ? "apple_pay" : "card", icon: applePay ? "apple_pay" : brand,
                label: "\(brand.capitalized) •••• \(card.string("last4") ?? "")", sublabel: expiry)
        }
        let bank = method.object("us_bank_account")
        return PaymentMethodDisplayData(
            paymentMethodType: "us_bank_account", icon: "bank",
            label: "\(bank?.string("bank_name") ?? "Bank account") •••• \(bank?.string("last4") ?? "")",
            sublabel: bank?.string("account_type"))
    }
}
