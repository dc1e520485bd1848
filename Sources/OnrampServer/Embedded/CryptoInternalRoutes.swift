import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

/// The client SDK's crypto routes (publishable key + a verified consumer session): customers, KYC
/// data, identity verification, wallets, payment tokens and the session for the client secret.
struct CryptoInternalRoutes: Sendable {
    let routes: StripeRoutes
    let service: CryptoCustomerService
    var context: ServerContext { routes.context }

    init(routes: StripeRoutes) {
        self.routes = routes
        service = CryptoCustomerService(context: routes.context)
    }

    func createCryptoCustomer(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        ["id": .string(try customer(request, caller: caller, body: body).id), "object": "crypto.customer"]
    }

    func collectKycData(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let kyc = try KYCCollection(RequestFields.stripe(body))
        let collected = try service.collect(kyc, for: customer, caller: caller)
        return CryptoKYCCollection(
            customer: collected.wire, personId: customer.personId, firstName: kyc.firstName, lastName: kyc.lastName,
            nationalities: collected.nationalities, residenceCountry: kyc.address["country"] ?? customer.country
        ).json
    }

    /// The customer's KYC data: the current SDK POSTs the credentials, older versions GET them in the query.
    /// Both SDKs require a name and a date of birth in the answer (stripe-ios `RetrieveKYCInfoResponse.swift`,
    /// stripe-android `KycRetrieveResponse.kt` at dd412601), so without them the call is refused in Stripe's
    /// shape rather than answered with nulls neither can decode.
    func retrieveKycData(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        guard customer.firstName != nil, customer.lastName != nil, customer.dob != nil else {
            throw StripeErrors.invalid(
                "kyc_data_missing", "Collect the customer's KYC data (name and date of birth) before retrieving it.")
        }
        return customer.kycData.json
    }

    func retrievePlatformSettings(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws -> JSONValue {
        try platformSettings(request, caller: caller)
    }

    func refreshConsumerPerson(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let address = try KYCCollection.address(RequestFields.stripe(body), required: false)
        return try service.refreshPerson(customer, address: address, caller: caller).kycData.json
    }

    func startIdentityVerification(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws
        -> JSONValue
    {
        let customer = try customer(request, caller: caller, body: body)
        return try IdentityVerificationPage(context: context).start(customer: customer, livemode: caller.livemode)
    }

    func registerConsumerWallet(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        return try service.register(WalletReference(RequestFields.stripe(body)), for: customer, caller: caller).json
    }

    func createCryptoPaymentToken(_ request: HTTPRequest, _ caller: StripeCaller, _ body: JSONValue) throws -> JSONValue
    {
        let creation = try PaymentTokenCreation(RequestFields.stripe(body))
        let customer = try paymentTokenCustomer(creation, request, caller: caller, body: body)
        let token = try service.createPaymentToken(creation, for: customer, caller: caller)
        return token.json
    }

    func retrieveOnrampSessionByClientSecret(_ request: HTTPRequest, _ caller: StripeCaller, _ _: JSONValue) throws
        -> JSONValue
    {
        guard
            let session = try service.onrampSession(
                id: request.queryValue("crypto_onramp_session") ?? "",
                clientSecret: request.queryValue("client_secret") ?? "", caller: caller)
        else { throw StripeErrors.missing("crypto_onramp_session", param: "crypto_onramp_session") }
        // `OnrampSessionResponse` (stripe-ios `CryptoOnramp/…/OnrampSessionResponse.swift`) requires the
        // PaymentIntent's client secret; `performCheckout` takes the intent's id from it.
        return session.json.setting([
            "payment_intent_client_secret": .string(PaymentIntentObject.clientSecret(of: session))
        ])
    }

    /// The verified consumer session's crypto customer (created on first use).
    func customer(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> CryptoCustomer {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        return try service.customer(of: session, caller: caller)
    }

    /// `GET platform_settings`: the publishable key payment methods are collected under (the SDK refuses a
    /// payment method collected under another). The 2026 SDK also calls it before sign-in, without a customer.
    private func platformSettings(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        if let hint = request.queryValue("country_hint"),
            hint.count != 2 || !hint.allSatisfy({ $0.isASCII && $0.isLetter })
        {
            throw StripeErrors.invalid(
                "parameter_invalid", "country_hint is an ISO 3166-1 alpha-2 code.", param: "country_hint")
        }
        let key = try service.platformPublishableKey(
            customerId: request.queryValue("crypto_customer_id"), caller: caller)
        return ["object": "crypto.platform_settings", "publishable_key": .string(key)]
    }

    /// The customer a payment token is for: the one `crypto_customer_id` names, which consumer credentials,
    /// when sent, must be the session of.
    private func paymentTokenCustomer(
        _ creation: PaymentTokenCreation, _ request: HTTPRequest, caller: StripeCaller, body: JSONValue
    ) throws -> CryptoCustomer {
        if body["credentials"] != nil {
            let customer = try self.customer(request, caller: caller, body: body)
            guard creation.customerId == customer.id else {
                throw StripeErrors.missing("crypto customer", param: "crypto_customer_id")
            }
            return customer
        }
        guard let customer = try service.customer(id: creation.customerId, caller: caller) else {
            throw StripeErrors.missing("crypto customer", param: "crypto_customer_id")
        }
        return customer
    }
}
