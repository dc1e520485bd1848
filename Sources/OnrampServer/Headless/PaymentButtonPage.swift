import HTTPServer
import OnrampServices
import OnrampWire

/// The payment-button page a guest checkout order's `paymentLink` opens (Coinbase's
/// `/v2/api-onramp/apple-pay?sessionToken=…`). In this sandbox the wallet's sheet is played by the page
/// itself: Approve, Decline or Cancel. It works without JavaScript (forms); with it, the page answers
/// in place and posts the events Coinbase's demo app listens for from its WebView
/// (`components/onramp/APIGuestCheckoutWidget.tsx`): `onramp_api.load_pending`, `load_success`,
/// `commit_success`, `commit_error`, `polling_start`, `polling_success`, `polling_error`, `cancel`, each
/// as `{eventName, data}` to `window.ReactNativeWebView`, `webkit.messageHandlers.cbOnramp` (the iOS
/// WKWebView sample) and the parent frame; with `sandboxDebug=1` the page lists them too.
enum PaymentButtonPage {
    static let scriptPath = "/v2/api-onramp/payment-sheet.js"
    static let statusPath = "/v2/api-onramp/order-status"

    /// The page for `order` (on the network called `networkName`) reached through link `token`; `sheetOpen`
    /// shows the wallet's sheet (the pay button's no-JavaScript answer), `message` reports what the last
    /// action did, and `sandboxSheet` (the link's `sandboxSheet=approve|decline|cancel`) answers the sheet
    /// as soon as the pay button is pressed, for a WebView the user cannot see; `sandboxDebug` (the link's
    /// `sandboxDebug=1`) lists on the page each event the script posts, as it posts it.
    static func render(
        _ order: GuestCheckoutOrderRecord, networkName: String, token: String, sheetOpen: Bool, message: String?,
        expired: Bool, sandboxSheet: GuestCheckoutService.SheetAction? = nil, sandboxDebug: Bool = false
    ) -> HTTPResponse {
        let method = order.paymentMethod
        let payable = order.status == .pendingPayment && !expired
        let summary = HTML.purchaseSummary(order.quote, networkName: networkName, address: order.destinationAddress)
        let status = message ?? statusText(order, expired: expired)
        var body = """
            <h1>Buy \(HTML.escape(order.quote.purchaseAmount)) \(HTML.escape(order.quote.purchaseCurrency))</h1>
            \(HTML.sandboxNote(order.sandbox))
            \(summary)
            <p id="order-status" role="status" aria-live="polite" data-status="\(HTML.escape(order.status.rawValue))">\(HTML.escape(status))</p>
            """
        if payable {
            body += """
                <form method="post" action="\(method.pagePath)" class="actions" id="pay-form">
                <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
                <button type="submit" name="action" value="open" id="\(method.buttonId)" class="primary">Pay with \(method.displayName)</button>
                </form>
                <section id="sheet" aria-labelledby="sheet-title"\(sheetOpen ? "" : " hidden")>
                <h2 id="sheet-title">\(method.displayName) (simulated)</h2>
                <p>Pay \(HTML.escape(order.quote.paymentTotal)) \(HTML.escape(order.quote.paymentCurrency)) to OnrampKit.</p>
                <form method="post" action="\(method.pagePath)" class="actions" id="sheet-form">
                <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
                <button type="submit" name="action" value="approve" id="sheet-approve" class="primary">Approve</button>
                <button type="submit" name="action" value="decline" id="sheet-decline" class="secondary">Decline</button>
                <button type="submit" name="action" value="cancel" id="sheet-cancel" class="secondary">Cancel</button>
                </form>
                </section>
                """
        }
        if sandboxDebug {
            body += """
                <section id="sandbox-events" aria-labelledby="sandbox-events-title">
                <h2 id="sandbox-events-title">Events this page posted (sandboxDebug)</h2>
                <ol id="sandbox-event-list" aria-live="polite"></ol>
                </section>
                """
        }
        body += """
            <script src="\(scriptPath)" data-token="\(HTML.escape(token))" data-status-url="\(statusPath)"\(sandboxSheet.map { " data-sandbox-sheet=\"\($0.rawValue)\"" } ?? "")></script>
            """
        var response = HTTPResponse.html(
            HTML.page(title: "Pay with \(method.displayName)", body: body),
            status: expired && order.status == .pendingPayment ? 410 : 200)
        // Framed only by the order's `domain` (Coinbase requires it for an iframe); a WebView is top-level.
        response.headers.remove("X-Frame-Options")
        let ancestors = order.domain.map(frameAncestors) ?? "'none'"
        response.headers.set(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; "
                + "form-action 'self'; img-src data:; frame-ancestors \(ancestors)")
        return response
    }

