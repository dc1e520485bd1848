import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServices
import OnrampWire

/// The Headless Onramp's route table: Coinbase's `/v2/onramp/orders`, `/limits` and `/verifications`
/// (CDP API key JWT, as the cdp-sdk `OnrampApi` calls them), and the payment-button pages their
/// payment links open. Each handler: input, service call, the answer in its operation's success status.
struct HeadlessRoutes: Sendable {
    let orders: GuestCheckoutService
    let verifications: VerificationService
    let limitUpgrades: LimitUpgradeService
    /// The keys a retried order's or verification's request is fingerprinted with (derived from the data key).
    let idempotencySecrets: IdempotencySecrets

    func createVerification(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let input = try InitiateVerificationRequest(fields: fields(request))
        let claim = try IdempotencyKeyHeader.headless.claim(
            in: request, purpose: "verification", secrets: idempotencySecrets)
        let verification = try verifications.initiate(
            input, projectId: projectId, idempotency: claim)
        return Operations.createVerification.success(verification.initiation.json)
    }

    func submitVerification(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let input = try SubmitVerificationRequest(fields: fields(request))
        let id = request.pathParameters["verificationId"] ?? ""
        return .json(try verifications.submit(id: id, input, projectId: projectId).confirmation.json)
    }

    func userLimits(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        .json(try orders.userLimits(UserLimitsRequest(fields: fields(request)), projectId: projectId).json)
    }

    /// `POST /v2/onramp/limits/upgrade`: in API mode 202 once the request is taken (the outcome shows in
    /// `limitUpgradeOptions`); in embedded mode 200 `{upgradeUrl, expiresAt}` (`OnrampLimitUpgradeEmbeddedResponse`).
    func requestLimitUpgrade(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        guard
            let link = try limitUpgrades.request(LimitUpgradeRequest(fields: fields(request)), projectId: projectId)
        else { return .json([:], status: 202) }
        return .json(
            ["upgradeUrl": .string(link.url), "expiresAt": .string(Timestamp.rfc3339(milliseconds: link.expiresAt))])
    }

    /// GET: the embedded-mode upgrade page's form, while its link can be used.
    func limitUpgradePage(_ request: HTTPRequest) throws -> HTTPResponse {
        let token = request.queryValue("sessionToken") ?? ""
        try limitUpgrades.checkUsable(token: token)
        return LimitUpgradePage.form(token: token, message: nil)
    }

    /// POST: the upgrade page's identity fields. A field that is wrong shows the form again with its message (the
    /// link stays usable); a good submission spends the link and shows where the upgrade stands.
    func submitLimitUpgradePage(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let token = try form.required("sessionToken", maxLength: 64)
        try limitUpgrades.checkUsable(token: token)
        let identity: LimitUpgradeIdentity
        do {
            identity = try LimitUpgradeIdentity(
                ssnLast4: try form.required("ssnLast4", maxLength: 4), day: try form.required("day", maxLength: 2),
                month: try form.required("month", maxLength: 2), year: try form.required("year", maxLength: 4),
                in: form)
        } catch {
            return LimitUpgradePage.form(token: token, message: error.message, status: error.status)
        }
        return LimitUpgradePage.result(try limitUpgrades.submit(token: token, identity))
    }

    /// An order; `X-Onramp-Partner-Id` is part of what a retry under the same `X-Idempotency-Key` must repeat.
    func createOrder(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let partnerId = try EndPartnerRepository.requested(in: request)
        let claim = try IdempotencyKeyHeader.headless.claim(
            in: request, purpose: partnerId.map { "order for \($0)" } ?? "order", secrets: idempotencySecrets)
        let created = try orders.create(
            CreateOrderRequest(fields: fields(request)), projectId: projectId, endPartnerId: partnerId,
            idempotency: claim)
        RequestNotes.current?.noteSubject(created.order.orderId)
        let answer = OnrampOrderAnswer(
            order: created.order.wire(catalogue: orders.catalogue),
            paymentLink: created.paymentLink.map { .init(url: $0.url, paymentLinkType: $0.type) },
            userAuthToken: created.userAuthToken)
        return Operations.createOrder.success(answer.json)
    }

