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
        // Test mode caps every tier at 100.
        let cap = caller.livemode ? nil : DecimalAmount(exactly: 100)
        let text = { (limit: DecimalAmount) in (cap.map { min($0, limit) } ?? limit).string(places: 2) }
        return CryptoOnrampTransactionLimits(
            livemode: caller.livemode, currency: "usd",
            perTransaction: .init(l0: text(limits.l0), l1: text(limits.l1), l2: text(limits.l2))
        ).json
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
        var byNetwork: OrderedMap<[CryptoOnrampQuotes.Quote]> = [:]
        for network in networks {
            byNetwork[network] = currencies.compactMap { currency in
                guard
                    let quote = try? sessions.quote(
                        sourceCurrency: sourceCurrency, destinationCurrency: currency, network: network, method: .card,
                        amount: amount)
                else { return nil }
                return CryptoOnrampQuotes.Quote(
                    id: context.ids.id(prefix: IdPrefix.onrampQuote), destinationCurrency: currency,
                    destinationNetwork: network,
                    destinationAmount: quote.destinationAmount.amount.string(places: quote.asset.decimals),
                    sourceTotalAmount: quote.sourceTotalAmount.amount.string(places: 2),
                    fees: .init(
                        networkFeeMonetary: quote.networkFeeAmount.amount.string(places: 2),
                        transactionFeeMonetary: quote.transactionFeeAmount.amount.string(places: 2)),
                    expiresAt: Int64(quote.expiresAt.timeIntervalSince1970))
            }
        }
        return CryptoOnrampQuotes(
            id: context.ids.id(prefix: IdPrefix.onrampQuotes), livemode: caller.livemode,
            rateFetchedAt: context.nowMilliseconds / 1000, sourceCurrency: sourceCurrency,
            sourceAmount: request.queryValue("source_amount"), destinationNetworkQuotes: byNetwork
        ).json
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
