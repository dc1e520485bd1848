extension Catalogue {
    /// The fiat currency with `code`, matched without regard to case (`usd` and `USD`).
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unknownFiatCurrency``.
    public func fiatCurrency(_ code: String) throws -> FiatCurrency {
        guard let currency = fiatCurrencies.first(where: { $0.code == code.uppercased() }) else {
            throw OnrampError(
                code: .unknownFiatCurrency, userMessage: "This currency is not supported.",
                developerMessage: "Unknown fiat currency \(code).", parameter: "paymentCurrency")
        }
        return currency
    }

    /// The network called `name` (its id or an alias, exact match).
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unknownNetwork``.
    public func network(_ name: String) throws -> Network {
        guard let network = networks.first(where: { $0.isNamed(name) }) else {
            throw OnrampError(
                code: .unknownNetwork, userMessage: "This network is not supported.",
                developerMessage: "Unknown network \(name).", parameter: "destinationNetwork")
        }
        return network
    }

    /// The asset identified by a ticker (case-sensitive, `USDC`), a ticker alias, or an asset id.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unknownAsset``.
    public func asset(_ identifier: String) throws -> Asset {
        let found = assets.first {
            $0.symbol == identifier || $0.id == identifier.lowercased() || $0.aliases.contains(identifier)
        }
        guard let found else {
            throw OnrampError(
                code: .unknownAsset, userMessage: "This asset is not supported.",
                developerMessage: "Unknown purchase currency \(identifier).", parameter: "purchaseCurrency")
        }
        return found
    }

    /// The asset for a lower-case Embedded-contract code (`usdc`, `matic`).
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unknownAsset``.
    public func asset(lowercaseCode code: String) throws -> Asset {
        guard code == code.lowercased() else {
            throw OnrampError(
                code: .unknownAsset, userMessage: "This asset is not supported.",
                developerMessage: "Destination currency \(code) must be lower case.",
                parameter: "destination_currency")
        }
        return try asset(code.uppercased())
    }

    /// The payment method of `type`.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unsupportedPaymentMethod``.
    public func paymentMethod(_ type: PaymentMethodType) throws -> PaymentMethod {
        guard let method = paymentMethods.first(where: { $0.type == type }) else {
            throw OnrampError(
                code: .unsupportedPaymentMethod, userMessage: "This payment method is not available.",
                developerMessage: "Payment method \(type.rawValue) is not in the catalogue.",
                parameter: "paymentMethod")
        }
        return method
    }

    /// The country with ISO code `id` (case-insensitive), if listed.
    public func country(_ id: String) -> Country? {
        countries.first { $0.id == id.uppercased() }
    }

    /// Resolves an asset on a network and returns both with the asset's deployment there.
    ///
    /// - Throws: ``OnrampError`` with codes ``OnrampError/Code/unknownAsset``,
    ///   ``OnrampError/Code/unknownNetwork`` or ``OnrampError/Code/assetNotOnNetwork``.
    public func resolve(asset identifier: String, network name: String) throws -> (
        asset: Asset, network: Network, deployment: Asset.Deployment
    ) {
        let asset = try asset(identifier)
        let network = try network(name)
        guard let deployment = asset.deployment(on: network.id) else {
            throw OnrampError(
                code: .assetNotOnNetwork, userMessage: "This asset is not available on this network.",
                developerMessage: "\(asset.symbol) is not offered on \(network.id).",
                parameter: "destinationNetwork")
        }
        return (asset, network, deployment)
    }

    /// Validates `address` for the network called `name`.
    ///
    /// - Throws: ``OnrampError`` with code ``OnrampError/Code/unknownNetwork`` or
    ///   ``OnrampError/Code/invalidAddress``.
    @discardableResult
    public func validateAddress(_ address: String, network name: String, parameter: String? = nil) throws
        -> AddressKind
    {
        let network = try network(name)
        do {
            return try AddressValidator.validate(address, format: network.addressFormat)
        } catch {
            throw error.onrampError(parameter: parameter)
        }
    }
}