    /// The order, and for an embedded-mode order whose user is verified its `userAuthToken` (for the partner to
    /// keep for the user's next orders).
    func getOrder(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        let order = try orders.order(id: request.pathParameters["orderId"] ?? "", projectId: projectId)
        RequestNotes.current?.noteSubject(order.orderId)
        let answer = OnrampOrderAnswer(
            order: order.wire(catalogue: orders.catalogue), userAuthToken: try orders.userAuthToken(of: order))
        return .json(answer.json)
    }

    /// GET: the embedded-mode page at the step its order is at; once the user is verified, the payment-button
    /// page of its wallet.
    func embeddedOrderPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let token = request.queryValue("sessionToken") ?? ""
        return try inProjectTime(ofLink: token) {
            guard let order = try orders.order(linkToken: token), order.embedded else { return notFound() }
            return embeddedStep(order, token: token, message: nil)
        }
    }

    /// POST: the contact details (`action=contact`, with `phoneNumber`, `email` and the accepted `agreement`) or
    /// the code (`action=verify`, `code`). A refusal shows the step again with its message.
    func submitEmbeddedOrderPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let token = try form.required("sessionToken", maxLength: 64)
        return try inProjectTime(ofLink: token) {
            guard let current = try orders.order(linkToken: token), current.embedded else { return notFound() }
            do {
                let updated: GuestCheckoutOrderRecord?
                switch try form.required("action", maxLength: 16) {
                case "contact":
                    guard try form.optional("agreement", maxLength: 16) == "accepted" else {
                        throw HeadlessFailure.invalid(
                            param: "agreement", message: "Accept the terms and the privacy policy to continue.")
                    }
                    updated = try orders.enterContact(
                        linkToken: token, phone: try form.required("phoneNumber", maxLength: 16),
                        email: try form.required("email", maxLength: 254))
                case "verify":
                    updated = try orders.verify(linkToken: token, code: try form.required("code", maxLength: 6))
                default:
                    throw HeadlessFailure.invalid(param: "action", message: "action must be contact or verify.")
                }
                return embeddedStep(updated ?? current, token: token, message: nil)
            } catch let failure as HeadlessFailure {
                let error = failure.httpError
                return EmbeddedOrderPage.render(
                    try orders.order(linkToken: token) ?? current, token: token, message: error.message,
                    status: error.status)
            } catch let error as FieldError {
                return EmbeddedOrderPage.render(current, token: token, message: error.message, status: error.status)
            } catch let error as HTTPError {
                return EmbeddedOrderPage.render(current, token: token, message: error.message, status: error.status)
            }
        }
    }

    /// The contact or code step, or (verified) a redirect to the wallet's payment-button page.
    private func embeddedStep(_ order: GuestCheckoutOrderRecord, token: String, message: String?) -> HTTPResponse {
        guard order.status == .pendingAuth || order.status == .pendingVerification else {
            return .seeOther("\(order.paymentMethod.pagePath)?sessionToken=\(token)")
        }
        return EmbeddedOrderPage.render(order, token: token, message: message)
    }

    func buttonOrderStatus(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let order = try orders.order(linkToken: request.queryValue("sessionToken") ?? "") else {
            throw HeadlessFailure.orderNotFound
        }
        RequestNotes.current?.noteSubject(order.orderId)
        return .json(PaymentButtonPage.statusJSON(order))
    }

    func sheetScript(_ _: HTTPRequest) throws -> HTTPResponse {
        .text(PaymentButtonPage.script, contentType: "text/javascript; charset=utf-8")
    }

    /// The payment button page of `method`, in the project time of the order its link names.
    func buttonPage(_ method: GuestPaymentMethod) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        { request in
            try inProjectTime(ofLink: request.queryValue("sessionToken")) { try page(request, method: method) }
        }
    }

    /// The payment sheet `method`'s button opens, in the project time of the order its link names.
    func buttonSheet(_ method: GuestPaymentMethod) -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        { request in
            try inProjectTime(ofLink: try request.formBody()["sessionToken"]?.stringValue) {
                try sheet(request, method: method)
            }
        }
    }

    /// Runs `body` in the time of the project whose order the payment link `token` names (its test
    /// clock): the link's lifetime was set in that time. Real time for an unknown link.
    private func inProjectTime(ofLink token: String?, _ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        let projectId = try token.flatMap { try orders.order(linkToken: $0)?.projectId }
        return try orders.schedule.bound(to: projectId, body)
    }

    private func fields(_ request: HTTPRequest) throws(HTTPError) -> RequestFields {
        RequestFields(try request.jsonBody())
    }

    /// GET: the payment-button page (a `HEAD` from a link preview changes nothing either way).
    private func page(_ request: HTTPRequest, method: GuestPaymentMethod) throws -> HTTPResponse {
        let token = request.queryValue("sessionToken") ?? ""
        guard let order = try orders.order(linkToken: token), order.paymentMethod == method else { return notFound() }
        RequestNotes.current?.noteSubject(order.orderId)
        return PaymentButtonPage.render(
            order, networkName: networkName(order), token: token, sheetOpen: false, message: nil,
            expired: orders.nowMilliseconds >= order.linkExpiresAt,
            // Only a sandbox order's sheet may answer itself (`sandbox-` partnerUserRef).
            sandboxSheet: order.sandbox
                ? request.queryValue("sandboxSheet").flatMap(GuestCheckoutService.SheetAction.init(rawValue:)) : nil,
            sandboxDebug: request.queryValue("sandboxDebug") == "1")
    }

    /// POST: the pay button (`open`, without JavaScript) or the sheet's answer. A script asking for JSON
    /// gets the order's status (or the error) instead of the page.
    private func sheet(_ request: HTTPRequest, method: GuestPaymentMethod) throws -> HTTPResponse {
        let form = RequestFields(try request.formBody())
        let token = try form.required("sessionToken", maxLength: 64)
        let actionText = try form.required("action", maxLength: 16)
        let wantsJSON = request.headers["Accept"]?.contains("application/json") ?? false
        guard let current = try orders.order(linkToken: token), current.paymentMethod == method else {
            return wantsJSON ? .json(Self.errorJSON(HeadlessFailure.orderNotFound.httpError), status: 404) : notFound()
        }
        RequestNotes.current?.noteSubject(current.orderId)
        let expired = orders.nowMilliseconds >= current.linkExpiresAt
        if actionText == "open" {
            return PaymentButtonPage.render(
                current, networkName: networkName(current), token: token, sheetOpen: true, message: nil,
                expired: expired)
        }
        guard let action = GuestCheckoutService.SheetAction(rawValue: actionText) else {
            throw FieldError(
                code: "invalid_request", message: "action must be open, approve, decline or cancel.",
                param: "action")
        }
        let order: GuestCheckoutOrderRecord
        do {
            order = try orders.sheet(action, linkToken: token) ?? current
        } catch let failure as HeadlessFailure {
            if wantsJSON { return .json(Self.errorJSON(failure.httpError), status: failure.httpError.status) }
            return PaymentButtonPage.render(
                current, networkName: networkName(current), token: token, sheetOpen: false,
                message: failure.httpError.message, expired: expired)
        }
        if wantsJSON { return .json(PaymentButtonPage.statusJSON(order)) }
        let message = action == .cancel ? "Payment cancelled. You can pay again." : nil
        return PaymentButtonPage.render(
            order, networkName: networkName(order), token: token, sheetOpen: false, message: message,
            expired: expired)
    }

    private func networkName(_ order: GuestCheckoutOrderRecord) -> String {
        (try? orders.catalogue.network(order.quote.network).displayName) ?? order.quote.network
    }

    private static func errorJSON(_ error: HTTPError) -> JSONValue {
        ["errorType": .string(error.code), "errorMessage": .string(error.message)]
    }

    private func notFound() -> HTTPResponse {
        .html(
            HTML.page(
                title: "Payment link not found",
                body: "<h1>Payment link not found</h1><p>This payment link is not valid. Start again from the app.</p>"),
            status: 404)
    }
}
