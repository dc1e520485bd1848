import HTTPServer
import OnrampCore
import OnrampServices

/// The sell page's two steps, server-rendered without JavaScript: choose what to sell, then review the
/// quote and cash out.
enum OfframpPage {
    static func select(
        session: HostedOnrampSession, choices: [HostedOnrampSession.Choice], presets: HostedOnrampSession.Presets,
        token: String, pageSecret: String, error: String? = nil
    ) -> String {
        // A locked link (one-click, or `disableEdit`) offers only what it presets.
        let offered = choices.enumerated().filter { _, choice in
            !presets.locked
                || (presets.asset.map { $0 == choice.asset.symbol } ?? true)
                    && (presets.network.map { $0 == choice.network.id } ?? true)
        }
        let options = offered.map { index, choice in
            let label =
                "\(choice.asset.symbol) on \(choice.network.displayName) from \(HTML.shortAddress(choice.address))"
            let selected =
                choice.asset.symbol == presets.asset && choice.network.id == presets.network ? " selected" : ""
            return "<option value=\"\(index)\"\(selected)>\(HTML.escape(label))</option>"
        }.joined(separator: "\n")
        let methods = OfframpService.cashoutMethods.filter {
            method in !presets.locked || presets.paymentMethod.map { $0 == method.name } ?? true
        }.map { method in
            let selected = method.name == presets.paymentMethod ? " selected" : ""
            return "<option value=\"\(method.name)\"\(selected)>\(HTML.escape(method.type.displayName))</option>"
        }.joined(separator: "\n")
        let body = """
            <h1>Sell crypto</h1>
            \(HTML.sandboxNote(session.isSandbox))
            \(error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? "")
            <form method="post" action="\(OfframpService.pagePath)" class="fields">
            <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
            <input type="hidden" name="pageSecret" value="\(HTML.escape(pageSecret))">
            <input type="hidden" name="fiatCurrency" value="\(HTML.escape(presets.paymentCurrency ?? "USD"))">
            <label for="choice">Sell</label>
            <select id="choice" name="choice">\(options)</select>
            <label for="sellAmount">Amount</label>
            <input id="sellAmount" name="sellAmount" inputmode="decimal" required value="\(HTML.escape(presets.purchaseAmount ?? ""))"\(presets.locked && presets.purchaseAmount != nil ? " readonly" : "")>
            <label for="cashoutMethod">Cash out to</label>
            <select id="cashoutMethod" name="cashoutMethod">\(methods)</select>
            <div class="actions">
            <button type="submit" name="action" value="preview" class="primary">Preview</button>
            <button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>
            </div>
            </form>
            """
        return HTML.page(title: "Sell crypto", body: body)
    }

    static func preview(
        choice: HostedOnrampSession.Choice, choiceIndex: Int, quote: SellQuote, method: String, token: String,
        pageSecret: String, sandbox: Bool
    ) -> String {
        let fiat = HTML.escape(quote.cashoutTotal.currency)
        let body = """
            <h1>Sell \(HTML.escape(quote.sellAmount.amount.description)) \(HTML.escape(quote.sellAmount.currency))</h1>
            \(HTML.sandboxNote(sandbox))
            <dl>
            <dt>Network</dt><dd>\(HTML.escape(choice.network.displayName))</dd>
            <dt>From wallet</dt><dd title="\(HTML.escape(choice.address))">\(HTML.escape(HTML.shortAddress(choice.address)))</dd>
            <dt>Price</dt><dd>\(HTML.escape(quote.text(quote.unitPrice))) \(fiat)</dd>
            <dt>Subtotal</dt><dd>\(HTML.escape(quote.text(quote.cashoutSubtotal))) \(fiat)</dd>
            <dt>Fee</dt><dd>\(HTML.escape(quote.text(quote.coinbaseFee))) \(fiat)</dd>
            <dt class="total">You receive</dt><dd class="total">\(HTML.escape(quote.text(quote.cashoutTotal))) \(fiat)</dd>
            </dl>
            <form method="post" action="\(OfframpService.pagePath)" class="actions">
            <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
            <input type="hidden" name="pageSecret" value="\(HTML.escape(pageSecret))">
            <input type="hidden" name="choice" value="\(choiceIndex)">
            <input type="hidden" name="sellAmount" value="\(HTML.escape(quote.sellAmount.amount.description))">
            <input type="hidden" name="cashoutMethod" value="\(HTML.escape(method))">
            <input type="hidden" name="fiatCurrency" value="\(fiat)">
            <button type="submit" name="action" value="cashout" class="primary">Cash out now</button>
            <button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
            </form>
            <p class="note">After you cash out, send the crypto from your wallet within 30 minutes; the app shows where.</p>
            """
        return HTML.page(title: "Sell crypto", body: body)
    }
}
