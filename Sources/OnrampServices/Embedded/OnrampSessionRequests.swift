import OnrampCore
import OnrampWire

/// What a partner asks an onramp session to buy: the creation form's purchase, as the session keeps it.
package struct OnrampSessionPurchase: Sendable, Equatable {
    /// The fiat currency, lower case (`usd`).
    package var sourceCurrency: String
    /// The asset, lower case (`usdc`).
    package var destinationCurrency: String
    /// The network, lower case.
    package var destinationNetwork: String
    /// The assets the session may be switched to (the destination currency when not given).
    package var destinationCurrencies: [String]
    /// The networks the session may be switched to (the destination network when not given).
    package var destinationNetworks: [String]
    /// The wallet the crypto goes to.
    package var walletAddress: String
    /// The customer's payment token charged at checkout.
    package var paymentToken: String
    /// How fast the crypto is delivered.
    package var settlementSpeed: CryptoOnrampSession.SettlementSpeed
    /// The customer's IP address, as the partner saw it.
    package var customerIPAddress: String?
    /// The partner's own keys and values.
    package var metadata: [String: String]?
    /// The side of the purchase the partner fixed, and its amount.
    package var amount: EmbeddedAmount
}

/// `POST /v1/crypto/onramp_sessions` as the service takes it: decoded at the edge (lengths, the one
/// headless mode, the settlement speeds, exactly one amount). Shape only: no I/O.
package struct OnrampSessionCreation: Sendable {
    /// The customer buying; the OAuth grant's consumer must own it.
    package let customerId: String
    /// What to buy.
    package let purchase: OnrampSessionPurchase

    /// Decodes `body`.
    package init(_ body: JSONValue) throws {
        let fields = RequestFields.stripe(body)
        if let mode = try fields.optional("ui_mode", maxLength: 16), mode != "headless" {
            throw fields.invalid("ui_mode", "ui_mode must be headless.")
        }
        customerId = try fields.required("crypto_customer_id", maxLength: 64)
        let sourceCurrency = try fields.required("source_currency", maxLength: 8).lowercased()
        let destinationCurrency = try fields.required("destination_currency", maxLength: 8).lowercased()
        let network = try fields.required("destination_network", maxLength: 32).lowercased()
        let currencies =
            try fields.optionalList("destination_currencies")?.map { $0.lowercased() } ?? [destinationCurrency]
        let networks = try fields.optionalList("destination_networks")?.map { $0.lowercased() } ?? [network]
        let walletAddress = try fields.required("wallet_address", maxLength: 128)
        let speedText = try fields.optional("settlement_speed", maxLength: 16) ?? "instant"
        guard let settlementSpeed = CryptoOnrampSession.SettlementSpeed(rawValue: speedText) else {
            throw fields.invalid("settlement_speed", "settlement_speed must be instant or standard.")
        }
        let ip = try fields.optional("customer_ip_address", maxLength: 64)
        let metadata = try fields.optionalStringMap("metadata")?.dictionary
        let paymentToken = try fields.required("payment_token", maxLength: 64)
        let amount = try EmbeddedAmount.parse(
            sourceAmount: try fields.optional("source_amount", maxLength: 40),
            destinationAmount: try fields.optional("destination_amount", maxLength: 40))
        purchase = OnrampSessionPurchase(
            sourceCurrency: sourceCurrency, destinationCurrency: destinationCurrency, destinationNetwork: network,
            destinationCurrencies: currencies, destinationNetworks: networks, walletAddress: walletAddress,
            paymentToken: paymentToken, settlementSpeed: settlementSpeed, customerIPAddress: ip, metadata: metadata,
            amount: amount)
    }
}

/// `POST /v1/crypto/onramp_sessions/{id}/checkout` as the service takes it.
package struct OnrampSessionCheckout: Sendable {
    /// Whether the form carries `mandate_data`: the customer accepted the ACH mandate.
    package let acceptsMandate: Bool

    /// Decodes `body`.
    package init(_ body: JSONValue) throws(FieldError) {
        acceptsMandate = try RequestFields.stripe(body).object("mandate_data") != nil
    }
}

/// `GET /v1/crypto/onramp_sessions` as the service takes it: newest first; filters `status`,
/// `destination_currency`, `destination_network`, `created[gte|lte|gt|lt]`; cursor pagination with `limit`
/// (1–100), `starting_after` and `ending_before`. Decoded at the edge; no I/O.
package struct OnrampSessionListQuery: Sendable {
    package let filter: OnrampSessionRepository.Filter
    package let anchor: OnrampSessionRepository.Anchor
    package let limit: Int

    /// Decodes a request's query, whose values `query` looks up by name.
    package init(query: (String) -> String?) throws {
        var filter = OnrampSessionRepository.Filter(
            status: query("status"), destinationCurrency: query("destination_currency"),
            destinationNetwork: query("destination_network"))
        // Stripe's `created` is in seconds (bounded, so the milliseconds stored cannot overflow).
        func seconds(_ parameter: String) throws(FieldError) -> Int64? {
            guard let value = query(parameter) else { return nil }
            guard let seconds = Int64(value), (0...100_000_000_000).contains(seconds) else {
                throw FieldError.stripe(
                    "parameter_invalid_integer", "\(parameter) must be a Unix time in seconds.", param: "created")
            }
            return seconds
        }
        if let seconds = try seconds("created[gte]") { filter.created(from: seconds * 1000) }
        if let seconds = try seconds("created[gt]") { filter.created(from: (seconds + 1) * 1000) }
        if let seconds = try seconds("created[lte]") { filter.created(before: (seconds + 1) * 1000) }
        if let seconds = try seconds("created[lt]") { filter.created(before: seconds * 1000) }
        if let seconds = try seconds("created") {
            filter.created(from: seconds * 1000)
            filter.created(before: (seconds + 1) * 1000)
        }
        self.filter = filter
        limit = try StripeListLimit.read(query("limit"))
        anchor =
            if let after = query("starting_after") {
                .olderThan(after)
            } else if let before = query("ending_before") {
                .newerThan(before)
            } else {
                .newest
            }
    }
}
