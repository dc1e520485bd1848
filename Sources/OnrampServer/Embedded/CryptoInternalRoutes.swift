import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The client SDK's crypto routes (publishable key + a verified consumer session): customers, KYC
/// data, identity verification, wallets, payment tokens and the session for the client secret.
struct CryptoInternalRoutes: Sendable {
    let routes: StripeRoutes
    var context: ServerContext { routes.context }

    func register(on router: inout Router) {
        routes.client(&router, "POST", "/v1/crypto/internal/customers", Operations.createCryptoCustomer) {
            request, caller, body in
            let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
            let id = try context.database.transaction { connection in
                try CryptoCustomer.getOrCreate(
                    connection, ids: context.ids, now: context.nowMilliseconds, projectId: caller.projectId,
                    consumerId: session.consumerId,
                    livemode: caller.livemode)
            }
            return ["id": .string(id), "object": "crypto.customer"]
        }
        routes.client(&router, "POST", "/v1/crypto/internal/kyc_data_collection", Operations.collectKycData) {
            request, caller, body in
            try collectKYC(request, caller: caller, body: body)
        }
        // The current SDK POSTs the credentials; older versions GET them in the query.
        for (method, operation) in [("POST", Operations.retrieveKycData), ("GET", Operations.retrieveKycDataByQuery)] {
            routes.client(&router, method, "/v1/crypto/internal/kyc_data_retrieve", operation) {
                request, caller, body in
                try customer(request, caller: caller, body: body).kycJSON
            }
        }
        routes.client(&router, "GET", "/v1/crypto/internal/platform_settings", Operations.retrievePlatformSettings) {
            request, caller, _ in
            try platformSettings(request, caller: caller)
        }
        routes.client(
            &router, "POST", "/v1/crypto/internal/refresh_consumer_person", Operations.refreshConsumerPerson
        ) { request, caller, body in
            try refreshPerson(request, caller: caller, body: body)
        }
        routes.client(
            &router, "POST", "/v1/crypto/internal/start_identity_verification", Operations.startIdentityVerification
        ) { request, caller, body in
            let customer = try customer(request, caller: caller, body: body)
            return try IdentityVerificationPage(context: context).start(customer: customer, livemode: caller.livemode)
        }
        routes.client(&router, "POST", "/v1/crypto/internal/wallet", Operations.registerConsumerWallet) {
            request, caller, body in
            try registerWallet(request, caller: caller, body: body)
        }
        routes.client(&router, "POST", "/v1/crypto/internal/payment_token", Operations.createCryptoPaymentToken) {
            request, caller, body in
            try createPaymentToken(request, caller: caller, body: body)
        }
        routes.client(
            &router, "GET", "/v1/crypto/internal/onramp_session", Operations.retrieveOnrampSessionByClientSecret
        ) { request, caller, _ in
            let id = request.queryValue("crypto_onramp_session") ?? ""
            let secret = request.queryValue("client_secret") ?? ""
            guard
                let session = try context.database.read({
                    try OnrampSessionRecord.find($0, id: id, projectId: caller.projectId, livemode: caller.livemode)
                }), ConstantTime.equals(Array(session.clientSecret.utf8), Array(secret.utf8))
            else { throw StripeErrors.missing("crypto_onramp_session", param: "crypto_onramp_session") }
            // `OnrampSessionResponse` (stripe-ios `CryptoOnramp/…/OnrampSessionResponse.swift`) requires the
            // PaymentIntent's client secret; `performCheckout` takes the intent's id from it.
            return session.json.setting([
                "payment_intent_client_secret": .string(PaymentIntentObject.clientSecret(of: session))
            ])
        }
    }

