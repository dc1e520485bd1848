import HTTPServer
import OnrampCore
import OnrampWire

extension App2AppRoutes {
    /// The OpenAPI operations of the App2App mobile endpoints, in the seed's form and the cdp-sdk form.
    enum Operations {
        /// The tag of every App2App operation.
        static let tag = "App2App"

        // MARK: - Challenges

        /// A new challenge, valid for 5 minutes.
        static let challenge = APISchema.object(
            [
                "challenge": APISchema.string.described(
                    "32 random bytes: unpadded base64url (seed form) or padded base64 (cdp-sdk form)."),
                "expiresAt": .dateTime,
            ], required: ["challenge", "expiresAt"])

        /// `POST …/projects/{projectId}/attestation/challenges`: the seed's registration challenge.
        static let createRegistrationChallenge = APIOperation.cdp(
            "createRegistrationChallenge", "Creates an App Attest registration challenge for the project in the path.",
            tag: tag, auth: .none, status: 201, response: challenge)

        /// `POST …/attestation/challenges`: the cdp-sdk's registration challenge, for the API key's project.
        static let createRegistrationChallengeWithAPIKey = APIOperation.cdp(
            "createRegistrationChallengeWithAPIKey",
            "Creates an App Attest registration challenge for the API key's project.", tag: tag, auth: .apiKeyJWT,
            status: 201, response: challenge)

        // MARK: - Registration

        /// The `android` payload, which is refused: App2App takes App Attest (`ios`) only.
        static let unsupportedAndroid = APISchema(json: ["type": "null"]).described(
            "Android (Play Integrity) is not supported: any value but null is refused.")

        /// The `ios` payload of a registration; `keyId` may be left out when the path names it.
        static func iosAttestation(keyIdRequired: Bool) -> APISchema {
            .object(
                [
                    "keyId": .string(minLength: 1, maxLength: 64),
                    "attestation": APISchema.string(minLength: 1, maxLength: 16384).described(
                        "The App Attest attestation object, base64 or base64url."),
                    "bundleId": .string(maxLength: 255),
                ], required: keyIdRequired ? ["keyId", "attestation"] : ["attestation"])
        }

        /// A registration request: a registration challenge and the attested key.
        static func registration(keyIdRequired: Bool) -> APISchema {
            .object(
                [
                    "challenge": .string(minLength: 1, maxLength: 64),
                    "ios": iosAttestation(keyIdRequired: keyIdRequired),
                    "android": unsupportedAndroid,
                ], required: ["challenge", "ios"])
        }

        /// A registered key.
        static let registeredKey = APISchema.object(
            ["appId": .string, "keyId": .string, "platform": .constant("ios"), "attestedAt": .dateTime],
            required: ["appId", "keyId", "platform", "attestedAt"])

        /// `POST …/projects/{projectId}/attestation/registrations`: the seed's registration.
        static let registerProjectAttestationKey = APIOperation.cdp(
            "registerProjectAttestationKey",
            "Verifies an App Attest attestation for the project in the path and registers its key.", tag: tag,
            auth: .none, body: registration(keyIdRequired: true), response: registeredKey)

        /// `PUT …/projects/{projectId}/attestation/registrations/{keyId}`: the seed's registration by key id.
        static let putProjectAttestationKey = APIOperation.cdp(
            "putProjectAttestationKey",
            "Verifies an App Attest attestation for the key in the path and registers or replaces it.", tag: tag,
            auth: .none, body: registration(keyIdRequired: false), response: registeredKey)

        /// `POST …/attestation/registrations`: the cdp-sdk's registration (the challenge names the project).
        static let registerAttestationKey = APIOperation.cdp(
            "registerAttestationKey",
            "Verifies an App Attest attestation for the challenge's project and registers its key.", tag: tag,
            auth: .none, body: registration(keyIdRequired: true), response: registeredKey)

        // MARK: - Purchase challenges

        /// The idempotency headers of a purchase challenge.
        static let idempotencyHeaders = [
            APIParameter("Idempotency-Key", .string(minLength: 1, maxLength: 255)),
            APIParameter(
                "X-Idempotency-Key",
                APISchema.string(minLength: 1, maxLength: 255).described("Read when Idempotency-Key is absent.")),
        ]

        /// A decimal amount, of which a purchase takes exactly one.
        static let purchaseAmount = APISchema.decimalString.described(
            "Exactly one of paymentAmount (fiat, fees included) and purchaseAmount (crypto) is required.")

        /// The payment method of a purchase.
        static let paymentMethod = APISchema.enumeration(PaymentMethodType.allCases.map(\.rawValue))

