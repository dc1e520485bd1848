import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension HeadlessRoutes {
    /// The OpenAPI operations of the Headless Onramp: orders, limits, verifications and the payment-button pages.
    enum Operations {
        // MARK: - Request schemas

        /// A guest checkout wallet (cdp-sdk `OnrampOrderPaymentMethodTypeId`).
        static let paymentMethod = APISchema.enumeration(GuestPaymentMethod.allCases.map(\.rawValue))
        /// An amount as a decimal string of at most 40 characters (`25.00`).
        static let amount = APISchema.string(maxLength: 40, pattern: "^[0-9]+(\\.[0-9]+)?$")
        /// An RFC 3339 date-time of at most 40 characters.
        static let time = APISchema.string(maxLength: 40, format: "date-time")
        /// An E.164 phone number (`+14155550123`).
        static let phoneNumber = APISchema.string(maxLength: 16, pattern: "^\\+[1-9][0-9]{7,14}$")
        /// A `+1` E.164 phone number: guest checkout is for US users.
        static let usPhoneNumber = APISchema.string(maxLength: 16, pattern: "^\\+1[0-9]{7,14}$")
        /// An id `POST /v2/onramp/verifications` returned (`onramp_verification_<lower-case uuid>`).
        static let verificationId = APISchema.string(
            maxLength: 64,
            pattern: "^onramp_verification_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        /// The page's host (`app.example.com`, with a `:port` if any), the only one that may frame it.
        static let domain = APISchema.string(maxLength: 253, pattern: "^[A-Za-z0-9.-]+(:[0-9]{1,5})?$")
        /// A BCP 47 language tag (`en-US`).
        static let locale = APISchema.string(maxLength: 35, pattern: "^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$")

        /// `POST /v2/onramp/verifications` `{channel, destination}`.
        static let verificationRequest = APISchema.object(
            [
                "channel": .enumeration(["sms", "email"]),
                "destination": APISchema.string(minLength: 1, maxLength: 254).described(
                    "An E.164 phone number for sms, an email address for email."),
            ], required: ["channel", "destination"])

        /// `POST /v2/onramp/verifications/{verificationId}/submit` `{otpCode}`.
        static let submitRequest = APISchema.object(
            ["otpCode": APISchema.string(pattern: "^[0-9]{6}$").described("The six-digit code (000000 here).")],
            required: ["otpCode"])

        /// `POST /v2/onramp/limits` (cdp-sdk `GetOnrampUserLimitsRequest`).
        static let limitsRequest = APISchema.object(
            ["paymentMethodType": paymentMethod, "userIdType": .enumeration(["phone_number"]), "userId": phoneNumber],
            required: ["paymentMethodType", "userIdType", "userId"])

        /// `POST /v2/onramp/orders` (cdp-sdk `CreateOnrampOrderRequest`).
        static let orderRequest = APISchema.object(
            [
                "paymentMethod": paymentMethod,
                "purchaseCurrency": APISchema.string(minLength: 1, maxLength: 64),
                "destinationNetwork": APISchema.string(minLength: 1, maxLength: 64),
                "destinationAddress": APISchema.string(minLength: 1, maxLength: 128),
                "partnerUserRef": APISchema.string(minLength: 1, maxLength: 50).described(
                    "`sandbox-…` makes a sandbox order (settles, sends no webhooks, counts toward no limit)."),
                "paymentCurrency": .enumeration(["USD"]),
                "paymentAmount": amount.described("Fiat to pay; send exactly one of the two amounts."),
                "purchaseAmount": amount.described("Crypto to buy; send exactly one of the two amounts."),
                "isQuote": APISchema.boolean.described("Price the order without placing it."),
                "agreementAcceptedAt": time.described("When the user accepted the terms (not in the future)."),
                "email": APISchema.string(maxLength: 254).described("The user's email address."),
                "phoneNumber": usPhoneNumber,
                "phoneNumberVerifiedAt": time.described(
                    "When the app verified the phone (in the last 60 days); needed without smsVerificationId."),
                "smsVerificationId": verificationId,
                "emailVerificationId": verificationId,
                "partnerOrderRef": APISchema.string(maxLength: 128),
                "clientIp": APISchema.string(maxLength: 45),
                "userAuthToken": APISchema.string(maxLength: 512),
                "domain": domain,
                "locale": locale,
            ],
            required: [
                "paymentMethod", "purchaseCurrency", "destinationNetwork", "destinationAddress", "partnerUserRef",
                "paymentCurrency", "agreementAcceptedAt", "email", "phoneNumber",
            ])

        // MARK: - Response schemas

        /// `{verificationId, otpExpiresAt}` (cdp-sdk `OnrampVerificationInitiation`).
        static let verificationInitiation = OnrampVerification.initiationSchema

        /// `{verificationId, verificationExpiresAt}` (cdp-sdk `OnrampVerificationConfirmation`).
        static let verificationConfirmation = OnrampVerification.confirmationSchema

        /// `{limits, limitUpgradeOptions}` (cdp-sdk `GetOnrampUserLimits200Response`), with the statuses an
        /// upgrade takes.
        static let limits = OnrampUserLimits.schema.refining([
            "limitUpgradeOptions": .array(
                OnrampUserLimits.UpgradeOption.schema.refining([
                    "status": .enumeration(LimitUpgradeRepository.Status.allCases.map(\.rawValue))
                ]))
        ])

        /// `POST /v2/onramp/limits/upgrade` (cdp-sdk 1.51.0 `OnrampLimitUpgradeRequest`), API mode.
        static let limitUpgradeRequest = APISchema.object(
            [
                "userIdType": .enumeration(["phone_number"]), "userId": phoneNumber,
                "interactionMode": .enumeration(["api", "embedded"]).described(
                    "api (default) takes fields; embedded answers a hosted page's upgradeUrl and takes no fields."),
                "fields": .object(
                    [
                        "ssnLast4": .string(minLength: 4, maxLength: 4, pattern: "^[0-9]{4}$").described(
                            "Sandbox: 0000 activates at once, 9999 asks again, others stay pending."),
                        "dateOfBirth": .object(
                            [
                                "day": .string(maxLength: 2), "month": .string(maxLength: 2),
                                "year": .string(maxLength: 4),
                            ],
                            required: ["day", "month", "year"]),
                    ], required: ["ssnLast4", "dateOfBirth"]),
            ], required: ["userIdType", "userId", "fields"])

        /// An order's status.
        static let orderStatus = APISchema.enumeration(GuestCheckoutOrder.Status.allCases.map(\.rawValue))

        /// The `OnrampOrder` object (cdp-sdk `onramp_order.py`), with the payment methods and statuses it takes.
        static let order = OnrampOrder.schema.refining(["paymentMethod": paymentMethod, "status": orderStatus])

        /// The link to the order's payment-button page (or the embedded-mode page).
        static let paymentLink = OnrampOrderAnswer.PaymentLink.schema.refining([
            "paymentLinkType": .enumeration(GuestPaymentMethod.allCases.map(\.linkType) + [EmbeddedOrderPage.linkType])
        ])

        /// `{order, paymentLink}`: a quote (`isQuote`) has no payment link.
        static let createdOrder = OnrampOrderAnswer.schema.refining(["order": order, "paymentLink": paymentLink])

        /// `{order}`.
        static let orderAnswer = APISchema.object(["order": order, "userAuthToken": .string], required: ["order"])

        /// `{orderId, status, txHash?, failureReason?}`: what the payment-button page's script polls.
        static let buttonStatus = APISchema.object(
            [
                "orderId": .string, "status": orderStatus, "txHash": .string,
                "failureReason": .enumeration(GuestCheckoutOrder.FailureReason.allCases.map(\.rawValue)),
                "message": APISchema.string.described("What the page tells the person, the failure's reason included."),
            ], required: ["orderId", "status", "message"])

        // MARK: - The API

        /// The idempotency headers of order and verification creation; `X-Idempotency-Key` wins when both are sent.
        static let idempotencyHeaders = [
            APIParameter("X-Idempotency-Key", .string(minLength: 1, maxLength: 128)),
            APIParameter("Idempotency-Key", .string(minLength: 1, maxLength: 128)),
        ]

        /// `POST /platform/v2/onramp/verifications`.
        static let createVerification = APIOperation.cdp(
            "POST /platform/v2/onramp/verifications",
            "createHeadlessVerification",
            "Sends a one-time code to a phone number or email address (a retry under the same X-Idempotency-Key sends none).",
            tag: "Headless", auth: .apiKeyJWT, headers: idempotencyHeaders, body: verificationRequest, status: 201,
            response: verificationInitiation)

        /// `POST /platform/v2/onramp/verifications/{verificationId}/submit`.
        static let submitVerification = APIOperation.cdp(
            "POST /platform/v2/onramp/verifications/{verificationId}/submit",
            "submitHeadlessVerification", "Submits the one-time code, verifying the destination for 60 days.",
            tag: "Headless", auth: .apiKeyJWT, body: submitRequest, response: verificationConfirmation)

        /// `POST /platform/v2/onramp/limits`.
        static let userLimits = APIOperation.cdp(
            "POST /platform/v2/onramp/limits",
            "getHeadlessUserLimits", "Returns a guest's weekly spending and lifetime order limits and what is left.",
            tag: "Headless", auth: .apiKeyJWT, body: limitsRequest, response: limits)

        /// `POST /platform/v2/onramp/limits/upgrade`: 202 in API mode, 200 with the hosted page in embedded mode.
        static let requestLimitUpgrade: APIOperation = {
            var operation = APIOperation.cdp(
                "POST /platform/v2/onramp/limits/upgrade",
                "requestHeadlessLimitUpgrade",
                "Requests a guest's limit upgrade: with identity fields (API mode), or a link to the hosted page (embedded mode).",
                tag: "Headless", auth: .apiKeyJWT, body: limitUpgradeRequest, status: 202, response: .object([:]))
            operation.responses.insert(
                .json(
                    200, "Embedded mode: the single-use upgrade page and when its link expires.",
                    .object(["upgradeUrl": .string, "expiresAt": .dateTime], required: ["upgradeUrl", "expiresAt"])),
                at: 0)
            return operation
        }()

        /// `POST /platform/v2/onramp/orders`.
        static let createOrder = APIOperation.cdp(
            "POST /platform/v2/onramp/orders",
            "createHeadlessOrder", "Creates a guest checkout order (or prices one) with its payment link.",
            tag: "Headless", auth: .apiKeyJWT,
            headers: idempotencyHeaders + [EndPartnerRepository.headerParameter], body: orderRequest, status: 201,
            response: createdOrder)

        /// `GET /platform/v2/onramp/orders/{orderId}`.
        static let getOrder = APIOperation.cdp(
            "GET /platform/v2/onramp/orders/{orderId}",
            "getHeadlessOrder", "Returns a guest checkout order of the project.", tag: "Headless", auth: .apiKeyJWT,
            response: orderAnswer)

        // MARK: - The payment-button pages

        /// The payment link's token.
        static let linkToken = APIParameter("sessionToken", .string(minLength: 1, maxLength: 64), required: true)

        /// The query of a payment-button page: the link's token, and a sandbox order's automatic sheet answer.
        static let buttonQuery = [
            linkToken,
            APIParameter(
                "sandboxSheet",
                APISchema.string.described("approve, decline or cancel: a sandbox order's sheet answers itself.")),
            APIParameter(
                "sandboxDebug", APISchema.string.described("1: the page lists each event it posts, as it posts it.")),
        ]

        /// The form the page's buttons post.
        static let sheetForm = APISchema.object(
            [
                "sessionToken": .string(minLength: 1, maxLength: 64),
                "action": .enumeration(["open", "approve", "decline", "cancel"]),
            ], required: ["sessionToken", "action"])

        /// `GET /v2/api-onramp/apple-pay`.
        static let applePayPage = APIOperation.page(
            "GET \(GuestPaymentMethod.applePay.pagePath)", "getApplePayButtonPage",
            "Shows an Apple Pay order's payment-button page.", tag: "Headless",
            query: buttonQuery)

        /// `POST /v2/api-onramp/apple-pay`.
        static let applePaySheet = APIOperation.page(
            "POST \(GuestPaymentMethod.applePay.pagePath)", "submitApplePaySheet",
            "Opens the simulated Apple Pay sheet, or approves, declines or cancels it.",
            tag: "Headless", form: sheetForm)

        /// `GET /v2/api-onramp/google-pay`.
        static let googlePayPage = APIOperation.page(
            "GET \(GuestPaymentMethod.googlePay.pagePath)", "getGooglePayButtonPage",
            "Shows a Google Pay order's payment-button page.", tag: "Headless",
            query: buttonQuery)

        /// `POST /v2/api-onramp/google-pay`.
        static let googlePaySheet = APIOperation.page(
            "POST \(GuestPaymentMethod.googlePay.pagePath)", "submitGooglePaySheet",
            "Opens the simulated Google Pay sheet, or approves, declines or cancels it.",
            tag: "Headless", form: sheetForm)

        /// `GET /v2/api-onramp/upgrade-limits`.
        static let limitUpgradePage = APIOperation.page(
            "GET \(LimitUpgradePage.path)",
            "getLimitUpgradePage", "Shows an embedded-mode limit upgrade's form while its link can be used.",
            tag: "Headless", query: [linkToken])

        /// `POST /v2/api-onramp/upgrade-limits`.
        static let submitLimitUpgradePage = APIOperation.page(
            "POST \(LimitUpgradePage.path)",
            "submitLimitUpgradePage", "Takes the identity fields of an embedded-mode limit upgrade, once.",
            tag: "Headless",
            form: .object(
                [
                    "sessionToken": .string(maxLength: 64), "ssnLast4": .string(maxLength: 4),
                    "day": .string(maxLength: 2), "month": .string(maxLength: 2), "year": .string(maxLength: 4),
                ], required: ["sessionToken", "ssnLast4", "day", "month", "year"]))

        /// `GET /v3/api-onramp/embedded-order`.
        static let embeddedOrderPage = APIOperation.page(
            "GET \(EmbeddedOrderPage.path)",
            "getEmbeddedOrderPage",
            "Shows an embedded-mode order's page: contact details, then the code, then the payment button.",
            tag: "Headless", query: buttonQuery)

        /// `POST /v3/api-onramp/embedded-order`.
        static let submitEmbeddedOrderPage = APIOperation.page(
            "POST \(EmbeddedOrderPage.path)",
            "submitEmbeddedOrderPage", "Takes an embedded-mode order's contact details or code.", tag: "Headless",
            form: .object(
                [
                    "sessionToken": .string(maxLength: 64), "action": .enumeration(["contact", "verify"]),
                    "phoneNumber": .string(maxLength: 16), "email": .string(maxLength: 254),
                    "agreement": .enumeration(["accepted"]), "code": .string(maxLength: 6),
                ], required: ["sessionToken", "action"]))

        /// The payment-button page of `method`.
        static func buttonPage(for method: GuestPaymentMethod) -> APIOperation {
            switch method {
            case .applePay: applePayPage
            case .googlePay: googlePayPage
            }
        }

        /// The sheet submission of `method`'s page.
        static func buttonSheet(for method: GuestPaymentMethod) -> APIOperation {
            switch method {
            case .applePay: applePaySheet
            case .googlePay: googlePaySheet
            }
        }

        /// The pages' error answers: HTML, as every path under `/v2/api-onramp/` renders them.
        static let pageErrors = [
            APIResponse(status: "4XX", description: "A page explaining the refusal.", contentType: "text/html"),
            APIResponse(status: "5XX", description: "The server or its store failed.", contentType: "text/html"),
        ]

        /// `GET /v2/api-onramp/order-status`: JSON, but its errors are pages.
        static let buttonOrderStatus = APIOperation(
            "GET \(PaymentButtonPage.statusPath)",
            id: "getPaymentButtonOrderStatus", summary: "Returns the status of the order a payment link names.",
            tag: "Headless", query: [linkToken],
            responses: [APIResponse.json(200, "The order's status.", buttonStatus)] + pageErrors)

        /// `GET /v2/api-onramp/payment-sheet.js`.
        static let sheetScript = APIOperation(
            "GET \(PaymentButtonPage.scriptPath)",
            id: "getPaymentSheetScript", summary: "Returns the payment-button page's script.", tag: "Headless",
            responses: [
                APIResponse(
                    status: "200", description: "The script.", contentType: "text/javascript", schema: .string)
            ] + pageErrors)
    }
}
