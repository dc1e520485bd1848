import HTTPServer
import OnrampCore
import OnrampServices

/// The hosted onramp's HTML: a select step (what to buy, how much, how to pay), a preview step
/// with the quote and Confirm / Change / Cancel, and short outcome pages. Plain forms, no
/// JavaScript; every value is escaped.
struct HostedOnrampPages: Sendable {
    let catalogue: Catalogue
    let path: String

    /// Where the page posts, with the credentials of this page.
    struct PageCredentials {
        let token: String
        let pageSecret: String

        var hiddenFields: String {
            """
            <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
            <input type="hidden" name="pageSecret" value="\(HTML.escape(pageSecret))">
            """
        }
    }

    func select(
        choices: [HostedOnrampSession.Choice], form: HostedOnrampForm, credentials: PageCredentials, sandbox: Bool,
        error: String? = nil
    ) -> String {
        let options = choices.enumerated().map { index, choice in
            let selected = index == form.choice ? " selected" : ""
            let address = HTML.shortAddress(choice.address)
            let label = "\(choice.asset.symbol) on \(choice.network.displayName) to \(address)"
            return "<option value=\"\(index)\"\(selected)>\(HTML.escape(label))</option>"
        }.joined(separator: "\n")
        let currencies = catalogue.fiatCurrencies.map { fiat in
            let selected = fiat.code == form.currency.uppercased() ? " selected" : ""
            return "<option value=\"\(HTML.escape(fiat.code))\"\(selected)>\(HTML.escape(fiat.code))</option>"
        }.joined(separator: "\n")
        let methods = catalogue.paymentMethods.map { method in
            let selected = method.type.rawValue == form.method ? " selected" : ""
            return
                "<option value=\"\(method.type.rawValue)\"\(selected)>\(HTML.escape(method.type.displayName))</option>"
        }.joined(separator: "\n")
        let amountLabel = form.amountKind == .payment ? "Amount to pay" : "Amount of crypto to receive"
        let body = """
            <h1>Buy crypto</h1>
            \(HTML.sandboxNote(sandbox))
            \(Self.errorNote(error))
            <form method="post" action="\(path)" class="fields">
            \(credentials.hiddenFields)
            <input type="hidden" name="amountKind" value="\(form.amountKind.rawValue)">
            <label for="choice">Asset and network</label>
            <select id="choice" name="choice">
            \(options)
            </select>
            <label for="amount">\(amountLabel)</label>
            <input id="amount" name="amount" inputmode="decimal" autocomplete="off" required value="\(HTML.escape(form.amount))">
            <label for="currency">Pay in</label>
            <select id="currency" name="currency">
            \(currencies)
            </select>
            <label for="method">Pay with</label>
            <select id="method" name="method">
            \(methods)
            </select>
            <div class="actions">
            <button type="submit" name="action" value="preview" class="primary">Preview purchase</button>
            <button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>
            </div>
            </form>
            """
        return HTML.page(title: "Buy crypto", body: body)
    }

    func preview(
        choice: HostedOnrampSession.Choice, quote: App2AppQuote, form: HostedOnrampForm,
        credentials: PageCredentials, sandbox: Bool
    ) -> String {
        let stored = StoredQuote(quote)
        let body = """
            <h1>Buy \(HTML.escape(stored.purchaseAmount)) \(HTML.escape(stored.purchaseCurrency))</h1>
            \(HTML.sandboxNote(sandbox))
            \(HTML.purchaseSummary(stored, networkName: choice.network.displayName, address: choice.address))
            <form method="post" action="\(path)" class="actions">
            \(credentials.hiddenFields)
            \(form.hiddenFields)
            <button type="submit" name="action" value="confirm" class="primary">Confirm</button>
            <button type="submit" name="action" value="change" class="secondary">Change</button>
            <button type="submit" name="action" value="cancel" class="secondary">Cancel</button>
            </form>
            <p class="note">Payment method: \(HTML.escape(quote.paymentMethod.displayName)). Prices are final once you confirm.</p>
            """
        return HTML.page(title: "Confirm your purchase", body: body)
    }

    /// A short page that ends the flow; with `returnURL` it links (and refreshes) back to the partner.
    func message(title: String, text: String, returnURL: String?) -> String {
        let link =
            returnURL.map {
                "<div class=\"actions\"><a class=\"button\" href=\"\(HTML.escape($0))\">Return to the app</a></div>"
            } ?? ""
        return HTML.page(
            title: title, body: "<h1>\(HTML.escape(title))</h1><p>\(HTML.escape(text))</p>\(link)",
            refreshTo: returnURL)
    }

    private static func errorNote(_ error: String?) -> String {
        error.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
    }
}
