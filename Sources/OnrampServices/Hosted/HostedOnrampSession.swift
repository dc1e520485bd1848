import OnrampCore
import OnrampStore
import OnrampWire

/// A hosted onramp session: what a partner allowed (destination addresses per network, assets) and
/// preset, behind a single-use token. `POST /onramp/v1/token` makes the `token` kind (the user picks
/// within the allowed set; presets come from the URL's query); `POST /platform/v2/onramp/sessions`
/// makes the `session` kind (asset, network and address fixed; the URL's query is ignored).
package struct HostedOnrampSession: Sendable {
    package enum Kind: String, Sendable { case token, session }

    /// An address and the networks it may receive on.
    package struct Destination: Sendable, Equatable {
        package let address: String
        package let networks: [String]
    }

    /// What the page starts from. Amounts are decimal strings; at most one of them is set.
    package struct Presets: Sendable, Equatable {
        package var asset: String?
        package var network: String?
        package var paymentAmount: String?
        package var purchaseAmount: String?
        package var paymentCurrency: String?
        package var paymentMethod: String?
        package var country: String?
        package var subdivision: String?
        package var redirectUrl: String?
        package var partnerUserRef: String?
        /// The quote a one-click sell link was made for: its presets are bound to the token, and the page
        /// takes no other user, amount or cash-out from the URL or the form.
        package var quoteId: String?
        /// The sell URL's `disableEdit=true`: what it presets (asset, network, amount, cash-out) cannot be changed.
        package var editingDisabled: Bool = false

        /// The aggregator's end partner the session was created for (`X-Onramp-Partner-Id`).
        package var partnerId: String?

        /// Whether the sell page must keep what these presets set: a one-click link's, or `disableEdit`.
        package var locked: Bool { quoteId != nil || editingDisabled }

        /// A value with each stored property given.
        package init(
            asset: String? = nil, network: String? = nil, paymentAmount: String? = nil, purchaseAmount: String? = nil,
            paymentCurrency: String? = nil, paymentMethod: String? = nil, country: String? = nil,
            subdivision: String? = nil, redirectUrl: String? = nil, partnerUserRef: String? = nil,
            quoteId: String? = nil, editingDisabled: Bool = false, partnerId: String? = nil
        ) {
            self.asset = asset
            self.network = network
            self.paymentAmount = paymentAmount
            self.purchaseAmount = purchaseAmount
            self.paymentCurrency = paymentCurrency
            self.paymentMethod = paymentMethod
            self.country = country
            self.subdivision = subdivision
            self.redirectUrl = redirectUrl
            self.partnerUserRef = partnerUserRef
            self.quoteId = quoteId
            self.editingDisabled = editingDisabled
            self.partnerId = partnerId
        }
    }

    /// One purchasable combination offered on the page.
    package struct Choice: Sendable, Equatable {
        package let asset: Asset
        package let network: Network
        package let address: String
    }

    package let id: String
    package let projectId: String
    package let kind: Kind
    package let destinations: [Destination]
    /// Asset symbols the partner allowed; `nil` allows every asset of the catalogue.
    package let assets: [String]?
    package var presets: Presets
    package let createdAt: Int64
    /// The token must be opened before this instant.
    package let expiresAt: Int64
    package var openedAt: Int64?
    package var pageSecretHash: String?
    package var outcome: PurchaseOutcome?
    package var transactionId: String?
    /// Which page opened it (a `/onramp/v1/token` opens either): the other page refuses it.
    package var flow: Flow?

    /// The page a session was opened on.
    package enum Flow: String, Sendable { case buy, sell }

    /// Tokens must be opened within 5 minutes of issue.
    package static let tokenLifetimeMilliseconds: Int64 = 5 * 60 * 1000
    /// Once opened, the page may be completed for 15 minutes.
    package static let pageLifetimeMilliseconds: Int64 = 15 * 60 * 1000

    /// The page's lifecycle: the link opens within 5 minutes, the opened page takes actions for 15.
    package var page: SingleUsePage {
        SingleUsePage(
            linkExpiresAt: expiresAt, pageLifetime: Self.pageLifetimeMilliseconds, openedAt: openedAt, outcome: outcome)
    }

    /// Whether the purchase is a sandbox dry run (`partnerUserRef` starting with `sandbox-`).
    package var isSandbox: Bool { presets.partnerUserRef?.hasPrefix(PurchaseRequest.sandboxPrefix) ?? false }

    /// Every combination the user may buy, in a stable order (destinations as given, then networks,
    /// then the catalogue's asset order).
    package func choices(in catalogue: Catalogue) -> [Choice] {
        var result: [Choice] = []
        for destination in destinations {
            for networkName in destination.networks {
                guard let network = try? catalogue.network(networkName) else { continue }
                for asset in catalogue.assets where asset.deployment(on: network.id) != nil {
                    if let assets, !assets.contains(asset.symbol) { continue }
                    result.append(Choice(asset: asset, network: network, address: destination.address))
                }
            }
        }
        return result
    }
}