    /// The CSP source list for `domain` (`host` or `host:port`): https, and http too for a local one.
    static func frameAncestors(_ domain: String) -> String {
        let host = domain.split(separator: ":").first.map(String.init) ?? domain
        let local = host == "localhost" || host == "127.0.0.1"
        return local ? "https://\(domain) http://\(domain)" : "https://\(domain)"
    }

    static func statusText(_ order: GuestCheckoutOrderRecord, expired: Bool) -> String {
        switch order.status {
        case .pendingAuth: return "Enter your contact details to continue."
        case .pendingVerification: return "Enter the code we sent you."
        case .pendingPayment: return expired ? "This payment link has expired." : "Waiting for payment."
        case .processing: return "Payment approved. Your crypto is on its way."
        case .completed: return "Done: your crypto was sent."
        case .failed:
            switch order.failureReason {
            case .paymentDeclined: return "The payment was declined. Reason: FAILURE_REASON_PAYMENT_DECLINED."
            case .buyFailed:
                return "The purchase failed: the crypto could not be bought. Reason: FAILURE_REASON_BUY_FAILED."
            case .sendFailed:
                return "The purchase failed: the crypto could not be sent. Reason: FAILURE_REASON_SEND_FAILED."
            case nil: return "The purchase failed."
            }
        }
    }

