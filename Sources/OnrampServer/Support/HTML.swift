import OnrampServices

/// Small helpers for the server's hosted pages: escaping and one shared layout. Pages work without
/// JavaScript (plain forms), fit a phone screen, and carry a strict Content-Security-Policy.
enum HTML {
    /// Escapes text for element content and attribute values.
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// The purchase as both hosted flows show it before Confirm: amounts, network, shortened
    /// address, price, fees and total.
    static func purchaseSummary(_ quote: StoredQuote, networkName: String, address: String) -> String {
        let fiat = escape(quote.paymentCurrency)
        let crypto = escape(quote.purchaseCurrency)
        return """
            <dl>
            <dt>You receive</dt><dd>\(escape(quote.purchaseAmount)) \(crypto)</dd>
            <dt>Network</dt><dd>\(escape(networkName))</dd>
            <dt>To wallet</dt><dd title="\(escape(address))">\(escape(shortAddress(address)))</dd>
            <dt>Price</dt><dd>\(escape(quote.exchangeRate)) \(fiat)</dd>
            <dt>Subtotal</dt><dd>\(escape(quote.paymentSubtotal)) \(fiat)</dd>
            <dt>Fee</dt><dd>\(escape(quote.coinbaseFee)) \(fiat)</dd>
            <dt>Network fee</dt><dd>\(escape(quote.networkFee)) \(fiat)</dd>
            <dt class="total">Total</dt><dd class="total">\(escape(quote.paymentTotal)) \(fiat)</dd>
            </dl>
            """
    }

    /// A long address as `0x5290…169EE7`.
    static func shortAddress(_ address: String) -> String {
        address.count > 14 ? "\(address.prefix(6))…\(address.suffix(6))" : address
    }

    /// The banner of a sandbox purchase (empty for live ones).
    static func sandboxNote(_ sandbox: Bool) -> String {
        sandbox ? "<p class=\"sandbox\" role=\"note\">Sandbox purchase: no funds move.</p>" : ""
    }

    /// A complete page with the shared style and the "Sandbox" marker every hosted page carries (a person on
    /// the page can tell it is not Coinbase's or Stripe's); `body` is already-escaped HTML.
    static func page(title: String, body: String, refreshTo refreshURL: String? = nil) -> String {
        let refresh = refreshURL.map { "<meta http-equiv=\"refresh\" content=\"3;url=\(escape($0))\">" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(refresh)
            <title>\(escape(title))</title>
            <style>
            :root { color-scheme: light dark; --accent: #0a7d5a; --muted: #5f6b7a; --card: #ffffff; --bg: #eef2f5; --text: #14202b; }
            @media (prefers-color-scheme: dark) { :root { --card: #17212b; --bg: #0d141b; --text: #e8eef3; --muted: #9aa7b4; } }
            * { box-sizing: border-box; }
            body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
            main { max-width: 28rem; margin: 0 auto; padding: 1.25rem; }
            .card { background: var(--card); border-radius: 1rem; padding: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
            h1 { font-size: 1.35rem; margin: 0 0 1rem; }
            .brand { font-weight: 700; letter-spacing: .02em; color: var(--accent); margin-bottom: .75rem; }
            dl { display: grid; grid-template-columns: auto 1fr; gap: .4rem 1rem; margin: 0 0 1.25rem; }
            dt { color: var(--muted); } dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
            .total { font-weight: 700; }
            .actions { display: grid; gap: .75rem; }
            button, a.button { font: inherit; font-weight: 600; border-radius: .75rem; padding: .9rem 1rem; border: 2px solid var(--accent); cursor: pointer; text-align: center; text-decoration: none; }
            button.primary { background: var(--accent); color: #fff; }
            button.secondary, a.button { background: transparent; color: var(--accent); }
            button:focus-visible, a.button:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
            .note { color: var(--muted); font-size: .875rem; margin-top: 1rem; }
            .fields { display: grid; gap: .35rem; }
            label { color: var(--muted); font-size: .9rem; margin-top: .5rem; }
            input, select { font: inherit; width: 100%; padding: .7rem .75rem; border-radius: .6rem; border: 1px solid var(--muted); background: var(--card); color: var(--text); }
            input:focus-visible, select:focus-visible { outline: 3px solid #f5a623; outline-offset: 1px; }
            .fields .actions { margin-top: 1rem; }
            .error { background: #fde2e1; color: #7a1410; border-radius: .5rem; padding: .5rem .75rem; margin-bottom: 1rem; }
            .marker { font-size: .75rem; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: #5c4400; background: #fff4d6; border-radius: .4rem; padding: .1rem .45rem; margin-left: .35rem; vertical-align: middle; }
            .sandbox { background: #fff4d6; color: #5c4400; border-radius: .5rem; padding: .5rem .75rem; margin-bottom: 1rem; }
            </style>
            </head>
            <body><main><div class="card" role="main"><div class="brand">OnrampKit <span class="marker" title="An OnrampKit sandbox server, not Coinbase or Stripe">Sandbox</span></div>
            \(body)
            </div></main></body>
            </html>
            """
    }
}
