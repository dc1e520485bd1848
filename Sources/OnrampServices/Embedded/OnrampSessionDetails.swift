import OnrampCore
import OnrampStore
import OnrampWire

/// What an onramp session buys and what its quote priced, as the session keeps it (the `details`
/// column: a JSON object with the wire's snake-case keys, the amounts as decimal strings).
package struct OnrampSessionDetails: Sendable, Equatable {
    /// The quoted amounts, decimal strings in their currency's places (fiat 2, yen 0, the asset's own).
    package struct QuotedAmounts: Sendable, Equatable {
        /// The fiat that buys crypto, before fees.
        package var sourceAmount: String
        /// What the user pays in total.
        package var sourceTotalAmount: String
        /// The crypto the user receives.
        package var destinationAmount: String
        /// The network's fee, in fiat.
        package var networkFeeAmount: String
        /// The onramp's fee, in fiat.
        package var transactionFeeAmount: String

        /// The amounts of `quote`.
        package init(_ quote: EmbeddedQuote) {
            let places = quote.sourceAmount.currency.lowercased() == "jpy" ? 0 : 2
            sourceAmount = quote.sourceAmount.amount.string(places: places)
            sourceTotalAmount = quote.sourceTotalAmount.amount.string(places: places)
            destinationAmount = quote.destinationAmount.amount.string(places: quote.asset.decimals)
            networkFeeAmount = quote.networkFeeAmount.amount.string(places: places)
            transactionFeeAmount = quote.transactionFeeAmount.amount.string(places: places)
        }

        package init(
            sourceAmount: String, sourceTotalAmount: String, destinationAmount: String, networkFeeAmount: String,
            transactionFeeAmount: String
        ) {
            self.sourceAmount = sourceAmount
            self.sourceTotalAmount = sourceTotalAmount
            self.destinationAmount = destinationAmount
            self.networkFeeAmount = networkFeeAmount
            self.transactionFeeAmount = transactionFeeAmount
        }

        /// What the user pays in total, exactly.
        package var sourceTotal: DecimalAmount { (try? DecimalAmount(parsing: sourceTotalAmount)) ?? .zero }
    }

    /// What was asked.
    package var purchase: OnrampSessionPurchase
    /// What the latest quote priced.
    package var quoted: QuotedAmounts
    /// The 3-D Secure page of the latest challenge.
    package var nextActionURL: String?

    package init(purchase: OnrampSessionPurchase, quoted: QuotedAmounts) {
        self.purchase = purchase
        self.quoted = quoted
    }

    /// The details as stored.
    package var stored: JSONValue {
        var members: [(String, JSONValue)] = [
            ("amount_input", .string(purchase.amount.value.description)),
            ("amount_side", .string(purchase.amount.side)),
            ("customer_ip_address", .optional(purchase.customerIPAddress)),
            ("destination_amount", .string(quoted.destinationAmount)),
            ("destination_currencies", .array(purchase.destinationCurrencies.map(JSONValue.string))),
            ("destination_currency", .string(purchase.destinationCurrency)),
            ("destination_network", .string(purchase.destinationNetwork)),
            ("destination_networks", .array(purchase.destinationNetworks.map(JSONValue.string))),
        ]
        if let metadata = purchase.metadata {
            members.append(
                ("metadata", .object(metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        members += [
            ("network_fee_amount", .string(quoted.networkFeeAmount))
        ]
        if let nextActionURL { members.append(("next_action_url", .string(nextActionURL))) }
        members += [
            ("payment_token", .string(purchase.paymentToken)),
            ("settlement_speed", .string(purchase.settlementSpeed.rawValue)),
            ("source_amount", .string(quoted.sourceAmount)), ("source_currency", .string(purchase.sourceCurrency)),
            ("source_total_amount", .string(quoted.sourceTotalAmount)),
            ("transaction_fee_amount", .string(quoted.transactionFeeAmount)),
            ("wallet_address", .string(purchase.walletAddress)),
        ]
        return .object(members)
    }

    /// Reads details this server stored.
    ///
    /// - Throws: ``StoreError`` (`typeMismatch`) when a member is missing or of another type.
    package init(stored: JSONValue) throws {
        func text(_ key: String) throws -> String {
            guard let value = stored[key]?.stringValue else {
                throw StoreError(.typeMismatch, "an onramp session's details lack \(key)")
            }
            return value
        }
        func texts(_ key: String) throws -> [String] {
            guard let values = stored[key]?.arrayValue?.compactMap(\.stringValue) else {
                throw StoreError(.typeMismatch, "an onramp session's details lack \(key)")
            }
            return values
        }
        let input = try DecimalAmount(parsing: try text("amount_input"))
        guard let speed = CryptoOnrampSession.SettlementSpeed(rawValue: try text("settlement_speed")) else {
            throw StoreError(.typeMismatch, "an onramp session's settlement_speed is unknown")
        }
        purchase = OnrampSessionPurchase(
            sourceCurrency: try text("source_currency"), destinationCurrency: try text("destination_currency"),
            destinationNetwork: try text("destination_network"),
            destinationCurrencies: try texts("destination_currencies"),
            destinationNetworks: try texts("destination_networks"), walletAddress: try text("wallet_address"),
            paymentToken: try text("payment_token"), settlementSpeed: speed,
            customerIPAddress: stored["customer_ip_address"]?.stringValue,
            metadata: stored["metadata"].flatMap { $0.isNull ? nil : OnrampSessionCreation.stringMap($0) },
            amount: try text("amount_side") == "destination" ? .destination(input) : .source(input))
        quoted = QuotedAmounts(
            sourceAmount: try text("source_amount"), sourceTotalAmount: try text("source_total_amount"),
            destinationAmount: try text("destination_amount"), networkFeeAmount: try text("network_fee_amount"),
            transactionFeeAmount: try text("transaction_fee_amount"))
        nextActionURL = stored["next_action_url"]?.stringValue
    }
}

extension EmbeddedAmount {
    /// `source` or `destination`, as details store the side.
    fileprivate var side: String {
        switch self {
        case .source: "source"
        case .destination: "destination"
        }
    }

    /// The amount fixed.
    fileprivate var value: DecimalAmount {
        switch self {
        case .source(let value), .destination(let value): value
        }
    }
}