        /// The fields of a purchase challenge; `projectId` as the form takes it.
        static func purchase(projectId: APISchema, required: [String]) -> APISchema {
            .object(
                [
                    "projectId": projectId,
                    "purchaseCurrency": .string(minLength: 1, maxLength: 64),
                    "destinationNetwork": .string(minLength: 1, maxLength: 64),
                    "destinationAddress": .string(minLength: 1, maxLength: 128),
                    "redirectUrl": APISchema.string(minLength: 1, maxLength: 2048).described(
                        "An absolute https URL whose host is on the project's domain allowlist."),
                    "paymentAmount": purchaseAmount,
                    "purchaseAmount": purchaseAmount,
                    "paymentCurrency": APISchema.string(maxLength: 8).described("USD when absent."),
                    "paymentMethod": paymentMethod,
                    "partnerUserRef": APISchema.string(maxLength: 50).described(
                        "The partner's user; a ref starting with sandbox- makes the purchase a dry run."),
                    "country": .string(pattern: "^[A-Z]{2}$"),
                    "subdivision": .string(pattern: "^[A-Za-z0-9]{1,6}$"),
                    "clientIp": .string(maxLength: 45),
                ],
                required: required + ["purchaseCurrency", "destinationNetwork", "destinationAddress", "redirectUrl"])
        }

        /// `POST …/challenges`: the seed's purchase challenge.
        static let createPurchaseChallenge = APIOperation.cdp(
            "createPurchaseChallenge", "Creates a purchase challenge carrying the validated purchase.", tag: tag,
            auth: .none, headers: idempotencyHeaders,
            body: purchase(projectId: .string(minLength: 1, maxLength: 64), required: ["projectId"]), status: 201,
            response: challenge)

        /// `POST …/sessions/challenges`: the cdp-sdk's purchase challenge, for the API key's project.
        static let createPurchaseChallengeWithAPIKey = APIOperation.cdp(
            "createPurchaseChallengeWithAPIKey",
            "Creates a purchase challenge carrying the validated purchase, for the API key's project.", tag: tag,
            auth: .apiKeyJWT, headers: idempotencyHeaders,
            body: purchase(
                projectId: APISchema.string.described("The API key's project; refused when it names another."),
                required: []),
            status: 201, response: challenge)

        // MARK: - Sessions

        /// The `ios` payload of a session: the App Attest assertion over the purchase challenge.
        static let iosAssertion = APISchema.object(
            [
                "keyId": .string(minLength: 1, maxLength: 64),
                "assertion": APISchema.string(minLength: 1, maxLength: 4096).described(
                    "The App Attest assertion object, base64 or base64url."),
            ], required: ["keyId", "assertion"])

        /// A session request: a purchase challenge and its assertion.
        static let sessionRequest = APISchema.object(
            ["challenge": .string(minLength: 1, maxLength: 64), "ios": iosAssertion, "android": unsupportedAndroid],
            required: ["challenge", "ios"])

        /// One fee of a quote.
        static let quoteFee = APISchema.object(
            ["type": .enumeration(["FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK"]), "amount": .string, "currency": .string],
            required: ["type", "amount", "currency"])

        /// cdp-sdk's `OnrampQuote`: amounts as decimal strings, the fees listed.
        static let onrampQuote = APISchema.object(
            [
                "paymentTotal": .string, "paymentSubtotal": .string, "paymentCurrency": .string,
                "purchaseAmount": .string, "purchaseCurrency": .string, "destinationNetwork": .string,
                "fees": .array(quoteFee), "exchangeRate": APISchema.string.described("Crypto per unit of fiat."),
            ],
            required: [
                "paymentTotal", "paymentSubtotal", "paymentCurrency", "purchaseAmount", "purchaseCurrency",
                "destinationNetwork", "fees", "exchangeRate",
            ])

        /// A session's single-use URL.
        static let sessionURL = APISchema.object(["onrampUrl": .uri], required: ["onrampUrl"])

        /// A purchase session: its handoff URL and the quote.
        static let purchaseSession = APISchema.object(
            ["session": sessionURL, "quote": onrampQuote], required: ["session", "quote"])

        /// `POST …/sessions`: the attested purchase session.
        static let createPurchaseSession = APIOperation.cdp(
            "createPurchaseSession",
            "Verifies the purchase assertion and returns the single-use onrampUrl (idempotent on the challenge).",
            tag: tag, auth: .none, body: sessionRequest, status: 201, response: purchaseSession)
    }
}
