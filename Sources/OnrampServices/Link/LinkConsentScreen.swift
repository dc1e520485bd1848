import OnrampCore
import OnrampStore
import OnrampWire

/// The full-consent screen a lookup by LinkAuthIntent hands the SDK (`consent_ui.consent_pane`, decoded
/// by stripe-ios `StripePaymentSheet/…/API Bindings/Link/LinkConsentDataModel.swift`). With it the SDK
/// asks the user after the one-time code and sends the answer to `consumers/sessions/consent_update`;
/// without it the SDK reports consent and sends nothing.
package struct LinkConsentScreen {
    /// What `scope` lets the partner do, as the pane lists it.
    package static func describe(_ scope: OAuthScope) -> (header: String, description: String) {
        switch scope {
        case .kycStatusRead: ("Identity verification", "See whether your identity is verified.")
        case .cryptoRamp: ("Buy crypto", "Use your Link account and payment methods to buy crypto.")
        case .persistLogin: ("Stay signed in", "Sign you in next time without a one-time code.")
        }
    }

    package let partnerName: String
    package let scopes: [OAuthScope]

    /// The screen for `intent`, titled with its project's name.
    package init(_ connection: any SQLConnection, intent: LinkAuthIntents.Record) throws {
        partnerName = try ProjectRepository(connection: connection).name(ofAPIKey: intent.clientId) ?? "This app"
        scopes = intent.scopes
    }

    package var json: JSONValue {
        let items: [JSONValue] = scopes.map { scope in
            let described = Self.describe(scope)
            return ["header": .string(described.header), "description": .string(described.description)]
        }
        return [
            "consent_pane": [
                "title": .string("Connect \(partnerName) with Link"),
                "scopes_section": ["header": .string("\(partnerName) will be able to:"), "scopes": .array(items)],
                "disclaimer": "You can disconnect at any time in your Link account settings.",
                "deny_button_label": "Cancel",
                "allow_button_label": "Allow",
            ]
        ]
    }

    /// ``json`` as a JSON Schema (the keys `LinkConsentDataModel` requires, required).
    package static let schema = APISchema.object(
        [
            "consent_pane": .object(
                [
                    "title": .string,
                    "scopes_section": .object(
                        [
                            "header": .string,
                            "scopes": .array(
                                .object(["header": .string, "description": .string], required: ["description"])),
                        ], required: ["header", "scopes"]),
                    "disclaimer": .string, "deny_button_label": .string, "allow_button_label": .string,
                ], required: ["title", "allow_button_label"])
        ], required: ["consent_pane"])
}
