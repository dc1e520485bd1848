import OnrampCore
import OnrampStore
import OnrampWire

/// What an onramp session buys and what its quote priced, as the session keeps it: a column each (migration
/// 710; they were one JSON `details` column, parsed and written whole on every read and save), the amounts as
/// decimal strings.
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

    /// The columns the purchase is kept in, written once when the session is made (with
    /// `destination_currency` and `destination_network`, which the session's listings also read).
    package static let purchaseColumns = [
        "amount_input", "amount_side", "customer_ip_address", "destination_currencies", "destination_networks",
        "metadata", "payment_token", "settlement_speed", "source_currency", "wallet_address",
    ]

    /// The purchase's values, in ``purchaseColumns``' order: lists comma-separated (their items are
    /// currency and network codes), metadata a JSON object.
    package var purchaseValues: [SQLValue] {
        let metadata = purchase.metadata.map { map in
            JSONValue.object(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).serializedString
        }
        return [
            .text(purchase.amount.value.description), .text(purchase.amount.side),
            purchase.customerIPAddress.map(SQLValue.text) ?? .null,
            .text(purchase.destinationCurrencies.joined(separator: ",")),
            .text(purchase.destinationNetworks.joined(separator: ",")), metadata.map(SQLValue.text) ?? .null,
            .text(purchase.paymentToken), .text(purchase.settlementSpeed.rawValue), .text(purchase.sourceCurrency),
            .text(purchase.walletAddress),
        ]
    }

    /// The columns the quote and the latest 3-D Secure page are kept in, written on every save.
    package static let quoteColumns = [
        "destination_amount", "network_fee_amount", "source_amount", "source_total_amount", "transaction_fee_amount",
        "next_action_url",
    ]

    /// The quote's values, in ``quoteColumns``' order.
    package var quoteValues: [SQLValue] {
        [
            .text(quoted.destinationAmount), .text(quoted.networkFeeAmount), .text(quoted.sourceAmount),
            .text(quoted.sourceTotalAmount), .text(quoted.transactionFeeAmount),
            nextActionURL.map(SQLValue.text) ?? .null,
        ]
    }

    /// Reads the details of a stored session.
    ///
    /// - Throws: ``StoreError`` (`typeMismatch`) when a column is missing or holds what this server does not
    ///   write.
    package init(row: Row) throws {
        func list(_ column: String) throws -> [String] {
            // Split on the bytes: splitting the String walks grapheme clusters, several times the cost here.
            try row.string(column).utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) }
        }
        let input = try DecimalAmount(parsing: try row.string("amount_input"))
        guard let speed = CryptoOnrampSession.SettlementSpeed(rawValue: try row.string("settlement_speed")) else {
            throw StoreError(.typeMismatch, "an onramp session's settlement_speed is unknown")
        }
        let metadata = try row.optionalString("metadata").map { text in
            guard let map = OrderedStringMap(json: try JSONParser().parse(Array(text.utf8))) else {
                throw StoreError(.typeMismatch, "an onramp session's metadata is not an object of strings")
            }
            return map.dictionary
        }
        purchase = OnrampSessionPurchase(
            sourceCurrency: try row.string("source_currency"),
            destinationCurrency: try row.string("destination_currency"),
            destinationNetwork: try row.string("destination_network"),
            destinationCurrencies: try list("destination_currencies"),
            destinationNetworks: try list("destination_networks"), walletAddress: try row.string("wallet_address"),
            paymentToken: try row.string("payment_token"), settlementSpeed: speed,
            customerIPAddress: row.optionalString("customer_ip_address"), metadata: metadata,
            amount: try row.string("amount_side") == "destination" ? .destination(input) : .source(input))
        quoted = QuotedAmounts(
            sourceAmount: try row.string("source_amount"), sourceTotalAmount: try row.string("source_total_amount"),
            destinationAmount: try row.string("destination_amount"),
            networkFeeAmount: try row.string("network_fee_amount"),
            transactionFeeAmount: try row.string("transaction_fee_amount"))
        nextActionURL = row.optionalString("next_action_url")
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
