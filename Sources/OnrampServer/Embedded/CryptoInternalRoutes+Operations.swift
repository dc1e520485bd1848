import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension CryptoInternalRoutes {
    /// The OpenAPI operations of the client SDK's crypto routes (a verified consumer session).
    enum Operations {
        /// A form of only the consumer session's credentials.
        static let credentialsForm = APISchema.object(
            ["credentials": ConsumerRoutes.Operations.credentials], required: ["credentials"])

        /// A `crypto.customer` reference.
        static let customerReference = APISchema.object(
            ["id": .string, "object": .constant("crypto.customer")], required: ["id", "object"])

        /// Gets or creates the session's crypto customer.
        static let createCryptoCustomer = APIOperation.stripe(
            "POST /v1/crypto/internal/customers",
            "createCryptoCustomer", "Gets or creates the crypto customer of the verified consumer session.",
            tag: "Embedded", auth: .anyKey, form: credentialsForm, response: customerReference)

        /// A verification status.
        static let verificationStatus = APISchema.enumeration(VerificationStatus.allCases.map(\.rawValue))

        /// Why a verification was rejected (stripe-node `Crypto.Customer.Verification.Error`).
        static let verificationError = APISchema.enumeration([
            "address_validation_failed", "id_document_verification_failed", "person_verification_failed",
            "phone_verification_failed", "user_has_reached_max_verification_attempts",
        ])

        /// The fields a customer has provided.
        static let providedField = APISchema.enumeration([
            "address_city", "address_country", "address_line_1", "address_line_2", "address_postal_code",
            "address_state", "attestation", "birth_city", "birth_country", "dob", "first_name", "id_document",
            "id_number", "id_type", "identifiers", "last_name", "nationalities", "selfie",
        ])

        /// What the server states of a customer's members beyond the wire object: the values each takes.
        static let customerValues: KeyValuePairs<String, APISchema> = [
            "kyc_region": APISchema.enumeration(KYCRegion.allCases.map(\.rawValue)).nullable,
            "kyc_tiers": .array(
                CryptoCustomerObject.Tier.schema.refining([
                    "tier": .enumeration(KYCTier.allCases.map(\.rawValue)),
                    "verification_status": verificationStatus, "verification_errors": .array(verificationError),
                ])),
            "provided_fields": .array(providedField),
            "verifications": .array(
                CryptoCustomerObject.Verification.schema.refining([
                    "name": .enumeration(["phone_verified", "kyc_verified", "id_document_verified"]),
                    "status": verificationStatus, "errors": .array(verificationError),
                ])),
        ]

        /// The `crypto.customer` object.
        static let cryptoCustomer = CryptoCustomerObject.schema.refining(customerValues)

        /// An address in a form (each member at most 200 bytes).
        static let addressForm = APISchema.object([
            "line1": .string(maxLength: 200), "line2": .string(maxLength: 200), "city": .string(maxLength: 200),
            "state": .string(maxLength: 200), "zip": .string(maxLength: 200), "country": .string(maxLength: 200),
        ])

        /// The KYC address, `line1` required.
        static let kycAddressForm = APISchema.object(
            [
                "line1": .string(minLength: 1, maxLength: 200), "line2": .string(maxLength: 200),
                "city": .string(maxLength: 200), "state": .string(maxLength: 200), "zip": .string(maxLength: 200),
                "country": .string(maxLength: 200),
            ], required: ["line1"])

        /// A date of birth in a form.
        static let dobForm = APISchema.object(
            [
                "day": .string(maxLength: 2, pattern: "^[0-9]+$"), "month": .string(maxLength: 2, pattern: "^[0-9]+$"),
                "year": .string(maxLength: 4, pattern: "^[0-9]+$"),
            ], required: ["day", "month", "year"])

        /// The KYC data form.
        static let kycForm = APISchema.object(
            [
                "credentials": ConsumerRoutes.Operations.credentials,
                "first_name": .string(minLength: 1, maxLength: 100), "last_name": .string(minLength: 1, maxLength: 100),
                "id_number": .string(maxLength: 32, pattern: "^[- ]*([0-9][- ]*){4,20}$").described("4 to 20 digits."),
                "id_type": .string(maxLength: 32), "dob": dobForm,
                "address": kycAddressForm.described(
                    "Or the same fields flat, without `address` (as the SDK sends them)."),
                "line1": .string(maxLength: 200), "line2": .string(maxLength: 200), "city": .string(maxLength: 200),
                "state": .string(maxLength: 200), "zip": .string(maxLength: 200), "country": .string(maxLength: 200),
                "nationalities": .array(.string(minLength: 2, maxLength: 2)).described(
                    "ISO 3166-1 alpha-2 codes, at most 10 (the 2026 SDKs)."),
                "birth_country": .string(minLength: 2, maxLength: 2), "birth_city": .string(maxLength: 100),
            ], required: ["credentials", "first_name", "last_name"])

        /// Collects KYC data.
        static let collectKycData = APIOperation.stripe(
            "POST /v1/crypto/internal/kyc_data_collection",
            "collectKycData", "Records the customer's KYC data and starts the sandbox phone and KYC checks.",
            tag: "Embedded", auth: .anyKey, form: kycForm,
            response: CryptoKYCCollection.schema.refining(customerValues))

        /// The KYC data as confirmed: what is on file, each member `null` when not.
        static let kycData = CryptoKYCData.schema

        /// The KYC data as retrieved: name and date of birth always there (both SDKs require them).
        static let retrievedKycData = CryptoKYCData.schema.refining([
            "first_name": .string, "last_name": .string,
            "dob": .object(
                ["year": .integer, "month": .integer, "day": .integer], required: ["year", "month", "day"]),
        ])

        /// The consumer session's secret in the query of a GET.
        static let credentialsQuery = APIParameter(
            "credentials[consumer_session_client_secret]", .string(maxLength: 128), required: true)

        /// Retrieves the KYC data.
        static let retrieveKycData = APIOperation.stripe(
            "POST /v1/crypto/internal/kyc_data_retrieve",
            "retrieveKycData", "Returns the KYC data of the verified consumer session's customer.", tag: "Embedded",
            auth: .anyKey, form: credentialsForm, response: retrievedKycData)

        /// Retrieves the KYC data, credentials in the query (older SDKs).
        static let retrieveKycDataByQuery = APIOperation.stripe(
            "GET /v1/crypto/internal/kyc_data_retrieve",
            "retrieveKycDataByQuery", "Returns the KYC data, the credentials in the query (older SDK versions).",
            tag: "Embedded", auth: .anyKey, query: [credentialsQuery], response: retrievedKycData)

        /// The publishable key payment methods are collected under.
        static let retrievePlatformSettings = APIOperation.stripe(
            "GET /v1/crypto/internal/platform_settings",
            "retrievePlatformSettings", "The publishable key the SDK collects payment methods under.",
            tag: "Embedded", auth: .anyKey,
            query: [
                APIParameter("crypto_customer_id", .string(maxLength: 64)),
                APIParameter("ui_mode", .enumeration(["headless"])),
                APIParameter("country_hint", .string(minLength: 2, maxLength: 2)),
            ],
            response: .object(
                ["object": .constant("crypto.platform_settings"), "publishable_key": .string],
                required: ["publishable_key"]))

        /// Confirms the KYC data.
        static let refreshConsumerPerson = APIOperation.stripe(
            "POST /v1/crypto/internal/refresh_consumer_person",
            "refreshConsumerPerson", "Confirms the collected KYC data, optionally correcting the address.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "address": addressForm.described("Or the same fields flat, without `address`."),
                    "line1": .string(maxLength: 200), "line2": .string(maxLength: 200), "city": .string(maxLength: 200),
                    "state": .string(maxLength: 200), "zip": .string(maxLength: 200),
                    "country": .string(maxLength: 200),
                    "first_name": .string(maxLength: 100).described("Sent by the SDK; the stored name is kept."),
                    "last_name": .string(maxLength: 100), "id_number_last4": .string(maxLength: 4),
                    "id_type": .string(maxLength: 32), "dob": dobForm,
                ], required: ["credentials"]),
            response: kycData)

        /// An `identity.verification_session` with its hosted page.
        static let identityVerificationSession = APISchema.object(
            [
                "id": .string, "object": .constant("identity.verification_session"),
                "status": .constant("requires_input"), "url": .uri, "ephemeral_key": .string,
            ], required: ["id", "object", "status", "url", "ephemeral_key"])

        /// Starts an identity verification.
        static let startIdentityVerification = APIOperation.stripe(
            "POST /v1/crypto/internal/start_identity_verification",
            "startIdentityVerification", "Opens a test-mode identity verification with its hosted page.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "is_mobile": .enumeration(["true", "false"]),
                ], required: ["credentials"]),
            response: identityVerificationSession)

        /// The wallet form.
        static let walletForm = APISchema.object(
            [
                "credentials": ConsumerRoutes.Operations.credentials,
                "wallet_address": .string(minLength: 1, maxLength: 128),
                "network": .string(minLength: 1, maxLength: 32),
            ], required: ["credentials", "wallet_address", "network"])

        /// Registers a wallet.
        static let registerConsumerWallet = APIOperation.stripe(
            "POST /v1/crypto/internal/wallet",
            "registerConsumerWallet", "Registers a wallet address of the customer on a network.", tag: "Embedded",
            auth: .anyKey, form: walletForm, response: CryptoConsumerWallet.schema)

        /// The `crypto.payment_token` object.
        static let paymentToken = CryptoPaymentToken.schema.refining([
            "card": PaymentMethodRoutes.Operations.cardDetails
        ])

        /// The payment token form.
        static let paymentTokenForm = APISchema.object(
            [
                "credentials": ConsumerRoutes.Operations.credentials, "crypto_customer_id": .string(maxLength: 64),
                "payment_method": .string(minLength: 1, maxLength: 64).described("A `pm_…` id or a test id."),
                "ui_mode": .enumeration(["headless"]), "country_hint": .string(maxLength: 2),
            ], required: ["crypto_customer_id", "payment_method"])

        /// Creates a payment token.
        static let createCryptoPaymentToken = APIOperation.stripe(
            "POST /v1/crypto/internal/payment_token",
            "createCryptoPaymentToken", "Makes a payment method the customer's payment token.", tag: "Embedded",
            auth: .anyKey, form: paymentTokenForm, response: paymentToken)

        /// Retrieves a session by its client secret.
        static let retrieveOnrampSessionByClientSecret = APIOperation.stripe(
            "GET /v1/crypto/internal/onramp_session",
            "retrieveOnrampSessionByClientSecret", "Returns an onramp session to the client holding its secret.",
            tag: "Embedded", auth: .anyKey,
            query: [
                APIParameter("crypto_onramp_session", .string, required: true),
                APIParameter("client_secret", .string, required: true),
            ],
            response: .allOf([
                OnrampSessionRoutes.Operations.onrampSession,
                .object(["payment_intent_client_secret": .string], required: ["payment_intent_client_secret"]),
            ]))
    }
}
