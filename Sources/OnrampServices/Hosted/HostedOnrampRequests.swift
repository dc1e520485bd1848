import OnrampWire

/// `POST /onramp/v1/token` as the service takes it: decoded at the edge (shape, counts and lengths; the
/// catalogue and address checks are the service's). No I/O.
package struct HostedTokenRequest: Sendable, Equatable {
    /// An address and the network names it may receive on, as sent.
    package struct Destination: Sendable, Equatable {
        package let address: String
        package let blockchains: [String]
    }

    /// 1 to ``HostedOnrampService/maximumDestinations`` destinations.
    package let destinations: [Destination]
    /// The asset names the partner allows (`nil`: every asset of the catalogue).
    package let assets: [String]?

    /// Decodes `body` (`{addresses: [{address, blockchains[]}], assets?, clientIp?}`).
    package init(_ body: JSONValue) throws(FieldError) {
        let fields = RequestFields(body)
        _ = try fields.optional("clientIp", maxLength: 45)
        guard let entries = body["addresses"]?.arrayValue, !entries.isEmpty,
            entries.count <= HostedOnrampService.maximumDestinations
        else {
            throw fields.invalid(
                "addresses",
                "addresses must list 1 to \(HostedOnrampService.maximumDestinations) {address, blockchains} objects.")
        }
        var destinations: [Destination] = []
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else {
                throw fields.invalid(
                    "addresses[\(index)]", "Each entry of addresses must be an {address, blockchains} object.")
            }
            let item = RequestFields(entry)
            let address = try item.required("address", maxLength: 128)
            guard
                let names = try item.optionalList(
                    "blockchains", maxCount: HostedOnrampService.maximumNetworksPerAddress, maxLength: 64),
                !names.isEmpty
            else {
                throw fields.invalid(
                    "addresses[\(index)].blockchains",
                    "blockchains must list 1 to \(HostedOnrampService.maximumNetworksPerAddress) network names.")
            }
            destinations.append(Destination(address: address, blockchains: names))
        }
        self.destinations = destinations
        assets = try fields.optionalList("assets", maxCount: HostedOnrampService.maximumAssets, maxLength: 64)
    }
}

/// `POST /platform/v2/onramp/sessions` as the service takes it: one asset, network and address, and the
/// purchase values the page starts from (camelCase on the wire). Decoded at the edge; no I/O.
package struct HostedSessionRequest: Sendable, Equatable {
    package let purchaseCurrency: String
    package let destinationNetwork: String
    package let destinationAddress: String
    package var paymentAmount: String?
    package var purchaseAmount: String?
    package var paymentCurrency: String?
    package var paymentMethod: String?
    package var country: String?
    package var subdivision: String?
    package var redirectUrl: String?
    package var partnerUserRef: String?

    /// A session for `purchaseCurrency` on `destinationNetwork` to `destinationAddress`, without presets.
    package init(purchaseCurrency: String, destinationNetwork: String, destinationAddress: String) {
        self.purchaseCurrency = purchaseCurrency
        self.destinationNetwork = destinationNetwork
        self.destinationAddress = destinationAddress
    }

    /// Decodes `body`.
    package init(_ body: JSONValue) throws(FieldError) {
        let fields = RequestFields(body)
        self.init(
            purchaseCurrency: try fields.required("purchaseCurrency", maxLength: 64),
            destinationNetwork: try fields.required("destinationNetwork", maxLength: 64),
            destinationAddress: try fields.required("destinationAddress", maxLength: 128))
        paymentAmount = try fields.optional("paymentAmount", maxLength: 40)
        purchaseAmount = try fields.optional("purchaseAmount", maxLength: 40)
        paymentCurrency = try fields.optional("paymentCurrency", maxLength: 8)
        paymentMethod = try fields.optional("paymentMethod", maxLength: 32)
        country = try fields.optional("country", maxLength: 2)
        subdivision = try fields.optional("subdivision", maxLength: 6)
        redirectUrl = try fields.optional("redirectUrl", maxLength: 2048)
        partnerUserRef = try fields.optional("partnerUserRef", maxLength: 50)
        _ = try fields.optional("clientIp", maxLength: 45)
    }
}

/// A token made by ``HostedOnrampService/createToken(_:projectId:)``: the page's single-use
/// `sessionToken` and the session it opens (`channel_id` on the wire).
package struct IssuedHostedToken: Sendable, Equatable {
    package let token: String
    package let channelId: String

    /// `{token, channel_id}`.
    package var json: JSONValue { ["token": .string(token), "channel_id": .string(channelId)] }
}

/// Why the hosted onramp refused a request: the service's own checks, in the CDP shape wherever thrown.
package enum HostedOnrampRefusal: Error, Equatable {
    /// A field names something the catalogue does not offer, or an address the network cannot take
    /// (400 `invalid_request` naming the field).
    case invalid(param: String, message: String)
    /// The API key's project is gone (403 `forbidden`).
    case unknownProject
}
