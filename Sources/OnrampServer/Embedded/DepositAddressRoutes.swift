import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// `/v1/crypto/deposit_addresses`: create, retrieve and list, with the secret key, as the private-preview
/// bindings call them (stripe-python `_deposit_address_service.py` at 949bda51: create takes `network`,
/// `customer`, `metadata`; list filters by `address`, `customer`, `network`, pages with `limit`,
/// `starting_after` and `ending_before`).
struct DepositAddressRoutes: Sendable {
    let routes: StripeRoutes
    let service: DepositAddressService

    init(routes: StripeRoutes) {
        self.routes = routes
        service = DepositAddressService(context: routes.context)
    }

    func createDepositAddress(_ _: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let fields = RequestFields.stripe(body)
        let network = try fields.required("network", maxLength: 16)
        let customer = try fields.optional("customer", maxLength: 255)
        let metadata = try fields.optionalStringMap("metadata") ?? [:]
        return try service.create(network: network, customer: customer, metadata: metadata, caller: caller).json
    }

    func retrieveDepositAddress(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        try service.address(id: request.pathParameters["id"] ?? "", caller: caller).json
    }

    /// `POST /v1/test_helpers/crypto/deposit_addresses/{id}/deposit`: stands in for an on-chain transfer to the
    /// address (test mode); answers the PaymentIntent the deposit captured.
    func simulateDeposit(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let fields = RequestFields.stripe(body)
        let amount = try fields.required("amount", maxLength: 32)
        let token = try fields.optional("token_currency", maxLength: 16) ?? "usdc"
        let hash = try fields.optional("transaction_hash", maxLength: 128)
        let received = try service.deposit(
            addressId: request.pathParameters["id"] ?? "", amount: amount, tokenCurrency: token, transactionHash: hash,
            caller: caller)
        return service.paymentIntentJSON(received.deposit, address: received.address)
    }

    func listDepositAddresses(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        let limit = try StripeListLimit.read(request.queryValue("limit"))
        let (after, before) = (request.queryValue("starting_after"), request.queryValue("ending_before"))
        guard after == nil || before == nil else {
            throw StripeErrors.invalid(
                "parameter_invalid", "Send starting_after or ending_before, not both.", param: "ending_before")
        }
        let filter = DepositAddressRepository.Filter(
            address: request.queryValue("address"), customer: request.queryValue("customer"),
            network: request.queryValue("network"))
        guard
            let addresses = try service.list(
                filter: filter, startingAfter: after, endingBefore: before, limit: limit, caller: caller)
        else {
            throw StripeErrors.missing(
                "crypto.deposit_address: \(after ?? before ?? "")",
                param: after == nil ? "ending_before" : "starting_after")
        }
        // Reading toward newer addresses, the extra one fetched is the newest: it only sets `has_more`.
        let page =
            before == nil
            ? addresses : Array(addresses.suffix(limit)) + addresses.prefix(max(0, addresses.count - limit))
        return StripeList(url: "/v1/crypto/deposit_addresses", limit: limit, fetched: page).json
    }
}
