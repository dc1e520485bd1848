import Foundation
import OnrampWire

extension CryptoOnrampCoordinator {
    /// Registers a wallet for the signed-in customer; the server validates the address for the network.
    public func registerWalletAddress(walletAddress: String, network: CryptoNetwork) async throws {
        try ensureActive()
        _ = try await api.post(
            "/v1/crypto/internal/wallet",
            [try credentials(), ("wallet_address", walletAddress), ("network", network.rawValue)],
            as: CryptoConsumerWallet.self)
    }

    /// Presents the payment-method sheet and remembers the selection for ``createCryptoPaymentToken()``.
    /// Returns how to display it, or `nil` when the user canceled. As the SDK does, a card is saved to the
    /// user's Link wallet (`consumers/payment_details`) and shared as a payment method
    /// (`consumers/payment_details/share`); Apple Pay becomes a card token (`POST /v1/tokens`) and then a
    /// payment method; both with the platform's key. A bank account is made directly
    /// (`type=us_bank_account`): the SDK's Financial Connections flow is not reproduced.
    public func collectPaymentMethod(type: PaymentMethodType, from viewController: PresentingViewController)
        async throws -> PaymentMethodDisplayData?
    {
        try ensureActive()
        let credential = try credentials()
        guard let selection = try await presenters.paymentMethod.selectPaymentMethod(type: type, from: viewController)
        else { return nil }
        let platformKey = try await platformPublishableKey()
        let applePay = if case .applePay = type { true } else { false }
        let method: StripePaymentMethod
        switch selection {
        case .existing(let id):
            selectedPaymentMethodId = id
            return PaymentMethodDisplayData(paymentMethodType: "card", icon: "card", label: id, sublabel: nil)
        case .card(let card) where applePay:
            let token = try await api.post(
                "/v1/tokens", Self.simulatedApplePayment(card), key: platformKey, as: StripeCardToken.self)
            method = try await api.post(
                "/v1/payment_methods", [("type", "card"), ("card[token]", token.id)], key: platformKey,
                as: StripePaymentMethod.self)
        case .card(let card):
            let detailsId = try await api.post(
                "/v1/consumers/payment_details",
                [
                    credential, CryptoOnrampAPI.requestSurface, ("type", "card"), ("card[number]", card.number),
                    ("card[exp_month]", String(card.expMonth)), ("card[exp_year]", String(card.expYear)),
                    ("billing_email_address", (email ?? "").lowercased()), ("active", "true"),
                ], key: consumerPublishableKey, as: SavedPaymentDetails.self
            ).redactedPaymentDetails.id
            method = try await api.post(
                "/v1/consumers/payment_details/share",
                [
                    credential, CryptoOnrampAPI.requestSurface, ("expand[0]", "payment_method"), ("id", detailsId),
                    ("payment_method_options[card][cvc]", card.cvc), ("expected_payment_method_type", "card"),
                ], key: platformKey, as: SharedPaymentDetails.self
            ).paymentMethod
        case .bankAccount(let routing, let account):
            method = try await api.post(
                "/v1/payment_methods",
                [
                    ("type", "us_bank_account"), ("us_bank_account[routing_number]", routing),
                    ("us_bank_account[account_number]", account),
                ], key: platformKey, as: StripePaymentMethod.self)
        }
        selectedPaymentMethodId = method.id
        return Self.displayData(method, applePay: applePay)
    }

    /// The fields StripeApplePay's `Token+API.swift` (at 0032a69d) sends for a PKPayment, as the simulator
    /// makes one: its payment data is empty, so `pk_token` is too, and its transaction id names the card
    /// (`ApplePayStubs~<number>~…`; a test-mode key only).
    static func simulatedApplePayment(_ card: CardDetails) -> [(String, String)] {
        [
            ("pk_token", ""),
            ("pk_token_instrument_name", "Simulated Instrument"), ("pk_token_payment_network", "Visa"),
            ("pk_token_transaction_id", "ApplePayStubs~\(card.number)~0~USD~\(UUID().uuidString)"),
        ]
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
        return try await api.post(
            "/v1/crypto/internal/payment_token",
            [("payment_method", selectedPaymentMethodId), ("crypto_customer_id", customerId), ("ui_mode", "headless")],
            as: CryptoPaymentToken.self
        ).id
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

    static func displayData(_ method: StripePaymentMethod, applePay: Bool) -> PaymentMethodDisplayData {
        if let card = method.card {
            return PaymentMethodDisplayData(
                paymentMethodType: applePay ? "apple_pay" : "card", icon: applePay ? "apple_pay" : card.brand,
                label: "\(card.brand.capitalized) •••• \(card.last4)",
                sublabel: "Expires \(card.expMonth)/\(card.expYear % 100)")
        }
        let bank = method.usBankAccount
        return PaymentMethodDisplayData(
            paymentMethodType: "us_bank_account", icon: "bank",
            label: "\(bank?.bankName ?? "Bank account") •••• \(bank?.last4 ?? "")", sublabel: bank?.accountType)
    }
}

/// What `consumers/payment_details` answers: the details saved.
private struct SavedPaymentDetails: Decodable {
    let redactedPaymentDetails: ConsumerPaymentDetails

    enum CodingKeys: String, CodingKey {
        case redactedPaymentDetails = "redacted_payment_details"
    }
}

/// What `consumers/payment_details/share` answers with `expand[0]=payment_method`.
private struct SharedPaymentDetails: Decodable {
    let paymentMethod: StripePaymentMethod

    enum CodingKeys: String, CodingKey {
        case paymentMethod = "payment_method"
    }
}
