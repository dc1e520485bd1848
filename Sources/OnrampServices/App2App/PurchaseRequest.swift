import Foundation
import OnrampCore
import OnrampWire

/// The purchase fields of an App2App challenge request, validated: known asset and network, an
/// address valid for the network, an allowlisted `https` redirect, exactly one amount. Fields it does
/// not know are ignored, as Coinbase does (the demo app sends `appId`); the ones it knows are checked.
package struct PurchaseRequest: Sendable, Equatable {
    package var purchaseCurrency: String
    package var destinationNetwork: String
    package var destinationAddress: String
    package var redirectUrl: String
    package var paymentAmount: String?
    package var purchaseAmount: String?
    package var paymentCurrency: String?
    package var paymentMethod: String?
    package var partnerUserRef: String?
    package var country: String?
    package var subdivision: String?
    package var clientIp: String?

    /// The prefix of `partnerUserRef` that makes a purchase a dry run.
    package static let sandboxPrefix = "sandbox-"

    /// Whether this purchase is a sandbox dry run.
    package var isSandbox: Bool { partnerUserRef?.hasPrefix(Self.sandboxPrefix) ?? false }

    /// Checks the fields against the project and the catalogue and returns the quote.
    package func validate(for project: Project, catalogue: Catalogue) throws(OnrampError) -> App2AppQuote {
        try Self.validateRedirect(redirectUrl, for: project)
        return try quote(catalogue: catalogue)
    }

    /// Checks everything but the redirect against the catalogue and returns the quote.
    package func quote(catalogue: Catalogue) throws(OnrampError) -> App2AppQuote {
        try Self.validateRegion(country: country, subdivision: subdivision)
        let method = try Self.paymentMethodType(paymentMethod) ?? .card
        do {
            let (_, network, _) = try catalogue.resolve(asset: purchaseCurrency, network: destinationNetwork)
            do {
                try AddressValidator.validate(destinationAddress, format: network.addressFormat)
            } catch {
                throw Self.invalid(
                    "destinationAddress", "destinationAddress is not a valid \(network.id) address: \(error).")
            }
            let amount = try App2AppAmount.parse(paymentAmount: paymentAmount, purchaseAmount: purchaseAmount)
            return try QuoteCalculator(catalogue: catalogue).app2AppQuote(
                App2AppQuoteRequest(
                    purchaseCurrency: purchaseCurrency, network: destinationNetwork,
                    paymentCurrency: paymentCurrency ?? "USD", paymentMethod: method, amount: amount))
        } catch let error as OnrampError {
            throw error
        } catch {
            throw OnrampError.refusal("invalid_request", "The purchase is invalid.")
        }
    }

    /// The `paymentMethod` field as a type (`nil` when absent); 400 when it names none.
    package static func paymentMethodType(_ paymentMethod: String?) throws(OnrampError) -> PaymentMethodType? {
        guard let paymentMethod else { return nil }
        guard let method = PaymentMethodType(rawValue: paymentMethod) else {
            throw invalid(
                "paymentMethod",
                "paymentMethod must be one of CARD, ACH, APPLE_PAY, FIAT_WALLET, CRYPTO_WALLET, PAYPAL.")
        }
        return method
    }

    /// Checks `country` (ISO 3166-1 alpha-2) and `subdivision` (an ISO 3166-2 code) when present.
    package static func validateRegion(country: String?, subdivision: String?) throws(OnrampError) {
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            throw invalid("country", "country must be an ISO 3166-1 alpha-2 code such as US.")
        }
        if let subdivision,
            subdivision.isEmpty || !subdivision.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        {
            throw invalid("subdivision", "subdivision must be an ISO 3166-2 code such as NY.")
        }
    }

    /// Checks that `redirectUrl` is an absolute `https` URL, written in RFC 3986's characters only,
    /// whose host is on the project's allowlist.
    package static func validateRedirect(_ redirectUrl: String, for project: Project) throws(OnrampError) {
        guard RedirectURL.isWellFormed(redirectUrl) else {
            throw Self.invalid(
                "redirectUrl",
                "redirectUrl may only hold URL characters (RFC 3986): no spaces, quotes, angle brackets or controls.")
        }
        guard redirectUrl.utf8.count >= 5, let host = RedirectURL.httpsHost(redirectUrl) else {
            throw Self.invalid("redirectUrl", "redirectUrl must be an absolute https URL.")
        }
        guard project.allowsRedirectHost(host) else {
            throw Self.invalid("redirectUrl", "The redirectUrl host \(host) is not on the project's domain allowlist.")
        }
    }

    /// The hosted onramp's rule for `redirectUrl` (Coinbase's `OnrampSessionRequest` allows any
    /// `scheme://`): an App2App-style https URL on the allowlist, or a URL in an app's own scheme that the
    /// project allowlists as `scheme://` (the demo's `onrampdemo://onramp-return`).
    package static func validateHostedRedirect(_ redirectUrl: String, for project: Project) throws(OnrampError) {
        guard let schemeEnd = redirectUrl.range(of: "://"), RedirectURL.isWellFormed(redirectUrl),
            let scheme = URLComponents(string: redirectUrl)?.scheme?.lowercased(),
            redirectUrl[..<schemeEnd.lowerBound].lowercased() == scheme
        else {
            throw Self.invalid(
                "redirectUrl", "redirectUrl must be an absolute URL (scheme://…) written in RFC 3986 characters.")
        }
        if scheme == "https" || RedirectScheme.web.contains(scheme) {
            return try validateRedirect(redirectUrl, for: project)
        }
        guard project.allowsRedirectScheme(scheme) else {
            throw Self.invalid(
                "redirectUrl",
                "The redirectUrl scheme \(scheme) is not on the project's allowlist (add it as \(scheme)://).")
        }
    }

    private static func invalid(_ field: String, _ message: String) -> OnrampError {
        OnrampError.refusal("invalid_request", message, parameter: field)
    }

}

