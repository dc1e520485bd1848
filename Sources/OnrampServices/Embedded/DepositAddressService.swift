import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The private-preview `crypto.deposit_addresses` resource: an on-chain address per request where a project's
/// users can send stablecoins, on the networks of the catalogue the bindings name (`base`, `solana`; `tempo`,
/// which the bindings also list, is not in this sandbox's catalogue). Addresses are made from random bytes in
/// each network's form (EIP-55 for Base, Base58 for Solana); no chain watches them here.
package struct DepositAddressService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue

    package init(context: ServerContext) {
        environment = context.environment
        catalogue = context.catalogue
    }

    /// The networks an address can be made on.
    package static let networks = ["base", "solana"]

    /// Makes an address on `network` for the caller's project and mode.
    package func create(network: String, customer: String?, metadata: OrderedStringMap, caller: StripeCaller) throws
        -> CryptoDepositAddress
    {
        guard Self.networks.contains(network) else {
            throw OnrampError.refusal(
                "parameter_invalid", "network must be one of \(Self.networks.joined(separator: ", ")) in this sandbox.",
                parameter: "network")
        }
        let address =
            network == "solana"
            ? Base58.encode(ids.randomBytes(32))
            : AddressValidator.eip55Checksummed(hexDigits: Hex.encode(ids.randomBytes(20)))
        let record = DepositAddressRepository.Record(
            id: ids.id(prefix: "cda"), projectId: caller.projectId, livemode: caller.livemode, network: network,
            address: address, customer: customer, metadata: metadata,
            createdAt: Timestamp.milliseconds(clock.now()))
        try database.transaction { try DepositAddressRepository(connection: $0).insert(record) }
        return wire(record)
    }

    /// The caller's address `id`.
    package func address(id: String, caller: StripeCaller) throws -> CryptoDepositAddress {
        wire(try find(id: id, caller: caller))
    }

    /// The caller's address `id`, as stored.
    private func find(id: String, caller: StripeCaller) throws -> DepositAddressRepository.Record {
        guard
            let record = try database.read({ try DepositAddressRepository(connection: $0).find(id: id) }),
            record.projectId == caller.projectId, record.livemode == caller.livemode
        else { throw OnrampError.missing("crypto.deposit_address: \(id)", parameter: "id") }
        return record
    }

    /// A page of the caller's addresses (one more than `limit` when there are more); `nil` when the anchor is
    /// not one of the caller's.
    package func list(
        filter: DepositAddressRepository.Filter, startingAfter: String?, endingBefore: String?, limit: Int,
        caller: StripeCaller
    ) throws -> [CryptoDepositAddress]? {
        try database.read { connection -> [DepositAddressRepository.Record]? in
            let repository = DepositAddressRepository(connection: connection)
            func anchor(_ id: String?) throws -> (Int64, String)?? {
                guard let id else { return .some(nil) }
                guard let record = try repository.find(id: id), record.projectId == caller.projectId,
                    record.livemode == caller.livemode
                else { return nil }
                return .some((record.createdAt, record.id))
            }
            guard let older = try anchor(startingAfter), let newer = try anchor(endingBefore) else { return nil }
            return try repository.list(
                projectId: caller.projectId, livemode: caller.livemode, filter: filter, olderThan: older,
                newerThan: newer, limit: limit + 1)
        }?.map(wire)
    }

    /// Receives `amount` of `tokenCurrency` at the caller's address `id` (the test helper standing in for an
    /// on-chain transfer): one deposit-mode PaymentIntent captured for the tokens' US dollar value in cents (USDC
    /// counts one dollar per token; fractions of a cent stay with the deposit, not the intent), and its
    /// `payment_intent.succeeded` event, committed together. A transfer's hash is received once per project and
    /// mode; without one, a hash is made up. Answers the deposit with its address.
    package func deposit(
        addressId: String, amount: String, tokenCurrency: String, transactionHash: String?, caller: StripeCaller
    ) throws -> (deposit: CryptoDepositRepository.Record, address: DepositAddressRepository.Record) {
        guard !caller.livemode else {
            throw OnrampError.refusal(
                "livemode_test_helper", "Deposits are simulated for test-mode keys only; use your test key.")
        }
        guard tokenCurrency == "usdc" else {
            throw OnrampError.refusal(
                "parameter_invalid", "token_currency must be usdc, the token deposit addresses receive.",
                parameter: "token_currency")
        }
        let tokens: DecimalAmount
        do {
            tokens = try DecimalAmount(parsing: amount, maximumFractionDigits: 6, parameter: "amount")
        } catch {
            throw OnrampError.refusal(
                "parameter_invalid", "amount must be a decimal string with at most 6 decimals, e.g. 12.50.",
                parameter: "amount")
        }
        let cents = tokens.rounded(toPlaces: 2, mode: .down)
        guard cents.isPositive, let amountCents = Int64((cents * DecimalAmount(exactly: 100)).string(places: 0)),
            amountCents <= 99_999_999
        else {
            throw OnrampError.refusal(
                "parameter_invalid", "amount must be from 0.01 to 999999.99 USDC.", parameter: "amount")
        }
        let address = try find(id: addressId, caller: caller)
        let now = Timestamp.milliseconds(clock.now())
        let hash = transactionHash ?? madeUpTransactionHash(network: address.network)
        let intentId = ids.id(prefix: IdPrefix.paymentIntent)
        let record = CryptoDepositRepository.Record(
            id: intentId, projectId: caller.projectId, livemode: caller.livemode,
            depositAddressId: address.id, tokenCurrency: tokenCurrency, tokenAmount: tokens.description,
            amountCents: amountCents, transactionHash: hash, clientSecret: ids.clientSecret(for: intentId),
            createdAt: now)
        let eventId = ids.timeOrderedID(prefix: IdPrefix.event, milliseconds: now)
        let event = StripeEvent(
            id: eventId, type: "payment_intent.succeeded", created: now / 1000, livemode: caller.livemode,
            object: paymentIntentJSON(record, address: address))
        try database.transaction { connection in
            guard
                try !CryptoDepositRepository(connection: connection).exists(
                    projectId: caller.projectId, livemode: caller.livemode, transactionHash: hash)
            else {
                throw OnrampError.refusal(
                    "parameter_invalid", "A deposit with transaction_hash \(hash) was already received.",
                    parameter: "transaction_hash")
            }
            _ = try connection.run([
                CryptoDepositRepository.inserting(record),
                Outbox.appending(event, projectId: caller.projectId, createdAtMilliseconds: now),
            ])
        }
        return (record, address)
    }

    /// The caller's deposit whose PaymentIntent is `id`, with its address; `nil` when there is none.
    package func deposit(paymentIntent id: String, caller: StripeCaller) throws
        -> (deposit: CryptoDepositRepository.Record, address: DepositAddressRepository.Record)?
    {
        try database.read { connection in
            guard let deposit = try CryptoDepositRepository(connection: connection).find(id: id),
                deposit.projectId == caller.projectId, deposit.livemode == caller.livemode,
                let address = try DepositAddressRepository(connection: connection).find(id: deposit.depositAddressId)
            else { return nil }
            return (deposit, address)
        }
    }

    /// The succeeded deposit-mode PaymentIntent of `deposit` (the fields the deposit-mode guide shows, with the
    /// transfer named in `description`).
    package func paymentIntentJSON(_ deposit: CryptoDepositRepository.Record, address: DepositAddressRepository.Record)
        -> JSONValue
    {
        [
            "id": .string(deposit.id), "object": "payment_intent", "amount": .integer(deposit.amountCents),
            "amount_capturable": 0, "amount_received": .integer(deposit.amountCents), "capture_method": "automatic",
            "client_secret": .string(deposit.clientSecret),
            "created": .integer(deposit.createdAt / 1000), "currency": "usd",
            "customer": address.customer.map(JSONValue.string) ?? .null,
            "description": .string(
                "\(deposit.tokenAmount) \(deposit.tokenCurrency.uppercased()) received at \(address.address) on "
                    + "\(address.network) (transaction \(deposit.transactionHash))"),
            "livemode": .bool(deposit.livemode), "metadata": [:], "next_action": .null,
            "payment_method_options": ["crypto": ["mode": "deposit"]], "payment_method_types": ["crypto"],
            "status": "succeeded",
        ]
    }

    /// A transaction hash in `network`'s form, for a deposit sent without one.
    private func madeUpTransactionHash(network: String) -> String {
        network == "solana" ? Base58.encode(ids.randomBytes(64)) : "0x" + Hex.encode(ids.randomBytes(32))
    }

    /// The `crypto.deposit_address` object.
    private func wire(_ record: DepositAddressRepository.Record) -> CryptoDepositAddress {
        let contract = catalogue.assets.first { $0.symbol.lowercased() == "usdc" }?.deployments
            .first { $0.network == record.network }?.contractAddress
        return CryptoDepositAddress(
            id: record.id, address: record.address, created: record.createdAt / 1000, customer: record.customer,
            livemode: record.livemode, metadata: record.metadata, network: record.network,
            supportedTokens: contract.map { [.init(tokenContractAddress: $0, tokenCurrency: "usdc")] } ?? [])
    }
}