    /// The verified consumer session's crypto customer (created on first use).
    func customer(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> CryptoCustomer {
        let session = try ConsumerSession.require(request, body: body, caller: caller, context: context)
        return try context.database.transaction { connection in
            _ = try CryptoCustomer.getOrCreate(
                connection, ids: context.ids, now: context.nowMilliseconds, projectId: caller.projectId,
                consumerId: session.consumerId,
                livemode: caller.livemode)
            guard let customer = try CryptoCustomer.find(connection, consumerId: session.consumerId) else {
                throw StripeErrors.invalid("missing_crypto_customer_id", "The consumer has no crypto customer.")
            }
            return customer
        }
    }

    func collectKYC(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let fields = StripeErrors.fields(body)
        let firstName = try fields.required("first_name", maxLength: 100)
        let lastName = try fields.required("last_name", maxLength: 100)
        let idNumber = try fields.optional("id_number", maxLength: 32)?.filter { $0 != "-" && $0 != " " }
        if let idNumber, !(4...20).contains(idNumber.count) || !idNumber.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw fields.invalid("id_number", "id_number must be 4 to 20 digits.")
        }
        let idType = try fields.optional("id_type", maxLength: 32) ?? (idNumber == nil ? nil : "social_security_number")
        let address = try addressFields(fields, required: true)
        var dob: String?
        if let dobFields = try fields.object("dob") {
            let day = Int(try dobFields.required("day", maxLength: 2)) ?? 0
            let month = Int(try dobFields.required("month", maxLength: 2)) ?? 0
            let year = Int(try dobFields.required("year", maxLength: 4)) ?? 0
            guard (1...12).contains(month), (1900...2100).contains(year),
                (1...Self.days(inMonth: month, of: year)).contains(day)
            else { throw fields.invalid("dob", "dob must be a valid date.") }
            dob = String(format: "%04d-%02d-%02d", year, month, day)
        }
        // Phone and KYC checks finish `verificationDelay` after KYC data arrives (asynchronous: poll).
        let due = context.nowMilliseconds + Int64(context.verificationDelay * 1000)
        // Only the last 4 digits are ever returned; the number itself is kept as a keyed hash.
        let kyc = CryptoCustomer.KYCSubmission(
            firstName: firstName, lastName: lastName,
            idNumberHash: idNumber.map {
                Hex.encode(
                    HMACSHA256.authenticationCode(key: context.dataKey, message: Array("\(customer.id):\($0)".utf8)))
            }, idNumberLast4: idNumber.map { String($0.suffix(4)) }, idType: idType, dob: dob, address: address,
            country: address["country"] ?? customer.country, verificationDueAt: due)
        try context.database.transaction { connection in try CryptoCustomer.attach(kyc, to: customer.id, on: connection)
        }
        // `KYCDataCollectionResponse` (stripe-ios) requires `person_id` beside the customer's fields.
        return try reload(customer.id, caller: caller).json.setting([
            "person_id": .string(customer.personId), "first_name": .string(firstName), "last_name": .string(lastName),
            "residence_country": .string(address["country"] ?? customer.country),
        ])
    }

    /// `GET platform_settings`: the publishable key payment methods are collected under (the SDK refuses a
    /// payment method collected under another). The 2026 SDK also calls it before sign-in, without a customer.
    func platformSettings(_ request: HTTPRequest, caller: StripeCaller) throws -> JSONValue {
        if let hint = request.queryValue("country_hint"),
            hint.count != 2 || !hint.allSatisfy({ $0.isASCII && $0.isLetter })
        {
            throw StripeErrors.invalid(
                "parameter_invalid", "country_hint is an ISO 3166-1 alpha-2 code.", param: "country_hint")
        }
        return try context.database.read { connection in
            if let customerId = request.queryValue("crypto_customer_id"),
                try CryptoCustomer.find(connection, id: customerId, projectId: caller.projectId) == nil
            {
                throw StripeErrors.missing("crypto customer", param: "crypto_customer_id")
            }
            guard let key = try caller.clientPublishableKey(connection) else {
                throw StripeErrors.missing("publishable key for this project and mode")
            }
            return ["object": "crypto.platform_settings", "publishable_key": .string(key)]
        }
    }

    func refreshPerson(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let address = try addressFields(StripeErrors.fields(body), required: false)
        guard customer.address["line1"] != nil else {
            throw StripeErrors.invalid("kyc_data_missing", "Collect KYC data before confirming it.")
        }
        if !address.isEmpty {
            try context.database.transaction { connection in
                try CryptoCustomer.update(address: address, of: customer.id, on: connection)
            }
        }
        return try reload(customer.id, caller: caller).kycJSON
    }

