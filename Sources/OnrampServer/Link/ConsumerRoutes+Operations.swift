import HTTPServer
import OnrampCore
import OnrampServices
import OnrampWire

extension ConsumerRoutes {
    /// The OpenAPI operations of the Link consumer routes (publishable or secret key), with the fields
    /// stripe-ios sends (`StripePaymentSheet/…/API Bindings/Link/STPAPIClient+Link.swift`).
    enum Operations {
        /// `credentials[consumer_session_client_secret]`: the consumer session the call acts in.
        static let credentials = APISchema.object(
            ["consumer_session_client_secret": .string(maxLength: 128)], required: ["consumer_session_client_secret"])

        /// `{consumer_session}`: the answer of the calls that act on a session.
        static let sessionAnswer = APISchema.object(
            ["consumer_session": LinkConsumerSession.schema], required: ["consumer_session"])

        /// The lookup form: a seamless sign-in secret, else a LinkAuthIntent, else an email address.
        static let lookupForm = APISchema.object([
            "email_address": .string(maxLength: 800).described("Required without the other two."),
            "link_auth_intent_id": .string(maxLength: 64),
            "link_auth_token_client_secret": .string(maxLength: 128),
            "request_surface": .string(maxLength: 64), "session_id": .string(maxLength: 128),
            "email_source": .string(maxLength: 32), "customer_id": .string(maxLength: 64),
            "do_not_log_consumer_funnel_event": .enumeration(["true", "false"]),
            "supported_verification_types": .array(.enumeration(["SMS", "EMAIL"]), maxItems: 4),
            "app_id": .string(maxLength: 255).described(
                "With device_id, key_id and ios_assertion_object: StripeAttest."),
            "device_id": .string(maxLength: 128), "key_id": .string(maxLength: 64),
            "ios_assertion_object": .string(maxLength: 4096).described(
                "Base64 App Attest assertion; on the mobile path a live key needs it or android_verification_token."),
            "android_verification_token": .string(maxLength: 16_384).described(
                "Android's Play Integrity token, with app_id (the package name); not verifiable offline."),
        ])

        /// Whether the consumer exists, and when it does its new session, the publishable key for its calls
        /// (to a publishable-key caller) and the consent screen a LinkAuthIntent awaits.
        static let lookupAnswer = APISchema.object(
            [
                "exists": .boolean, "consumer_session": LinkConsumerSession.schema, "publishable_key": .string,
                "consent_ui": LinkConsentScreen.schema, "error_message": .string,
            ], required: ["exists"])

        /// Looks up a consumer (legacy path).
        static let lookupConsumerSession = APIOperation.stripe(
            "POST /v1/consumers/sessions/lookup",
            "lookupConsumerSession", "Looks up a Link consumer and opens a consumer session for it.", tag: "Link",
            auth: .anyKey, form: lookupForm, response: lookupAnswer)

        /// Looks up a consumer (the path the SDK uses).
        static let lookupMobileConsumerSession = APIOperation.stripe(
            "POST /v1/consumers/mobile/sessions/lookup",
            "lookupMobileConsumerSession",
            "Looks up a Link consumer by email, LinkAuthIntent or seamless sign-in secret, as the mobile SDK does.",
            tag: "Link", auth: .anyKey, form: lookupForm, response: lookupAnswer)

        /// The sign-up form.
        static let signUpForm = APISchema.object(
            [
                "email_address": .string(minLength: 1, maxLength: 800),
                "phone_number": .string(maxLength: 32, pattern: "^\\+[1-9][0-9]{7,14}$").described("E.164."),
                "country": .string(maxLength: 2, pattern: "^[A-Za-z]{2}$").described(
                    "ISO 3166-1 alpha-2; inferred as US for +1 numbers."),
                "legal_name": .string(maxLength: 200), "locale": .string(maxLength: 35),
                "country_inferring_method": .string(maxLength: 32), "consent_action": .string(maxLength: 128),
                "request_surface": .string(maxLength: 64), "app_id": .string(maxLength: 255),
                "device_id": .string(maxLength: 128), "key_id": .string(maxLength: 64),
                "ios_assertion_object": .string(maxLength: 4096),
                "android_verification_token": .string(maxLength: 16_384),
                "amount": .string(maxLength: 20, pattern: "^[0-9]+$").described(
                    "The purchase in minor units, as Android sends it when known (not stored)."),
                "currency": .string(maxLength: 3, pattern: "^[A-Za-z]{3}$"),
            ], required: ["email_address", "phone_number"])

