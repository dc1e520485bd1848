import OnrampCore

/// The wallets guest checkout pays with (cdp-sdk `OnrampOrderPaymentMethodTypeId`), each with its
/// payment-button page.
package enum GuestPaymentMethod: String, Sendable, CaseIterable {
    case applePay = "GUEST_CHECKOUT_APPLE_PAY"
    case googlePay = "GUEST_CHECKOUT_GOOGLE_PAY"

    /// `paymentLink.paymentLinkType` (cdp-sdk `OnrampPaymentLinkType`).
    package var linkType: String {
        switch self {
        case .applePay: return "PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON"
        case .googlePay: return "PAYMENT_LINK_TYPE_GOOGLE_PAY_BUTTON"
        }
    }

    /// `paymentLink.paymentLinkType` of an embedded-mode order, whose link opens the contact step first.
    package static let embeddedOrderLinkType = "PAYMENT_LINK_TYPE_EMBEDDED_ORDER"

    /// The page's path, as Coinbase's links read (`https://pay.coinbase.com/v2/api-onramp/apple-pay?…`).
    package var pagePath: String {
        switch self {
        case .applePay: return "/v2/api-onramp/apple-pay"
        case .googlePay: return "/v2/api-onramp/google-pay"
        }
    }

    /// The wallet's name on the page.
    package var displayName: String {
        switch self {
        case .applePay: return "Apple Pay"
        case .googlePay: return "Google Pay"
        }
    }

    /// The id of the page's pay button, which Coinbase's demo app clicks from its WebView
    /// (`components/onramp/APIGuestCheckoutWidget.tsx`).
    package var buttonId: String {
        switch self {
        case .applePay: return "api-onramp-apple-pay-button"
        case .googlePay: return "gpay-button-online-api-id"
        }
    }
}