    func registerWallet(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let customer = try customer(request, caller: caller, body: body)
        let fields = StripeErrors.fields(body)
        let address = try fields.required("wallet_address", maxLength: 128)
        let network = try fields.required("network", maxLength: 32).lowercased()
        do {
            try context.catalogue.validateAddress(address, network: network, parameter: "wallet_address")
        } catch let error as OnrampError {
            let code = error.code == .unknownNetwork ? "crypto_network_unsupported" : "crypto_invalid_wallet_address"
            // The SDK's parameter is `network`, whatever the catalogue calls it.
            let param = error.code == .unknownNetwork ? "network" : (error.parameter ?? "network")
            throw StripeErrors.invalid(code, error.developerMessage, param: param)
        }
        let id = context.ids.id(prefix: IdPrefix.wallet)
        let stored = try context.database.transaction { connection -> (id: String, verifiedOwnership: Bool) in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customer.id)
            if let known = try wallets.find(network: network, address: address) { return known }
            try requireRoom(connection, for: .wallets, customerId: customer.id, what: "wallets")
            try wallets.insert(
                id: id, projectId: caller.projectId, network: network, address: address, livemode: caller.livemode,
                now: context.nowMilliseconds)
            // A racing registration of the same wallet may have won: answer with the stored one.
            return (try wallets.find(network: network, address: address)?.id ?? id, false)
        }
        return Self.walletJSON(
            id: stored.id, network: network, address: address, livemode: caller.livemode,
            verifiedOwnership: stored.verifiedOwnership)
    }

    /// The days of `month` (1–12) in the Gregorian `year`.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The most wallets, and payment tokens, one customer may have.
    static let maximumPerCustomer = 500

    /// Refuses one more of the customer's `items` past ``maximumPerCustomer``. On PostgreSQL the customer
    /// row is locked first, so concurrent inserts count one after another.
    private func requireRoom(
        _ connection: any SQLConnection, for items: CryptoCustomer.Items, customerId: String, what: String
    )
        throws
    {
        try connection.lockParent(table: "crypto_customers", id: customerId, dialect: context.database.dialect)
        guard try CryptoCustomer.count(of: items, of: customerId, on: connection) < Self.maximumPerCustomer else {
            throw StripeErrors.invalid(
                "resource_limit_exceeded", "A customer may have at most \(Self.maximumPerCustomer) \(what).")
        }
    }

    /// A payment token for `payment_method`. The SDK sends only `payment_method` and `crypto_customer_id`
    /// (stripe-ios `CreatePaymentTokenRequest.swift`); consumer credentials, when sent, must name that customer.
    func createPaymentToken(_ request: HTTPRequest, caller: StripeCaller, body: JSONValue) throws -> JSONValue {
        let fields = StripeErrors.fields(body)
        guard let customerId = try fields.optional("crypto_customer_id", maxLength: 64) else {
            throw StripeErrors.invalid(
                "missing_crypto_customer_id", "Send crypto_customer_id.", param: "crypto_customer_id")
        }
        if let mode = try fields.optional("ui_mode", maxLength: 16), mode != "headless" {
            throw fields.invalid("ui_mode", "ui_mode is headless.")
        }
        let customer: CryptoCustomer
        if body["credentials"] != nil {
            customer = try self.customer(request, caller: caller, body: body)
            guard customerId == customer.id else {
                throw StripeErrors.missing("crypto customer", param: "crypto_customer_id")
            }
        } else {
            guard
                let found = try context.database.read({
                    try CryptoCustomer.find($0, id: customerId, projectId: caller.projectId)
                }), found.livemode == caller.livemode
            else { throw StripeErrors.missing("crypto customer", param: "crypto_customer_id") }
            customer = found
        }
        let methodId = try fields.required("payment_method", maxLength: 64)
        guard
            let method = try TestPaymentMethod.wellKnown(methodId)
                ?? context.database.read({ try TestPaymentMethod.find($0, id: methodId, projectId: caller.projectId) })
        else { throw StripeErrors.missing("payment_method", param: "payment_method") }
        let id = context.ids.id(prefix: IdPrefix.paymentToken)
        try context.database.transaction { connection in
            try requireRoom(connection, for: .paymentTokens, customerId: customer.id, what: "payment tokens")
            try PaymentMethodStore(connection: connection).insertToken(
                id: id, projectId: caller.projectId, customerId: customer.id, paymentMethodId: methodId, method,
                now: context.nowMilliseconds)
        }
        return method.tokenJSON(id: id)
    }

    private func reload(_ id: String, caller: StripeCaller) throws -> CryptoCustomer {
        guard
            let customer = try context.database.read({
                try CryptoCustomer.find($0, id: id, projectId: caller.projectId)
            })
        else { throw StripeErrors.missing("crypto customer") }
        return customer
    }

    /// Address fields flat (`line1`) or nested (`address[line1]`).
    private func addressFields(_ fields: RequestFields, required: Bool) throws -> [String: String] {
        let source = try fields.object("address") ?? fields
        var address: [String: String] = [:]
        for field in CryptoCustomer.addressFields {
            if let value = try source.optional(field, maxLength: 200), !value.isEmpty { address[field] = value }
        }
        if let country = address["country"] { address["country"] = country.uppercased() }
        if let state = address["state"] { address["state"] = state.uppercased() }
        if required, address["line1"] == nil { throw fields.invalid("line1", "Missing required field line1.") }
        return address
    }

    /// The `crypto.consumer_wallet` object.
    static func walletJSON(id: String, network: String, address: String, livemode: Bool, verifiedOwnership: Bool)
        -> JSONValue
    {
        [
            "id": .string(id), "object": "crypto.consumer_wallet", "livemode": .bool(livemode),
            "network": .string(network), "verified_ownership": .bool(verifiedOwnership),
            "wallet_address": .string(address),
        ]
    }
}