        /// What a sign-up answers: the verified (`SIGNUP/STARTED`) session and the new account's id
        /// (stripe-android `ConsumerSessionSignupJsonParser.kt` at 654edc21 fails without `account_id`).
        static let signUpAnswer = APISchema.object(
            ["consumer_session": LinkConsumerSession.schema, "publishable_key": .string, "account_id": .string],
            required: ["consumer_session", "account_id"])

        /// Signs up a consumer (legacy path).
        static let signUpConsumerAccount = APIOperation.stripe(
            "POST /v1/consumers/accounts/sign_up",
            "signUpConsumerAccount", "Creates a Link account and opens its first consumer session.", tag: "Link",
            auth: .anyKey, form: signUpForm, response: signUpAnswer)

        /// Signs up a consumer (the path the SDK uses).
        static let signUpMobileConsumer = APIOperation.stripe(
            "POST /v1/consumers/mobile/sign_up",
            "signUpMobileConsumer", "Creates a Link account as the mobile SDK does.", tag: "Link", auth: .anyKey,
            form: signUpForm, response: signUpAnswer)

        /// Starts the SMS verification.
        static let startConsumerVerification = APIOperation.stripe(
            "POST /v1/consumers/sessions/start_verification",
            "startConsumerVerification", "Sends the one-time code of a consumer session (test mode only).",
            tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials, "type": .enumeration(["SMS"]), "locale": .string(maxLength: 35),
                    "is_resend_sms_code": .enumeration(["true", "false"]),
                ], required: ["credentials"]),
            response: sessionAnswer)

        /// The confirmation form: the code, and the inline consent to a LinkAuthIntent.
        static let confirmForm = APISchema.object(
            [
                "credentials": credentials, "code": .string(minLength: 1, maxLength: 16),
                "type": .enumeration(["SMS"]), "consent_granted": .enumeration(["true", "false"]),
            ], required: ["credentials", "code"])

        /// The LinkAuthIntent a verification or consent advanced.
        static let advancedIntent = APISchema.object(
            ["id": .string, "status": .enumeration(LinkAuthIntent.Status.allCases.map(\.rawValue))],
            required: ["id", "status"])

        /// The confirmation's answer: the session, and the intent and customer when they apply.
        static let confirmAnswer = APISchema.object(
            [
                "consumer_session": LinkConsumerSession.schema, "link_auth_intent": advancedIntent,
                "crypto_customer_id": .string,
            ], required: ["consumer_session"])

        /// Confirms the SMS code.
        static let confirmConsumerVerification = APIOperation.stripe(
            "POST /v1/consumers/sessions/confirm_verification",
            "confirmConsumerVerification",
            "Checks the one-time code and records an inline consent to a LinkAuthIntent.",
            tag: "Link", auth: .anyKey, form: confirmForm, response: confirmAnswer)

        /// Records the full-consent screen's answer.
        static let updateConsumerConsent = APIOperation.stripe(
            "POST /v1/consumers/sessions/consent_update",
            "updateConsumerConsent", "Allows or denies the LinkAuthIntent a verified consumer session was opened for.",
            tag: "Link", auth: .anyKey,
            form: .object(
                ["credentials": credentials, "consent_granted": .enumeration(["true", "false"])],
                required: ["credentials", "consent_granted"]),
            response: .object(
                ["link_auth_intent": advancedIntent, "crypto_customer_id": .string], required: ["link_auth_intent"]))

        /// Refreshes a session.
        static let refreshConsumerSession = APIOperation.stripe(
            "POST /v1/consumers/sessions/refresh",
            "refreshConsumerSession", "Extends a consumer session by a day from now.", tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials,
                    "supported_verification_types": .array(.enumeration(["SMS", "EMAIL"]), maxItems: 4),
                    "app_id": .string(maxLength: 255).described("Android sends its package name."),
                ], required: ["credentials"]),
            response: sessionAnswer)

        /// Changes the phone number.
        static let updateConsumerPhone = APIOperation.stripe(
            "POST /v1/consumers/accounts/update_phone",
            "updateConsumerPhone", "Changes a verified consumer's phone number.", tag: "Link", auth: .anyKey,
            form: .object(
                [
                    "credentials": credentials,
                    "phone_number": .string(maxLength: 32, pattern: "^\\+[1-9][0-9]{7,14}$").described("E.164."),
                ], required: ["credentials", "phone_number"]),
            response: sessionAnswer)

        /// Logs out.
        static let logOutConsumerSession = APIOperation.stripe(
            "POST /v1/consumers/sessions/log_out",
            "logOutConsumerSession", "Ends a consumer session and answers it as it was.", tag: "Link",
            auth: .anyKey, form: .object(["credentials": credentials], required: ["credentials"]),
            response: sessionAnswer)
    }
}