extension PurchaseRequest {
    /// Reads the fields (shape only; see ``validate(for:catalogue:)`` for meaning).
    package init(fields: RequestFields) throws(FieldError) {
        purchaseCurrency = try fields.required("purchaseCurrency", maxLength: 64)
        destinationNetwork = try fields.required("destinationNetwork", maxLength: 64)
        destinationAddress = try fields.required("destinationAddress", maxLength: 128)
        redirectUrl = try fields.required("redirectUrl", maxLength: 2048)
        paymentAmount = try fields.optional("paymentAmount", maxLength: 40)
        purchaseAmount = try fields.optional("purchaseAmount", maxLength: 40)
        paymentCurrency = try fields.optional("paymentCurrency", maxLength: 8)
        paymentMethod = try fields.optional("paymentMethod", maxLength: 32)
        partnerUserRef = try fields.optional("partnerUserRef", maxLength: 50)
        country = try fields.optional("country", maxLength: 2)
        subdivision = try fields.optional("subdivision", maxLength: 6)
        clientIp = try fields.optional("clientIp", maxLength: 45)
    }

    /// The stored form (camelCase JSON, as received).
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("purchaseCurrency", .string(purchaseCurrency)), ("destinationNetwork", .string(destinationNetwork)),
            ("destinationAddress", .string(destinationAddress)), ("redirectUrl", .string(redirectUrl)),
        ]
        let optionals: [(String, String?)] = [
            ("paymentAmount", paymentAmount), ("purchaseAmount", purchaseAmount), ("paymentCurrency", paymentCurrency),
            ("paymentMethod", paymentMethod), ("partnerUserRef", partnerUserRef), ("country", country),
            ("subdivision", subdivision), ("clientIp", clientIp),
        ]
        for (name, value) in optionals { if let value { members.append((name, .string(value))) } }
        return .object(members)
    }

    /// Restores the stored form.
    package init(stored text: String) throws {
        let value = try JSONParser().parse(text)
        self = try PurchaseRequest(fields: RequestFields(value))
    }
}
