import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension App2AppRoutes {
    /// The OpenAPI operations of the App2App mobile endpoints, in the seed's form and the cdp-sdk form.
    enum Operations {
        /// The tag of every App2App operation.
        static let tag = "App2App"

        // MARK: - Challenges

        /// `POST …/projects/{projectId}/attestation/challenges`: the seed's registration challenge.
        static let createRegistrationChallenge = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/projects/{projectId}/attestation/challenges",
            "createRegistrationChallenge", "Creates an App Attest registration challenge for the project in the path.",
            tag: tag, auth: .none, status: 201, response: AttestationChallenge.schema)

        /// `POST …/attestation/challenges`: the cdp-sdk's registration challenge, for the API key's project.
        static let createRegistrationChallengeWithAPIKey = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/attestation/challenges",
            "createRegistrationChallengeWithAPIKey",
            "Creates an App Attest registration challenge for the API key's project.", tag: tag, auth: .apiKeyJWT,
            status: 201, response: AttestationChallenge.schema)

        // MARK: - Registration

        /// `POST …/projects/{projectId}/attestation/registrations`: the seed's registration.
        static let registerProjectAttestationKey = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/projects/{projectId}/attestation/registrations",
            "registerProjectAttestationKey",
            "Verifies an App Attest attestation for the project in the path and registers its key.", tag: tag,
            auth: .none, body: AttestationKeyRegistration.schema(keyIdRequired: true),
            response: RegisteredAttestationKey.schema)

        /// `PUT …/projects/{projectId}/attestation/registrations/{keyId}`: the seed's registration by key id.
        static let putProjectAttestationKey = APIOperation.cdp(
            "PUT /platform/v2/onramp/mobile/projects/{projectId}/attestation/registrations/{keyId}",
            "putProjectAttestationKey",
            "Verifies an App Attest attestation for the key in the path and registers or replaces it.", tag: tag,
            auth: .none, body: AttestationKeyRegistration.schema(keyIdRequired: false),
            response: RegisteredAttestationKey.schema)

        /// `POST …/attestation/registrations`: the cdp-sdk's registration (the challenge names the project).
        static let registerAttestationKey = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/attestation/registrations",
            "registerAttestationKey",
            "Verifies an App Attest attestation for the challenge's project and registers its key.", tag: tag,
            auth: .none, body: AttestationKeyRegistration.schema(keyIdRequired: true),
            response: RegisteredAttestationKey.schema)

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
            "POST /platform/v2/onramp/mobile/challenges",
            "createPurchaseChallenge", "Creates a purchase challenge carrying the validated purchase.", tag: tag,
            auth: .none, headers: idempotencyHeaders,
            body: purchase(projectId: .string(minLength: 1, maxLength: 64), required: ["projectId"]), status: 201,
            response: AttestationChallenge.schema)

        /// `POST …/sessions/challenges`: the cdp-sdk's purchase challenge, for the API key's project.
        static let createPurchaseChallengeWithAPIKey = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/sessions/challenges",
            "createPurchaseChallengeWithAPIKey",
            "Creates a purchase challenge carrying the validated purchase, for the API key's project.", tag: tag,
            auth: .apiKeyJWT, headers: idempotencyHeaders,
            body: purchase(
                projectId: APISchema.string.described("The API key's project; refused when it names another."),
                required: []),
            status: 201, response: AttestationChallenge.schema)

        // MARK: - Sessions

        /// `POST …/sessions`: the attested purchase session.
        static let createPurchaseSession = APIOperation.cdp(
            "POST /platform/v2/onramp/mobile/sessions",
            "createPurchaseSession",
            "Verifies the purchase assertion and returns the single-use onrampUrl (idempotent on the challenge).",
            tag: tag, auth: .none, body: PurchaseAssertion.schema, status: 201, response: OnrampURLSession.schema)
    }
}