/// `POST /v2/onramp/orders` (cdp-sdk `CreateOnrampOrderRequest`), shape only: what each field must look
/// like. Fields it does not know are ignored, as in the rest of the CDP family.
package struct CreateOrderRequest: Sendable, Equatable {
    package var paymentMethod: GuestPaymentMethod
    package var purchaseCurrency: String
    package var destinationNetwork: String
    package var destinationAddress: String
    package var partnerUserRef: String
    package var paymentCurrency: String
    package var paymentAmount: String?
    package var purchaseAmount: String?
    package var isQuote: Bool
    package var agreementAcceptedAt: Int64?
    package var email: String?
    package var phoneNumber: String?
    package var phoneNumberVerifiedAt: Int64?
    package var smsVerificationId: String?
    package var emailVerificationId: String?
    package var partnerOrderRef: String?
    package var domain: String?
    package var locale: String?
    /// An embedded-mode order's token of a user verified before (``UserAuthToken``).
    package var userAuthToken: String?

    /// Whether the order is Coinbase's embedded mode: neither phone number nor email, which the hosted page
    /// collects and verifies.
    package var isEmbedded: Bool { phoneNumber == nil && email == nil }

    /// Whether the order is a sandbox one (`partnerUserRef` starting with `sandbox-`, as on Coinbase).
    package var isSandbox: Bool { partnerUserRef.hasPrefix("sandbox-") }

    package init(fields: RequestFields) throws(FieldError) {
        let methodText = try fields.required("paymentMethod", maxLength: 32)
        guard let method = GuestPaymentMethod(rawValue: methodText) else {
            throw fields.invalid(
                "paymentMethod", "paymentMethod must be GUEST_CHECKOUT_APPLE_PAY or GUEST_CHECKOUT_GOOGLE_PAY.")
        }
        paymentMethod = method
        purchaseCurrency = try fields.required("purchaseCurrency", maxLength: 64)
        destinationNetwork = try fields.required("destinationNetwork", maxLength: 64)
        destinationAddress = try fields.required("destinationAddress", maxLength: 128)
        partnerUserRef = try fields.required("partnerUserRef", maxLength: 50)
        paymentCurrency = try fields.required("paymentCurrency", maxLength: 8)
        paymentAmount = try fields.optional("paymentAmount", maxLength: 40)
        purchaseAmount = try fields.optional("purchaseAmount", maxLength: 40)
        guard (paymentAmount == nil) != (purchaseAmount == nil) else {
            throw fields.invalid("paymentAmount", "Provide exactly one of paymentAmount or purchaseAmount.")
        }
        isQuote = try fields.optionalBool("isQuote") ?? false
        agreementAcceptedAt = try Self.time(fields, "agreementAcceptedAt")
        email = try fields.optional("email", maxLength: 254)?.lowercased()
        if let email, !Verification.isEmailAddress(email) {
            throw fields.invalid("email", "email is not an email address.")
        }
        phoneNumber = try fields.optional("phoneNumber", maxLength: 16)
        if let phoneNumber, (try? PhoneNumber(e164: phoneNumber)) == nil {
            throw fields.invalid("phoneNumber", "phoneNumber is an E.164 number such as +14155550123.")
        }
        phoneNumberVerifiedAt = try Self.time(fields, "phoneNumberVerifiedAt")
        smsVerificationId = try Self.verificationId(fields, "smsVerificationId")
        emailVerificationId = try Self.verificationId(fields, "emailVerificationId")
        partnerOrderRef = try fields.optional("partnerOrderRef", maxLength: 128)
        _ = try fields.optional("clientIp", maxLength: 45)
        userAuthToken = try fields.optional("userAuthToken", maxLength: 512)
        domain = try fields.optional("domain", maxLength: 253)
        if let domain, !Self.isDomain(domain) {
            throw fields.invalid(
                "domain", "domain is a host name such as app.example.com, with a port if any (no scheme or path).")
        }
        locale = try fields.optional("locale", maxLength: 35)
        if let locale, !Self.isLocale(locale) {
            throw fields.invalid("locale", "locale is a BCP 47 tag such as en-US.")
        }
    }

    private static func time(_ fields: RequestFields, _ name: String) throws(FieldError) -> Int64? {
        guard let text = try fields.optional(name, maxLength: 40) else { return nil }
        guard let parsed = Timestamp.parseRFC3339(text), !parsed.dateOnly else {
            throw fields.invalid(name, "\(name) is an RFC 3339 date-time.")
        }
        return parsed.milliseconds
    }

    private static func verificationId(_ fields: RequestFields, _ name: String) throws(FieldError) -> String? {
        guard let id = try fields.optional(name, maxLength: 64) else { return nil }
        guard Verification.isWellFormedId(id) else {
            throw fields.invalid(name, "\(name) is an id returned by POST /v2/onramp/verifications.")
        }
        return id
    }

    /// A host name (letters, digits, `-`, `.`) and an optional `:port`, as a page's `location.host` reads.
    package static func isDomain(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let host = parts.first, !host.isEmpty,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.".contains($0)) })
        else { return false }
        guard parts.count == 2 else { return true }
        return (1...5).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$`.
    package static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}

/// `POST /v2/onramp/limits` (cdp-sdk `GetOnrampUserLimitsRequest`).
package struct UserLimitsRequest: Sendable, Equatable {
    package var paymentMethodType: GuestPaymentMethod
    package var phoneNumber: String

    package init(fields: RequestFields) throws(FieldError) {
        let method = try fields.required("paymentMethodType", maxLength: 32)
        guard let type = GuestPaymentMethod(rawValue: method) else {
            throw fields.invalid(
                "paymentMethodType", "paymentMethodType must be GUEST_CHECKOUT_APPLE_PAY or GUEST_CHECKOUT_GOOGLE_PAY.")
        }
        paymentMethodType = type
        guard try fields.required("userIdType", maxLength: 32) == "phone_number" else {
            throw fields.invalid("userIdType", "userIdType must be phone_number.")
        }
        let userId = try fields.required("userId", maxLength: 16)
        guard (try? PhoneNumber(e164: userId)) != nil else {
            throw fields.invalid("userId", "userId is the user's E.164 phone number.")
        }
        phoneNumber = userId
    }
}

/// `POST /v2/onramp/limits/upgrade` (cdp-sdk 1.51.0 `OnrampLimitUpgradeRequest`): the user's phone number and, in
/// API mode, `fields{ssnLast4, dateOfBirth{day, month, year}}`; in embedded mode (`interactionMode: embedded`) no
/// `fields` (the user enters them on the hosted upgrade page; any sent are refused, as the reference says).
package struct LimitUpgradeRequest: Sendable, Equatable {
    /// How the identity fields arrive.
    package enum Mode: Sendable, Equatable {
        /// In the request, already checked.
        case api(ssnLast4: String)
        /// On the hosted page the answer links to.
        case embedded
    }

    package var phoneNumber: String
    package var mode: Mode

    package init(fields: RequestFields) throws(FieldError) {
        guard try fields.required("userIdType", maxLength: 32) == "phone_number" else {
            throw fields.invalid("userIdType", "userIdType must be phone_number.")
        }
        let userId = try fields.required("userId", maxLength: 16)
        guard (try? PhoneNumber(e164: userId)) != nil else {
            throw fields.invalid("userId", "userId is the user's E.164 phone number.")
        }
        phoneNumber = userId
        let identity = try fields.object("fields")
        switch try fields.optional("interactionMode", maxLength: 16) ?? "api" {
        case "api":
            guard let identity else {
                throw fields.invalid("fields", "Missing required field fields (ssnLast4 and dateOfBirth) in api mode.")
            }
            mode = .api(ssnLast4: try LimitUpgradeIdentity(fields: identity, in: fields).ssnLast4)
        case "embedded":
            guard identity == nil else {
                throw fields.invalid(
                    "fields", "Omit fields in embedded mode: the user enters them on the upgrade page.")
            }
            mode = .embedded
        default: throw fields.invalid("interactionMode", "interactionMode must be api or embedded.")
        }
    }
}

/// A limit upgrade's identity fields: the SSN's last 4 digits and a real date of birth (`fields` of the API
/// request, or the hosted page's form).
package struct LimitUpgradeIdentity: Sendable, Equatable {
    package var ssnLast4: String

    /// The API request's `fields` object (`identity`, reported as `fields.…` of `request`).
    package init(fields identity: RequestFields, in request: RequestFields) throws(FieldError) {
        if let unknown = identity.body.objectValue?.first(where: { !["ssnLast4", "dateOfBirth"].contains($0.0) }) {
            throw request.invalid("fields.\(String(unknown.0.prefix(64)))", "fields takes ssnLast4 and dateOfBirth.")
        }
        guard let dob = try identity.object("dateOfBirth") else {
            throw request.invalid("fields.dateOfBirth", "dateOfBirth is a valid {day, month, year}.")
        }
        try self.init(
            ssnLast4: try identity.required("ssnLast4", maxLength: 4), day: try dob.required("day", maxLength: 2),
            month: try dob.required("month", maxLength: 2), year: try dob.required("year", maxLength: 4),
            reportedAs: "fields.", in: request)
    }

    /// The values one by one (the hosted page's form: `ssnLast4`, `day`, `month`, `year`); a problem is reported
    /// as `prefix` + the field's name.
    package init(
        ssnLast4: String, day: String, month: String, year: String, reportedAs prefix: String = "",
        in request: RequestFields
    ) throws(FieldError) {
        guard ssnLast4.utf8.count == 4, ssnLast4.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw request.invalid(prefix + "ssnLast4", "ssnLast4 is the last 4 digits of the SSN.")
        }
        guard let day = Int(day), let month = Int(month), let year = Int(year), (1900...2100).contains(year),
            (1...12).contains(month), (1...KYCCollection.days(inMonth: month, of: year)).contains(day)
        else { throw request.invalid(prefix + "dateOfBirth", "dateOfBirth is a valid {day, month, year}.") }
        self.ssnLast4 = ssnLast4
    }
}
