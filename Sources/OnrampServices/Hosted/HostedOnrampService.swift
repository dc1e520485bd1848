import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The hosted onramp (the flow for users without App2App, such as Android): partners create a
/// single-use token or session with a CDP API key JWT; the user opens our page, picks or confirms
/// the purchase, and comes back through the redirect. Purchases become transactions like App2App
/// ones (`isAppToApp: false`), settled by the same workers.
package struct HostedOnrampService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    package let catalogue: Catalogue
    package let testClocks: TestClocks
    /// Where the hosted page is served (`http://127.0.0.1:8080`).
    package let publicBaseURL: String
    package let transactions: TransactionService

    /// The service on the parts of `context` it uses, recording purchases through `transactions`.
    package init(context: ServerContext, transactions: TransactionService) {
        environment = context.environment
        catalogue = context.catalogue
        testClocks = context.testClocks
        publicBaseURL = context.publicBaseURL
        self.transactions = transactions
    }

    /// The hosted page, on Coinbase's hosted-onramp path.
    package static let pagePath = "/buy/select-asset"
    package static let maximumDestinations = 10
    package static let maximumNetworksPerAddress = 10
    package static let maximumAssets = 50

    /// Runs `body` in the time of the project whose hosted session `token` names (its test clock): the
    /// token's five minutes and the page's fifteen were set in that time. Real time for an unknown token.
    package func inProjectTime<T>(ofToken token: String?, _ body: () throws -> T) throws -> T {
        guard let token, !token.isEmpty, token.utf8.count <= 64 else { return try body() }
        let projectId = try database.read {
            try HostedOnrampRepository(connection: $0).find(token: token)?.projectId
        }
        return try testClocks.bound(to: projectId, body)
    }

    /// `POST /onramp/v1/token`: a single-use token for the page, offering `request`'s destinations
    /// (each address valid on each of its networks) and assets.
    package func createToken(_ request: HostedTokenRequest, projectId: String) throws -> IssuedHostedToken {
        var destinations: [HostedOnrampSession.Destination] = []
        for (index, destination) in request.destinations.enumerated() {
            var networks: [String] = []
            for name in destination.blockchains {
                let network = try catalogueLookup("addresses[\(index)].blockchains") { try catalogue.network(name) }
                try validate(destination.address, on: network, parameter: "addresses[\(index)].address")
                if !networks.contains(network.id) { networks.append(network.id) }
            }
            destinations.append(HostedOnrampSession.Destination(address: destination.address, networks: networks))
        }
        let assets = try request.assets?.map { name in
            try catalogueLookup("assets") { try catalogue.asset(name).symbol }
        }
        let session = newSession(
            projectId: projectId, kind: .token, destinations: destinations, assets: assets,
            presets: HostedOnrampSession.Presets())
        guard !session.choices(in: catalogue).isEmpty else {
            throw HostedOnrampRefusal.invalid(
                param: "assets", message: "None of the assets is offered on the given blockchains.")
        }
        return IssuedHostedToken(token: try store(session), channelId: session.id)
    }

    /// A token like `POST /onramp/v1/token`'s for one address on one network and one asset (the sell
    /// quote's one-click `offramp_url`); `parameter` names the address in errors.
    package func makeToken(
        address: String, asset: Asset, network: Network, projectId: String, parameter: String,
        presets: HostedOnrampSession.Presets = HostedOnrampSession.Presets()
    ) throws -> String {
        try validate(address, on: network, parameter: parameter)
        return try store(
            newSession(
                projectId: projectId, kind: .token,
                destinations: [HostedOnrampSession.Destination(address: address, networks: [network.id])],
                assets: [asset.symbol], presets: presets))
    }

    /// `POST /platform/v2/onramp/sessions`: a single-use onramp URL for one asset, network and
    /// address; with an amount it is a one-click URL, and with `paymentMethod` and `country` (plus
    /// `subdivision` in the US) the answer carries the quote. The fields are camelCase (the Buy API's
    /// session renames its own).
    /// An aggregator's `endPartnerId` (`X-Onramp-Partner-Id`) must name one of its end partners and scopes the
    /// session's transaction to it; other projects' headers are ignored.
    package func createSession(_ request: HostedSessionRequest, projectId: String, endPartnerId: String? = nil) throws
        -> OnrampURLSession
    {
        let (asset, network, _) = try catalogueLookup("purchaseCurrency") {
            try catalogue.resolve(asset: request.purchaseCurrency, network: request.destinationNetwork)
        }
        let address = request.destinationAddress
        try validate(address, on: network, parameter: "destinationAddress")
        var presets = HostedOnrampSession.Presets(
            asset: asset.symbol, network: network.id, paymentAmount: request.paymentAmount,
            purchaseAmount: request.purchaseAmount, paymentCurrency: request.paymentCurrency,
            paymentMethod: request.paymentMethod, country: request.country, subdivision: request.subdivision,
            redirectUrl: request.redirectUrl, partnerUserRef: request.partnerUserRef)
        if endPartnerId != nil {
            presets.partnerId = try database.read {
                try EndPartnerRepository(connection: $0).scope(endPartnerId, projectId: projectId)
            }
        }
        if let redirectUrl = presets.redirectUrl {
            try PurchaseRequest.validateHostedRedirect(redirectUrl, for: try project(projectId))
        }
        try validatePresetChoices(presets)
        let session = newSession(
            projectId: projectId, kind: .session,
            destinations: [HostedOnrampSession.Destination(address: address, networks: [network.id])],
            assets: [asset.symbol], presets: presets)
        var quote: OnrampQuote?
        if presets.paymentAmount != nil || presets.purchaseAmount != nil {
            let choice = HostedOnrampSession.Choice(asset: asset, network: network, address: address)
            let (_, priced) = try price(
                session, choice: choice, paymentAmount: presets.paymentAmount, purchaseAmount: presets.purchaseAmount,
                paymentCurrency: presets.paymentCurrency, paymentMethod: presets.paymentMethod)
            if presets.paymentMethod != nil, let country = presets.country,
                country != "US" || presets.subdivision != nil
            {
                quote = StoredQuote(priced).onrampQuote(catalogue: catalogue)
            }
        }
        return OnrampURLSession(onrampUrl: onrampURL(token: try store(session)), quote: quote)
    }

    /// The purchase the user chose, validated against the catalogue and priced. Exactly one amount.
    package func price(
        _ session: HostedOnrampSession, choice: HostedOnrampSession.Choice, paymentAmount: String?,
        purchaseAmount: String?, paymentCurrency: String?, paymentMethod: String?
    ) throws(OnrampError) -> (PurchaseRequest, App2AppQuote) {
        let purchase = PurchaseRequest(
            purchaseCurrency: choice.asset.symbol, destinationNetwork: choice.network.id,
            destinationAddress: choice.address, redirectUrl: session.presets.redirectUrl ?? "",
            paymentAmount: paymentAmount, purchaseAmount: purchaseAmount, paymentCurrency: paymentCurrency,
            paymentMethod: paymentMethod, partnerUserRef: session.presets.partnerUserRef,
            country: session.presets.country, subdivision: session.presets.subdivision, clientIp: nil)
        return (purchase, try purchase.quote(catalogue: catalogue))
    }

    /// Records the user's confirmation: the outcome, and for live purchases the transaction and its
    /// `created` event, in one database transaction. A second confirm changes nothing.
    package func confirm(_ session: HostedOnrampSession, purchase: PurchaseRequest, quote: App2AppQuote, now: Int64)
        throws
    {
        let endPartnerName = try transactions.endPartnerName(projectId: session.projectId)
        let transactionId = ids.uuid()
        try database.transaction { connection in
            let sessions = HostedOnrampRepository(connection: connection)
            guard !session.isSandbox else {
                _ = try sessions.finish(id: session.id, outcome: .success)
                return
            }
            guard try sessions.finish(id: session.id, outcome: .success, transactionId: transactionId) else { return }
            try transactions.insertTransaction(
                connection, transactionId: transactionId, projectId: session.projectId, reference: session.id,
                partnerUserRef: session.presets.partnerUserRef ?? "", isAppToApp: false, quote: StoredQuote(quote),
                purchase: purchase, endPartnerName: endPartnerName, partnerId: session.presets.partnerId, now: now)
        }
    }

    // MARK: - The single-use page (the hosted page and the sell page share it)

    /// The session `token` opens, as stored; `nil` for an unknown token.
    package func session(token: String) throws -> HostedOnrampSession? {
        guard !token.isEmpty, token.utf8.count <= 64 else { return nil }
        return try database.read { try HostedOnrampRepository(connection: $0).find(token: token) }
    }

    /// The opened `flow` page of `token` whose form sent `pageSecret`; `nil` when there is none, or
    /// the secret is not the page's.
    package func openedSession(token: String, pageSecret: String, flow: HostedOnrampSession.Flow) throws
        -> HostedOnrampSession?
    {
        guard let session = try session(token: token), session.openedAt != nil, session.flow == flow,
            let storedHash = session.pageSecretHash, APIKeyRepository.secretMatches(pageSecret, storedHash: storedHash)
        else { return nil }
        return session
    }

    /// Opens `token`'s page once, before the token expires, as a `flow` page starting from `presets`:
    /// returns the secret its form must send back (stored hashed), or `nil` when a racing open or the
    /// token's expiry got there first.
    package func open(token: String, presets: HostedOnrampSession.Presets, flow: HostedOnrampSession.Flow = .buy) throws
        -> String?
    {
        let pageSecret = Base64URL.encode(ids.randomBytes(32), padded: false)
        let opened = try database.transaction { connection in
            try HostedOnrampRepository(connection: connection).open(
                token: token, pageSecret: pageSecret, presets: presets, flow: flow, now: nowMilliseconds)
        }
        return opened ? pageSecret : nil
    }

    /// Records `outcome` (`cancelled`, `error`) unless one was recorded already, and returns the session
    /// as it is then (read in the same transaction).
    package func finish(_ session: HostedOnrampSession, token: String, outcome: PurchaseOutcome) throws
        -> HostedOnrampSession
    {
        try database.transaction { connection in
            let sessions = HostedOnrampRepository(connection: connection)
            _ = try sessions.finish(id: session.id, outcome: outcome)
            return try sessions.find(token: token) ?? session
        }
    }

    package func onrampURL(token: String) -> String {
        "\(publicBaseURL)\(Self.pagePath)?sessionToken=\(token)"
    }

    package func project(_ id: String) throws -> Project {
        guard let project = try database.read({ try ProjectRepository(connection: $0).find(id) }) else {
            throw HostedOnrampRefusal.unknownProject
        }
        return project
    }

    /// Checks the shape of preset values that the page would otherwise only meet at pricing time.
    package func validatePresetChoices(_ presets: HostedOnrampSession.Presets) throws {
        if presets.paymentAmount != nil && presets.purchaseAmount != nil {
            throw invalid("paymentAmount", "Provide only one of paymentAmount or purchaseAmount.")
        }
        for (name, value) in [("paymentAmount", presets.paymentAmount), ("purchaseAmount", presets.purchaseAmount)] {
            if let value, (try? DecimalAmount(parsing: value, parameter: name)) == nil {
                throw invalid(name, "\(name) must be a positive decimal string such as 25.00.")
            }
        }
        _ = try PurchaseRequest.paymentMethodType(presets.paymentMethod)
        if let currency = presets.paymentCurrency, (try? catalogue.fiatCurrency(currency)) == nil {
            throw invalid("paymentCurrency", "Unknown paymentCurrency \(currency).")
        }
        try PurchaseRequest.validateRegion(country: presets.country, subdivision: presets.subdivision)
    }

    private func newSession(
        projectId: String, kind: HostedOnrampSession.Kind, destinations: [HostedOnrampSession.Destination],
        assets: [String]?, presets: HostedOnrampSession.Presets
    ) -> HostedOnrampSession {
        let now = nowMilliseconds
        return HostedOnrampSession(
            id: ids.uuid(), projectId: projectId, kind: kind, destinations: destinations, assets: assets,
            presets: presets, createdAt: now, expiresAt: now + HostedOnrampSession.tokenLifetimeMilliseconds)
    }

    /// Stores the session under a fresh 32-byte token and returns the token.
    private func store(_ session: HostedOnrampSession) throws -> String {
        let token = Base64URL.encode(ids.randomBytes(32), padded: false)
        try database.transaction { try HostedOnrampRepository(connection: $0).insert(session, token: token) }
        return token
    }

    private func validate(_ address: String, on network: Network, parameter: String) throws(HostedOnrampRefusal) {
        do {
            try AddressValidator.validate(address, format: network.addressFormat)
        } catch {
            throw invalid(parameter, "\(address.prefix(128)) is not a valid \(network.id) address.")
        }
    }

    /// Runs a catalogue lookup, turning its error into a 400 naming `parameter`.
    private func catalogueLookup<T>(_ parameter: String, _ lookup: () throws -> T) throws(HostedOnrampRefusal) -> T {
        do {
            return try lookup()
        } catch let error as OnrampError {
            throw invalid(parameter, error.developerMessage)
        } catch {
            throw invalid(parameter, "\(parameter) is not supported.")
        }
    }

    private func invalid(_ parameter: String, _ message: String) -> HostedOnrampRefusal {
        .invalid(param: parameter, message: message)
    }
}
