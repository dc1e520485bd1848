import HTTPServer
import OnrampServices
import OnrampWire

extension ConsoleRoutes {
    /// What the console's pages take and answer: HTML for a browser, the operator's cookie (or bearer
    /// token) as the credential; a page without it is the sign-in form (401).
    enum Operations {
        /// The credential every console page needs.
        private static let security = [["consoleCookie"], ["consoleToken"]]

        private static func consolePage(
            _ route: String, _ id: String, _ summary: String, query: [APIParameter] = [], form: APISchema? = nil
        ) -> APIOperation {
            var operation = APIOperation.page(route, id, summary, tag: "Console", query: query, form: form)
            operation.security = security
            return operation
        }

        /// A page's `finished`: the settle or fail action that just ran.
        private static let finished = APIParameter("finished", .enumeration(["settled", "failed"]))

        /// A paged list's `before`: where the previous page's "Older" link continues.
        private static let older = APIParameter(
            "before", .string(maxLength: 160).described("The previous page's Older link."))

        /// An action's form: the CSRF value of the signed-in console, and the action's fields.
        private static func action(_ fields: KeyValuePairs<String, APISchema> = [:], optional: Set<String> = [])
            -> APISchema
        {
            var properties: [(String, APISchema)] = [("csrf", .string(minLength: 64, maxLength: 64))]
            properties += fields.map { ($0.key, $0.value) }
            return APISchema(
                json: [
                    "type": "object", "properties": .object(properties.map { ($0.0, $0.1.json) }),
                    "required": .array(properties.filter { !optional.contains($0.0) }.map { .string($0.0) }),
                ])
        }

