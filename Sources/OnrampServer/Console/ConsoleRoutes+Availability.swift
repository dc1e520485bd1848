import HTTPServer
import OnrampCore
import OnrampWire

/// The console's availability page: what the sandbox's catalogue serves a buyer in one country and subdivision
/// (``Availability``), as Coinbase's "Onramp Asset Availability" tool answers it for the real service.
extension ConsoleRoutes {
    func availability(country: String?, subdivision: String?) throws -> (title: String, html: String) {
        var html = availabilityForm(country: country, subdivision: subdivision)
        guard let country else { return ("Availability", html) }
        let found: Availability
        do {
            found = try catalogue.availability(country: country, subdivision: subdivision)
        } catch {
            throw ConsoleRefusal.invalid(error.description)
        }
        let place = found.countryName + (found.subdivision.map { ", \($0)" } ?? "")
        html += "<h2>\(HTML.escape(place))</h2>"
        let embedded =
            found.embedded.available
            ? "served: pays in \(found.embedded.currency ?? "")"
                + (found.embedded.cardsOnly == true ? ", cards only" : ", cards and bank accounts")
            : "not served: \(found.embedded.reason ?? "")"
        html += ConsolePage.fields([
            ("Payment methods (Coinbase)", HTML.escape(found.paymentMethods.joined(separator: ", "))),
            ("Stripe's Embedded onramp", HTML.escape(embedded)),
        ])
        html += ConsolePage.table(
            caption: "Limits per payment method, in each fiat currency",
            headers: ["Currency", "Payment method", "Minimum", "Maximum"],
            rows: found.options.paymentCurrencies.flatMap { currency in
                currency.limits.map { limit in
                    [
                        HTML.escape(currency.id), HTML.escape(limit.id), HTML.escape(limit.min.description),
                        HTML.escape(limit.max.description),
                    ]
                }
            })
        html += ConsolePage.table(
            caption: "Assets and their networks", headers: ["Asset", "Name", "Networks"],
            rows: found.options.purchaseCurrencies.map { asset in
                [
                    HTML.escape(asset.symbol), HTML.escape(asset.name),
                    HTML.escape(asset.networks.map(\.displayName).joined(separator: ", ")),
                ]
            })
        return ("Availability", html)
    }

    /// The lookup form: a country from the catalogue and a subdivision.
    private func availabilityForm(country: String?, subdivision: String?) -> String {
        let options = catalogue.countries.map { entry in
            let selected = entry.id == country?.uppercased() ? " selected" : ""
            return "<option value=\"\(HTML.escape(entry.id))\"\(selected)>\(HTML.escape(entry.name))</option>"
        }.joined()
        return """
            <form method="get" action="/console/availability" class="fields" role="search">
            <label for="country">Country</label><select id="country" name="country">\(options)</select>
            <label for="subdivision">Subdivision (optional, e.g. NY)</label>
            <input id="subdivision" name="subdivision" maxlength="8" value="\(HTML.escape(subdivision ?? ""))">
            <div class="actions"><button class="primary" type="submit">Look up</button></div>
            </form>
            """
    }
}
