import HTTPServer
import OnrampServices
import OnrampWire

/// The page an embedded-mode order's `paymentLink` opens (`PAYMENT_LINK_TYPE_EMBEDDED_ORDER`; Coinbase's is
/// reported at `/v3/api-onramp/embedded-order?sessionToken=…`): where Coinbase's own webview collects the
/// user's contact details, the one-time code and the agreement. Here: a form for the phone number and email
/// (and the terms), then one for the code (the sandbox's `000000`), then the payment-button page of the
/// order's wallet, where the sheet is approved, declined or cancelled as for every order. Forms only, no
/// JavaScript needed.
enum EmbeddedOrderPage {
    static let path = PagePaths.embeddedOrder
    static let linkType = GuestPaymentMethod.embeddedOrderLinkType

    /// The step `order` is at, reached through link `token`; `message` reports what the last submission did.
    static func render(_ order: GuestCheckoutOrderRecord, token: String, message: String?, status: Int = 200)
        -> HTTPResponse
    {
        let hidden = "<input type=\"hidden\" name=\"sessionToken\" value=\"\(HTML.escape(token))\">"
        let notice = message.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        var body = """
            <h1>Buy \(HTML.escape(order.quote.purchaseAmount)) \(HTML.escape(order.quote.purchaseCurrency))</h1>
            \(HTML.sandboxNote(order.sandbox))
            <p id="order-status" role="status" data-status="\(HTML.escape(order.status.rawValue))">\(HTML.escape(PaymentButtonPage.statusText(order, expired: false)))</p>
            \(notice)
            """
        if order.status == .pendingVerification {
            body += """
                <form method="post" action="\(path)" class="fields" id="code-form">
                \(hidden)
                <label for="code">The 6-digit code sent to \(HTML.escape(redacted(order.phoneNumber)))</label>
                <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required>
                <div class="actions"><button class="primary" type="submit" name="action" value="verify" id="verify">Verify</button></div>
                </form>
                """
        }
        body += """
            <form method="post" action="\(path)" class="fields" id="contact-form">
            \(hidden)
            <label for="phone">Phone number</label>
            <input id="phone" name="phoneNumber" type="tel" autocomplete="tel" placeholder="+14155550123" required>
            <label for="email">Email</label>
            <input id="email" name="email" type="email" autocomplete="email" required>
            <label><input type="checkbox" name="agreement" value="accepted" required> I accept the terms and the privacy policy.</label>
            <div class="actions"><button class="\(order.status == .pendingAuth ? "primary" : "secondary")" type="submit" name="action" value="contact" id="send-code">\(order.status == .pendingAuth ? "Send code" : "Send a new code")</button></div>
            </form>
            """
        var response = HTTPResponse.html(HTML.page(title: "Verify to buy crypto", body: body), status: status)
        response.headers.remove("X-Frame-Options")
        response.headers.set(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; img-src data:; frame-ancestors "
                + (order.domain.map(PaymentButtonPage.frameAncestors) ?? "'none'"))
        return response
    }

    /// `+*******0123`: enough of the number for the user to recognise it.
    private static func redacted(_ phone: String) -> String {
        "+" + String(repeating: "•", count: max(0, phone.count - 5)) + String(phone.suffix(4))
    }
}
