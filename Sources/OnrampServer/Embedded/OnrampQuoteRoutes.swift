import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// `GET /v1/crypto/onramp/quotes` (a quote per destination network and currency) and
/// `GET /v1/crypto/onramp_transaction_limits` (the per-transaction limit of each KYC tier).
struct OnrampQuoteRoutes: Sendable {
    let routes: StripeRoutes
    let sessions: OnrampSessionService
    var context: ServerContext { routes.context }

    func listOnrampQuotes(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        try quotes(request, caller: caller)
    }

    func retrieveOnrampTransactionLimits(_ _: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let limits = KYCPolicy().limits
        var tiers: [(String, JSONValue)] = [
            ("l0", .string(limits.l0.string(places: 2))), ("l1", .string(limits.l1.string(places: 2))),
            ("l2", .string(limits.l2.string(places: 2))),
        ]
        if !caller.livemode {
            tiers = tiers.map {
                ($0.0, .string(min(DecimalAmount(exactly: 100), Self.amount($0.1)).string(places: 2)))
            }
        }
        return [
            "object": "crypto.onramp_transaction_limits", "livemode": .bool(caller.livemode), "currency": "usd",
            "per_transaction": .object(tiers),
        ]
    }

    private static func amount(_ value: JSONValue) -> DecimalAmount {
        (try? DecimalAmount(parsing: value.stringValue ?? "")) ?? .zero
    }

    func quotes(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        let sourceCurrency = (request.queryValue("source_currency") ?? "usd").lowercased()
        let amount = try EmbeddedAmount.parse(
            sourceAmount: request.queryValue("source_amount"),
            destinationAmount: request.queryValue("destination_amount"))
        let currencies = try Self.list(request, "destination_currencies") ?? ["usdc"]
        let networks =
            try Self.list(request, "destination_networks")
            ?? (caller.livemode ? ["ethereum", "base", "solana", "polygon"] : ["ethereum", "base", "solana"])
        var byNetwork: [(String, JSONValue)] = []
        for network in networks {
            var entries: [JSONValue] = []
            for currency in currencies {
                guard
                    let quote = try? sessions.quote(
                        sourceCurrency: sourceCurrency, destinationCurrency: currency, network: network, method: .card,
                        amount: amount)
                else { continue }
                entries.append([
                    "id": .string(context.ids.id(prefix: IdPrefix.onrampQuote)),
                    "destination_currency": .string(currency),
                    "destination_network": .string(network),
                    "destination_amount": .string(quote.destinationAmount.amount.string(places: quote.asset.decimals)),
                    "source_total_amount": .string(quote.sourceTotalAmount.amount.string(places: 2)),
                    "fees": [
                        "network_fee_monetary": .string(quote.networkFeeAmount.amount.string(places: 2)),
                        "transaction_fee_monetary": .string(quote.transactionFeeAmount.amount.string(places: 2)),
                    ],
                    "expires_at": .integer(Int64(quote.expiresAt.timeIntervalSince1970)),
                ])
            }
            byNetwork.append((network, .array(entries)))
        }
        return [
            "id": .string(context.ids.id(prefix: IdPrefix.onrampQuotes)), "object": "crypto.onramp_quotes",
            "livemode": .bool(caller.livemode),
            "rate_fetched_at": .integer(context.nowMilliseconds / 1000), "source_currency": .string(sourceCurrency),
            "source_amount": .optional(request.queryValue("source_amount")),
            "destination_network_quotes": .object(byNetwork),
        ]
    }

    /// The most entries a query list may have (each pair of entries is one quote computed).
    static let maximumListEntries = 20

    /// A query list sent as `name[]=a&name[]=b`, `name[0]=a`, or `name=a,b`, without duplicates.
    static func list(_ request: HTTPRequest, _ name: String) throws -> [String]? {
        var values: [String] = []
        for (key, value) in request.query where key == name || key.hasPrefix("\(name)[") {
            for entry in value.split(separator: ",") where !values.contains(entry.lowercased()) {
                values.append(entry.lowercased())
            }
        }
        guard values.count <= maximumListEntries else {
            throw FieldError(
                code: "parameter_invalid",
                message: "\(name) may list at most \(maximumListEntries) values.", param: name,
                type: "invalid_request_error")
        }
        return values.isEmpty ? nil : values
    }
}
