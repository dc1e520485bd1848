import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The private-preview `crypto.deposit_addresses` resource: an on-chain address per request where a project's
/// users can send stablecoins, on the networks of the catalogue the bindings name (`base`, `solana`; `tempo`,
/// which the bindings also list, is not in this sandbox's catalogue). Addresses are made from random bytes in
/// each network's form (EIP-55 for Base, Base58 for Solana); no chain watches them here.
struct DepositAddressService: Sendable {
    let database: any Database
    let clock: any OnrampCore.Clock
    let ids: IdGenerator
    let catalogue: Catalogue

    init(context: ServerContext) {
        database = context.database
        clock = context.clock
        ids = context.ids
        catalogue = context.catalogue
    }

    /// The networks an address can be made on.
    static let networks = ["base", "solana"]

    /// Makes an address on `network` for the caller's project and mode.
    func create(network: String, customer: String?, metadata: JSONValue, caller: StripeCaller) throws
        -> DepositAddressRepository.Record
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
        return record
    }

    /// The caller's address `id`.
    func find(id: String, caller: StripeCaller) throws -> DepositAddressRepository.Record {
        guard
            let record = try database.read({ try DepositAddressRepository(connection: $0).find(id: id) }),
            record.projectId == caller.projectId, record.livemode == caller.livemode
        else { throw OnrampError.missing("crypto.deposit_address: \(id)", parameter: "id") }
        return record
    }

    /// A page of the caller's addresses (one more than `limit` when there are more); `nil` when the anchor is
    /// not one of the caller's.
    func list(
        filter: DepositAddressRepository.Filter, startingAfter: String?, endingBefore: String?, limit: Int,
        caller: StripeCaller
    ) throws -> [DepositAddressRepository.Record]? {
        try database.read { connection in
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
        }
    }

    /// The `crypto.deposit_address` object.
    func json(_ record: DepositAddressRepository.Record) -> JSONValue {
        let contract = catalogue.assets.first { $0.symbol.lowercased() == "usdc" }?.deployments
            .first { $0.network == record.network }?.contractAddress
        var members: [(String, JSONValue)] = [
            ("id", .string(record.id)), ("object", "crypto.deposit_address"), ("address", .string(record.address)),
            ("created", .integer(record.createdAt / 1000)),
        ]
        if let customer = record.customer { members.append(("customer", .string(customer))) }
        members += [
            ("livemode", .bool(record.livemode)), ("metadata", record.metadata), ("network", .string(record.network)),
            (
                "supported_tokens",
                .array(
                    contract.map { [["token_contract_address": .string($0), "token_currency": "usdc"]] } ?? [])
            ),
        ]
        return .object(members)
    }
}