    /// `{orderId, status, txHash?, failureReason?, message}`: what the page's script polls, with the words the
    /// page shows for it.
    static func statusJSON(_ order: GuestCheckoutOrderRecord) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("orderId", .string(order.orderId)), ("status", .string(order.status.rawValue)),
        ]
        if let txHash = order.txHash { members.append(("txHash", .string(txHash))) }
        if let reason = order.failureReason { members.append(("failureReason", .string(reason.rawValue))) }
        members.append(("message", .string(statusText(order, expired: false))))
        return .object(members)
    }

    /// The page's script: answers the sheet in place and posts the widget events.
    static let script = """
        (function () {
          "use strict";
          var me = document.currentScript;
          var token = me.getAttribute("data-token");
          var statusUrl = me.getAttribute("data-status-url");
          var autoAnswer = me.getAttribute("data-sandbox-sheet");
          window.onrampEvents = window.onrampEvents || [];
          // {eventName, data} as the React Native widget reads it, with `payload` too as the web sample reads
          // it; sent as text (both samples accept text). Only the order's own domain can frame this page
          // (frame-ancestors), so the parent it is posted to is that one.
          function post(eventName, data) {
            var message = { eventName: eventName, data: data || {}, payload: data || {} };
            window.onrampEvents.push(message);
            var debugList = document.getElementById("sandbox-event-list");
            if (debugList) {
              var item = document.createElement("li");
              item.textContent = eventName + " " + JSON.stringify(data || {});
              debugList.appendChild(item);
            }
            var text = JSON.stringify(message);
            try { if (window.ReactNativeWebView) { window.ReactNativeWebView.postMessage(text); } } catch (e) {}
            try {
              if (window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.cbOnramp) {
                window.webkit.messageHandlers.cbOnramp.postMessage(message);
              }
            } catch (e) {}
            try { if (window.parent && window.parent !== window) { window.parent.postMessage(text, "*"); } } catch (e) {}
          }
          function show(text, status) {
            var element = document.getElementById("order-status");
            if (element) { element.textContent = text; if (status) { element.setAttribute("data-status", status); } }
          }
          // A final order can no longer be paid: the pay button and the sheet go away for good.
          function finished() {
            ["pay-form", "sheet"].forEach(function (id) {
              var element = document.getElementById(id);
              if (element) { element.hidden = true; element.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }
            });
          }
          function poll(started) {
            fetch(statusUrl + "?sessionToken=" + encodeURIComponent(token), { headers: { Accept: "application/json" } })
              .then(function (response) { return response.json(); })
              .then(function (order) {
                if (order.status === "ONRAMP_ORDER_STATUS_COMPLETED") {
                  finished();
                  show(order.message || "Done: your crypto was sent.", order.status);
                  post("onramp_api.polling_success", { orderId: order.orderId, txHash: order.txHash });
                } else if (order.status === "ONRAMP_ORDER_STATUS_FAILED") {
                  finished();
                  show(order.message || "The purchase failed.", order.status);
                  post("onramp_api.polling_error", { errorCode: order.failureReason || "ORDER_FAILED", errorMessage: order.message || "The purchase failed." });
                } else if (Date.now() - started > 300000) {
                  post("onramp_api.polling_error", { errorCode: "POLLING_TIMEOUT", errorMessage: "The order did not settle in time." });
                } else {
                  setTimeout(function () { poll(started); }, 500);
                }
              })
              .catch(function () {
                if (Date.now() - started > 300000) {
                  post("onramp_api.polling_error", { errorCode: "POLLING_TIMEOUT", errorMessage: "The order did not settle in time." });
                } else {
                  setTimeout(function () { poll(started); }, 1000);
                }
              });
          }
          var answering = false;
          post("onramp_api.load_pending");
          function ready() {
            var sheet = document.getElementById("sheet");
            var payForm = document.getElementById("pay-form");
            var sheetForm = document.getElementById("sheet-form");
            if (payForm && sheet) {
              payForm.addEventListener("submit", function (event) {
                event.preventDefault();
                // A hidden WebView cannot show the sheet: the link's sandboxSheet answers it at once.
                if (autoAnswer) { answer(autoAnswer); } else { sheet.hidden = false; }
              });
            }
            if (sheetForm) {
              sheetForm.addEventListener("submit", function (event) {
                event.preventDefault();
                answer(event.submitter ? event.submitter.value : "cancel");
              });
            }
            function answer(action) {
                if (answering) { return; }  // a double tap answers once
                answering = true;
                var body = new URLSearchParams({ sessionToken: token, action: action });
                fetch(sheetForm.getAttribute("action"), {
                  method: "POST", body: body, headers: { Accept: "application/json" }
                }).then(function (response) {
                  return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
                }).then(function (result) {
                  var order = result.answer;
                  if (sheet) { sheet.hidden = true; }
                  if (action === "cancel") {
                    answering = false;
                    show("Payment cancelled. You can pay again.");
                    post("onramp_api.cancel");
                  } else if (result.ok && (order.status === "ONRAMP_ORDER_STATUS_PROCESSING" || order.status === "ONRAMP_ORDER_STATUS_COMPLETED")) {
                    if (payForm) { payForm.hidden = true; }
                    show("Payment approved. Your crypto is on its way.", order.status);
                    post("onramp_api.commit_success", { orderId: order.orderId });
                    post("onramp_api.polling_start", { orderId: order.orderId });
                    poll(Date.now());
                  } else {
                    finished();
                    var code = order.failureReason || (order.errorType || "COMMIT_FAILED");
                    var message = order.message || order.errorMessage || "The payment was declined.";
                    show(message, order.status);
                    post("onramp_api.commit_error", { errorCode: code, errorMessage: message });
                  }
                }).catch(function () {
                  answering = false;
                  post("onramp_api.commit_error", { errorCode: "NETWORK_ERROR", errorMessage: "The payment could not be sent." });
                });
            }
            post("onramp_api.load_success");
            // Reopened while the order settles: keep reporting it.
            var status = document.getElementById("order-status");
            if (status && status.getAttribute("data-status") === "ONRAMP_ORDER_STATUS_PROCESSING") {
              post("onramp_api.polling_start", {});
              poll(Date.now());
            }
          }
          if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { ready(); }
        })();
        """
}