extension HostedOnrampSession.Presets {
    /// The stored JSON (only the fields that are set).
    package var json: JSONValue {
        let fields: [(String, String?)] = [
            ("asset", asset), ("network", network), ("paymentAmount", paymentAmount),
            ("purchaseAmount", purchaseAmount), ("paymentCurrency", paymentCurrency), ("paymentMethod", paymentMethod),
            ("country", country), ("subdivision", subdivision), ("redirectUrl", redirectUrl),
            ("partnerUserRef", partnerUserRef), ("quoteId", quoteId), ("disableEdit", editingDisabled ? "true" : nil),
            ("partnerId", partnerId),
        ]
        return .object(fields.compactMap { name, value in value.map { (name, JSONValue.string($0)) } })
    }

    package init(json: JSONValue) {
        asset = json["asset"]?.stringValue
        network = json["network"]?.stringValue
        paymentAmount = json["paymentAmount"]?.stringValue
        purchaseAmount = json["purchaseAmount"]?.stringValue
        paymentCurrency = json["paymentCurrency"]?.stringValue
        paymentMethod = json["paymentMethod"]?.stringValue
        country = json["country"]?.stringValue
        subdivision = json["subdivision"]?.stringValue
        redirectUrl = json["redirectUrl"]?.stringValue
        partnerUserRef = json["partnerUserRef"]?.stringValue
        quoteId = json["quoteId"]?.stringValue
        editingDisabled = json["disableEdit"]?.stringValue == "true"
        partnerId = json["partnerId"]?.stringValue
    }
}

/// Storage of hosted onramp sessions. Only a SHA-256 of the token (and of the page secret) is stored.
package struct HostedOnrampRepository {
    package let connection: any SQLConnection

    package func insert(_ session: HostedOnrampSession, token: String) throws {
        let destinations = JSONValue.array(
            session.destinations.map {
                ["address": .string($0.address), "blockchains": .array($0.networks.map(JSONValue.string))]
            })
        try connection.execute(
            """
            INSERT INTO hosted_onramp_sessions (token_hash, id, project_id, kind, destinations, assets, presets,
                created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(APIKeyRepository.secretHash(token)), .text(session.id), .text(session.projectId),
                .text(session.kind.rawValue),
                .text(destinations.serializedString),
                session.assets.map { .text(JSONValue.array($0.map(JSONValue.string)).serializedString) } ?? .null,
                .text(session.presets.json.serializedString), .integer(session.createdAt),
                .integer(session.expiresAt),
            ])
    }

    package func find(token: String) throws -> HostedOnrampSession? {
        try connection.query(
            "SELECT * FROM hosted_onramp_sessions WHERE token_hash = ?", [.text(APIKeyRepository.secretHash(token))]
        )
        .first.map(Self.session)
    }

    /// Opens the session once, before its token expires: binds the page to `pageSecret` (hash only)
    /// and records the presets the page starts from.
    package func open(
        token: String, pageSecret: String, presets: HostedOnrampSession.Presets, flow: HostedOnrampSession.Flow = .buy,
        now: Int64
    ) throws -> Bool {
        try connection.execute(
            """
            UPDATE hosted_onramp_sessions SET opened_at = ?, page_secret_hash = ?, presets = ?, flow = ?
            WHERE token_hash = ? AND opened_at IS NULL AND expires_at > ?
            """,
            [
                .integer(now), .text(APIKeyRepository.secretHash(pageSecret)), .text(presets.json.serializedString),
                .text(flow.rawValue), .text(APIKeyRepository.secretHash(token)), .integer(now),
            ]) == 1
    }

    /// Records the outcome once; `false` when one was already recorded.
    package func finish(id: String, outcome: PurchaseOutcome, transactionId: String? = nil) throws -> Bool {
        try connection.execute(
            "UPDATE hosted_onramp_sessions SET outcome = ?, transaction_id = ? WHERE id = ? AND outcome IS NULL",
            [.text(outcome.rawValue), transactionId.map(SQLValue.text) ?? .null, .text(id)]) == 1
    }

    private static func session(_ row: Row) throws -> HostedOnrampSession {
        let destinations = try JSONParser().parse(try row.string("destinations")).arrayValue ?? []
        let assets = try row.optionalString("assets").map { try JSONParser().parse($0).arrayValue ?? [] }
        return HostedOnrampSession(
            id: try row.string("id"), projectId: try row.string("project_id"),
            kind: HostedOnrampSession.Kind(rawValue: try row.string("kind")) ?? .token,
            destinations: destinations.map { entry in
                HostedOnrampSession.Destination(
                    address: entry["address"]?.stringValue ?? "",
                    networks: entry["blockchains"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            },
            assets: assets?.compactMap(\.stringValue),
            presets: HostedOnrampSession.Presets(json: try JSONParser().parse(try row.string("presets"))),
            createdAt: try row.int("created_at"), expiresAt: try row.int("expires_at"),
            openedAt: row.optionalInt("opened_at"), pageSecretHash: row.optionalString("page_secret_hash"),
            outcome: row.optionalString("outcome").flatMap(PurchaseOutcome.init(rawValue:)),
            transactionId: row.optionalString("transaction_id"),
            flow: row.optionalString("flow").flatMap(HostedOnrampSession.Flow.init(rawValue:)))
    }
}
