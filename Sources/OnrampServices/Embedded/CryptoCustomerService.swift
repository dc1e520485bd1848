import Foundation
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// What the client SDK changes on its own crypto customer: the customer itself (one per Link consumer,
/// made on first use), its KYC data, its wallets and payment tokens, and the settings and session it reads.
package struct CryptoCustomerService: Sendable, UsesServiceEnvironment {
    /// The most wallets, and payment tokens, one customer may have.
    package static let maximumPerCustomer = 500

    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    /// The key id numbers are hashed under.
    package let dataKey: [UInt8]
    /// How long after KYC data arrives the sandbox decides the phone and KYC checks.
    package let verificationDelayMilliseconds: Int64

    /// The service on the parts of `context` it uses.
    package init(context: ServerContext) {
        environment = context.environment
        catalogue = context.catalogue
        dataKey = context.dataKey
        verificationDelayMilliseconds = Int64(context.verificationDelay * 1000)
    }

    private var now: Int64 { Timestamp.milliseconds(clock.now()) }

    /// The crypto customer of `session`'s consumer, created on first use.
    package func customer(of session: ConsumerSession, caller: StripeCaller) throws -> CryptoCustomer {
        try database.transaction { connection in
            _ = try CryptoCustomerRepository.getOrCreate(
                connection, ids: ids, now: now, projectId: caller.projectId, consumerId: session.consumerId,
                livemode: caller.livemode)
            guard let customer = try CryptoCustomerRepository.find(connection, consumerId: session.consumerId) else {
                throw OnrampError.refusal("missing_crypto_customer_id", "The consumer has no crypto customer.")
            }
            return customer
        }
    }

    /// The caller's customer `id` in the caller's mode, if there is one.
    package func customer(id: String, caller: StripeCaller) throws -> CryptoCustomer? {
        try database.read { try CryptoCustomerRepository.find($0, id: id, projectId: caller.projectId) }.flatMap {
            $0.livemode == caller.livemode ? $0 : nil
        }
    }

    /// Up to `limit` of the customer's wallets, newest first, after `startingAfter` when given; `nil` when
    /// that one is not the customer's.
    package func wallets(of customerId: String, startingAfter: String?, limit: Int) throws -> [CryptoConsumerWallet]? {
        try database.read {
            try CryptoCustomerRepository.wallets(of: customerId, startingAfter: startingAfter, limit: limit, on: $0)
        }
    }

    /// Up to `limit` of the customer's payment tokens, paged as ``wallets(of:startingAfter:limit:)``.
    package func paymentTokens(of customerId: String, startingAfter: String?, limit: Int) throws
        -> [CryptoPaymentToken]?
    {
        try database.read {
            try CryptoCustomerRepository.paymentTokens(
                of: customerId, startingAfter: startingAfter, limit: limit, on: $0)
        }
    }

    /// Attaches `kyc` to `customer`: the phone and KYC checks finish ``verificationDelayMilliseconds`` later
    /// (asynchronous: the SDK polls). Only the id number's last 4 digits are kept, beside its keyed hash.
    package func collect(_ kyc: KYCCollection, for customer: CryptoCustomer, caller: StripeCaller) throws
        -> CryptoCustomer
    {
        let submission = CryptoCustomerRepository.KYCSubmission(
            firstName: kyc.firstName, lastName: kyc.lastName,
            idNumberHash: kyc.idNumber.map {
                Hex.encode(HMACSHA256.authenticationCode(key: dataKey, message: Array("\(customer.id):\($0)".utf8)))
            }, idNumberLast4: kyc.idNumber.map { String($0.suffix(4)) }, idType: kyc.idType, dob: kyc.dob,
            address: kyc.address, country: kyc.address["country"] ?? customer.country,
            nationalities: kyc.nationalities.isEmpty ? nil : kyc.nationalities, birthCountry: kyc.birthCountry,
            birthCity: kyc.birthCity, verificationDueAt: now + verificationDelayMilliseconds)
        return try database.transaction { connection in
            try CryptoCustomerRepository.attach(submission, to: customer.id, on: connection)
            return try reload(customer.id, caller: caller, connection)
        }
    }

    /// `refresh_consumer_person`: confirms the KYC data on file, changing the address fields sent.
    package func refreshPerson(_ customer: CryptoCustomer, address: [String: String], caller: StripeCaller) throws
        -> CryptoCustomer
    {
        guard customer.address["line1"] != nil else {
            throw OnrampError.refusal("kyc_data_missing", "Collect KYC data before confirming it.")
        }
        return try database.transaction { connection in
            if !address.isEmpty {
                try CryptoCustomerRepository.update(address: address, of: customer.id, on: connection)
            }
            return try reload(customer.id, caller: caller, connection)
        }
    }

    /// The publishable key payment methods are collected under, after checking that `customerId`, when
    /// given, is the project's customer.
    package func platformPublishableKey(customerId: String?, caller: StripeCaller) throws -> String {
        try database.read { connection in
            if let customerId,
                try CryptoCustomerRepository.find(connection, id: customerId, projectId: caller.projectId) == nil
            {
                throw OnrampError.missing("crypto customer", parameter: "crypto_customer_id")
            }
            guard let key = try caller.clientPublishableKey(connection) else {
                throw OnrampError.missing("publishable key for this project and mode")
            }
            return key
        }
    }

    /// Registers `wallet` for `customer`, or answers the one registered before (also when a racing
    /// registration of the same wallet won).
    package func register(_ wallet: WalletReference, for customer: CryptoCustomer, caller: StripeCaller) throws
        -> CryptoConsumerWallet
    {
        do {
            try catalogue.validateAddress(wallet.address, network: wallet.network, parameter: "wallet_address")
        } catch let error as OnrampError {
            let code = error.code == .unknownNetwork ? "crypto_network_unsupported" : "crypto_invalid_wallet_address"
            // The SDK's parameter is `network`, whatever the catalogue calls it.
            let param = error.code == .unknownNetwork ? "network" : (error.parameter ?? "network")
            throw OnrampError.refusal(code, error.developerMessage, parameter: param)
        }
        let id = ids.id(prefix: IdPrefix.wallet)
        let stored = try database.transaction { connection -> (id: String, verifiedOwnership: Bool) in
            let wallets = CryptoWalletRepository(connection: connection, customerId: customer.id)
            if let known = try wallets.find(network: wallet.network, address: wallet.address) { return known }
            try requireRoom(connection, for: .wallets, customerId: customer.id, what: "wallets")
            try wallets.insert(
                id: id, projectId: caller.projectId, network: wallet.network, address: wallet.address,
                livemode: caller.livemode, now: now)
            return (try wallets.find(network: wallet.network, address: wallet.address)?.id ?? id, false)
        }
        return CryptoConsumerWallet(
            id: stored.id, livemode: caller.livemode, network: wallet.network,
            verifiedOwnership: stored.verifiedOwnership, walletAddress: wallet.address)
    }

    /// A payment token of `customer` for the creation's payment method (a stored one of the project, or
    /// one of Stripe's well-known test ids).
    package func createPaymentToken(
        _ creation: PaymentTokenCreation, for customer: CryptoCustomer, caller: StripeCaller
    )
        throws -> CryptoPaymentToken
    {
        let id = ids.id(prefix: IdPrefix.paymentToken)
        let now = now
        let method = try database.transaction { connection -> TestPaymentMethod in
            guard
                let method = try TestPaymentMethod.wellKnown(creation.paymentMethodId)
                    ?? PaymentMethodRepository(connection: connection).method(
                        id: creation.paymentMethodId, projectId: caller.projectId)
            else { throw OnrampError.missing("payment_method", parameter: "payment_method") }
            try requireRoom(connection, for: .paymentTokens, customerId: customer.id, what: "payment tokens")
            try PaymentMethodRepository(connection: connection).insertToken(
                id: id, projectId: caller.projectId, customerId: customer.id,
                paymentMethodId: creation.paymentMethodId, method, now: now)
            return method
        }
        return method.token(id: id)
    }

    /// The caller's onramp session `id` when `clientSecret` is its client secret (compared in constant time).
    package func onrampSession(id: String, clientSecret: String, caller: StripeCaller) throws -> OnrampSessionRecord? {
        try database.read {
            try OnrampSessionRecord.find($0, id: id, projectId: caller.projectId, livemode: caller.livemode)
        }.flatMap { ConstantTime.equals(Array($0.clientSecret.utf8), Array(clientSecret.utf8)) ? $0 : nil }
    }

    /// Refuses one more of the customer's `items` past ``maximumPerCustomer``. On PostgreSQL the customer
    /// row is locked first, so concurrent inserts count one after another.
    private func requireRoom(
        _ connection: any SQLConnection, for items: CryptoCustomerRepository.Items, customerId: String, what: String
    ) throws {
        try connection.lockParent(table: "crypto_customers", id: customerId)
        guard try CryptoCustomerRepository.count(of: items, of: customerId, on: connection) < Self.maximumPerCustomer
        else {
            throw OnrampError.refusal(
                "resource_limit_exceeded", "A customer may have at most \(Self.maximumPerCustomer) \(what).")
        }
    }

    private func reload(_ id: String, caller: StripeCaller, _ connection: any SQLConnection) throws -> CryptoCustomer {
        guard let customer = try CryptoCustomerRepository.find(connection, id: id, projectId: caller.projectId) else {
            throw OnrampError.missing("crypto customer")
        }
        return customer
    }
}
