import HTTPServer
import OnrampServices

/// The page an embedded-mode limit upgrade's `upgradeUrl` opens (Coinbase's is reported at
/// `/v2/api-onramp/upgrade-limits?sessionToken=…`): a form for the last 4 digits of the SSN and the date of
/// birth, then where the upgrade stands. A form only, no JavaScript needed; the link works once.
enum LimitUpgradePage {
    static let path = PagePaths.limitUpgrade

    /// The form for link `token`; `message` says what was wrong with the last submission.
    static func form(token: String, message: String?, status: Int = 200) -> HTTPResponse {
        let notice = message.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let body = """
            <h1>Raise your limits</h1>
            <p>Confirm who you are to raise your weekly limit.</p>
            <p class="sandbox" role="note">Sandbox: 0000 as the last 4 digits activates the upgrade at once, 9999 asks again, others stay under review.</p>
            \(notice)
            <form method="post" action="\(path)" class="fields" id="upgrade-form">
            <input type="hidden" name="sessionToken" value="\(HTML.escape(token))">
            <label for="ssnLast4">Last 4 digits of your SSN</label>
            <input id="ssnLast4" name="ssnLast4" inputmode="numeric" pattern="[0-9]{4}" maxlength="4" autocomplete="off" required>
            <fieldset><legend>Date of birth</legend>
            <label for="month">Month</label><input id="month" name="month" inputmode="numeric" maxlength="2" autocomplete="bday-month" required>
            <label for="day">Day</label><input id="day" name="day" inputmode="numeric" maxlength="2" autocomplete="bday-day" required>
            <label for="year">Year</label><input id="year" name="year" inputmode="numeric" maxlength="4" autocomplete="bday-year" required>
            </fieldset>
            <div class="actions"><button class="primary" type="submit" id="submit-upgrade">Submit</button></div>
            </form>
            """
        return restricted(.html(HTML.page(title: "Raise your limits", body: body), status: status))
    }

    /// Where the upgrade stands after the submission.
    static func result(_ status: LimitUpgradeRepository.Status) -> HTTPResponse {
        let text =
            switch status {
            case .active: "Your limits are raised."
            case .resubmit: "We could not confirm your details. Ask the app for a new link and try again."
            default: "Thanks. Your details are under review."
            }
        let body = """
            <h1>Raise your limits</h1>
            <p id="upgrade-status" role="status" data-status="\(HTML.escape(status.rawValue))">\(HTML.escape(text))</p>
            <p>You can return to the app.</p>
            """
        return restricted(.html(HTML.page(title: "Raise your limits", body: body)))
    }

    /// Forms posted to this page only; never framed (a WebView opens it, as Coinbase's upgrade page).
    private static func restricted(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; img-src data:; frame-ancestors 'none'")
        return response
    }
}