        /// `GET /`.
        static let home = consolePage("GET /", "getConsoleHome", "The console's start: the newest 50 projects.")
        /// `GET /console`.
        static let projects = consolePage(
            "GET /console",
            "listConsoleProjects", "Every project with its transactions and events, newest first, 50 a page.",
            query: [older])
        /// `GET /console/login`.
        static let showLogin = APIOperation.page(
            "GET /console/login",
            "showConsoleSignIn", "The sign-in form, or signs in with ?token= and sends the browser to /console.",
            tag: "Console", query: [APIParameter("token", .string(maxLength: 256))])
        /// `POST /console/login`.
        static let submitLogin = APIOperation.page(
            "POST /console/login",
            "submitConsoleSignIn", "Signs in with the operator token (sets the console cookie).", tag: "Console",
            form: .object(["token": .string(maxLength: 256)], required: ["token"]))
        /// `POST /console/logout`.
        static let logout = consolePage(
            "POST /console/logout", "submitConsoleSignOut", "Signs out (clears the cookie).", form: action())
        /// `GET /console/projects/{id}`.
        static let project = consolePage(
            "GET /console/projects/{id}",
            "showConsoleProject", "A project: App IDs, redirect hosts, keys, App Attest keys, transactions, endpoints.",
            query: [APIParameter("clock", .string(maxLength: 16)), APIParameter("key", .string(maxLength: 16))])
        /// `GET /console/projects/{id}/lists/{list}`.
        static let projectList = consolePage(
            "GET /console/projects/{id}/lists/{list}",
            "listConsoleProjectObjects",
            "One of a project's lists (\(ConsoleProjectList.all.map(\.slug).joined(separator: ", "))), newest first, 50 a page.",
            query: [older])
        /// `GET /console/transactions/{id}`.
        static let transaction = consolePage(
            "GET /console/transactions/{id}",
            "showConsoleTransaction", "An App2App transaction and its state history.",
            query: [finished])
        /// `POST /console/endpoints/{id}`.
        static let changeEndpoint = consolePage(
            "POST /console/endpoints/{id}",
            "changeConsoleEndpoint", "Enables or disables a webhook endpoint, or fails its next deliveries.",
            form: action(
                [
                    "action": .enumeration(["enable", "disable", "fail"]), "count": .string(pattern: "^[0-9]{1,3}$"),
                ], optional: ["count"]))
        /// `POST /console/keys/revoke`.
        static let revokeKey = consolePage(
            "POST /console/keys/revoke",
            "revokeConsoleKey", "Revokes an API key for good (a CDP key id holds slashes, so it is a form field).",
            form: action(["key": .string(minLength: 1, maxLength: 256)]))
        /// `POST /console/transactions/{id}/settle`.
        static let settle = consolePage(
            "POST /console/transactions/{id}/settle",
            "settleConsoleTransaction", "Settles a pending App2App transaction now, as the provider decides.",
            form: action())
        /// `POST /console/transactions/{id}/fail`.
        static let fail = consolePage(
            "POST /console/transactions/{id}/fail",
            "failConsoleTransaction", "Fails a pending App2App transaction now (FAILURE_REASON_BUY_FAILED).",
            form: action())
        /// `GET /console/hosted_sessions/{id}`.
        static let hostedSession = consolePage(
            "GET /console/hosted_sessions/{id}",
            "showConsoleHostedSession",
            "A hosted onramp or sell session: kind, presets, outcome, its transaction and its timeline.")
        /// `GET /console/sells/{id}`.
        static let sell = consolePage(
            "GET /console/sells/{id}",
            "showConsoleSell", "A sell (offramp transaction): its quote, deposit, state history and timeline.",
            query: [finished])
        /// `POST /console/sells/{id}/settle` and `…/fail`.
        static let sellActions = (
            settle: consolePage(
                "POST /console/sells/{id}/settle", "settleConsoleSell",
                "Takes a waiting sell's deposit now, as the simulator decides.", form: action()),
            fail: consolePage(
                "POST /console/sells/{id}/fail", "failConsoleSell", "Fails a waiting sell now.", form: action())
        )
        /// `GET /console/orders/{id}`.
        static let order = consolePage(
            "GET /console/orders/{id}",
            "showConsoleOrder", "A Headless order and its state history.", query: [finished])
        /// `POST /console/orders/{id}/settle` and `…/fail`.
        static let orderActions = (
            settle: consolePage(
                "POST /console/orders/{id}/settle", "settleConsoleOrder",
                "Settles a paid Headless order now, as the provider decides.", form: action()),
            fail: consolePage(
                "POST /console/orders/{id}/fail", "failConsoleOrder",
                "Fails a paid Headless order now (FAILURE_REASON_BUY_FAILED).", form: action())
        )
        /// `GET /console/customers/{id}`.
        static let customer = consolePage(
            "GET /console/customers/{id}",
            "showConsoleCustomer",
            "An Embedded crypto customer: KYC tiers, verifications, wallets, payment tokens, sessions.")
        /// `GET /console/onramp_sessions/{id}`.
        static let onrampSession = consolePage(
            "GET /console/onramp_sessions/{id}",
            "showConsoleOnrampSession", "An Embedded onramp session and its transitions.", query: [finished])
        /// `POST /console/onramp_sessions/{id}/settle` and `…/fail`.
        static let sessionActions = (
            settle: consolePage(
                "POST /console/onramp_sessions/{id}/settle", "settleConsoleOnrampSession",
                "Completes a test-mode session's fulfilment now, as the provider decides.",
                form: action()),
            fail: consolePage(
                "POST /console/onramp_sessions/{id}/fail", "failConsoleOnrampSession",
                "Fails a test-mode session's fulfilment now.", form: action())
        )
        /// `GET /console/events`.
        static let events = consolePage(
            "GET /console/events",
            "listConsoleEvents", "The newest events, 50 a page, of one type when asked.",
            query: [
                APIParameter("type", .string(maxLength: 128)),
                APIParameter("before", .string(maxLength: 96).described("The previous page's Older events link.")),
            ])
        /// `GET /console/events/{id}`.
        static let event = consolePage(
            "GET /console/events/{id}",
            "showConsoleEvent", "An event as sent, and every delivery attempt to every endpoint.",
            query: [APIParameter("resent", .string(maxLength: 8))])
        /// `POST /console/events/{id}/resend`.
        static let resend = consolePage(
            "POST /console/events/{id}/resend",
            "resendConsoleEvent", "Delivers a test-mode event to one endpoint again.",
            form: action(["subscription": .string(minLength: 1, maxLength: 128)]))
        /// `POST /console/projects/{id}/clock`.
        static let advanceClock = consolePage(
            "POST /console/projects/{id}/clock",
            "advanceConsoleTestClock", "Moves a test-mode project's clock ahead.",
            form: action(["minutes": .string(pattern: "^[0-9]{1,5}$")]))
        /// `GET /console/requests`.
        static let requests = consolePage(
            "GET /console/requests",
            "listConsoleRequests", "The last requests answered, searchable by Request-Id.",
            query: [APIParameter("request_id", .string(maxLength: 128))])
        /// `GET /console/availability`.
        static let availability = consolePage(
            "GET /console/availability",
            "showConsoleAvailability",
            "What the catalogue serves in a country and subdivision: payment methods, limits, assets and networks.",
            query: [
                APIParameter("country", .string(maxLength: 8)), APIParameter("subdivision", .string(maxLength: 8)),
            ])
        /// `GET /console/requests/{id}`.
        static let request = consolePage(
            "GET /console/requests/{id}",
            "showConsoleRequest",
            "One request of the log: route, status, refusal, what it acted on, and both bodies, secrets redacted.")
    }
}
