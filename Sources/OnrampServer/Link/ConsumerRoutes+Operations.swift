import HTTPServer
import OnrampCore
import OnrampWire

extension ConsumerRoutes {
    /// The OpenAPI operations of the Link consumer routes (publishable or secret key).
    enum Operations {
        /// `credentials[consumer_session_client_secret]`: the consumer session the call acts in.
        static let credentials = APISchema.object(
            ["consumer_session_client_secret": .string(maxLength: 128)], required: ["consumer_session_client_secret"])

        /// One verification of a consumer session.
        static let verificationSession = APISchema.object(
            ["type": .constant("SMS"), "state": .enumeration(["started", "verified"])], required: ["type", "state"])

        /// A consumer session with its client secret, as lookup and sign-up open it.
        static let consumerSession = APISchema.object(
            [
                "client_secret": .string, "email_address": .string.described("Redacted: `j***@example.com`."),
                "verification_sessions": .array(verificationSession),
            ], required: ["client_secret", "email_address", "verification_sessions"])

        /// A consumer session's verifications, without its secret.
        static let sessionVerifications = APISchema.object(
            ["verification_sessions": .array(verificationSession)], required: ["verification_sessions"])

        /// The answer of the verification calls: the session's verifications.
        static let verifications = APISchema.object(
            ["consumer_session": sessionVerifications], required: ["consumer_session"])

        /// The lookup form: a seamless sign-in secret, else a LinkAuthIntent, else an email address.
        static let lookupForm = APISchema.object([
            "email_address": .string(maxLength: 800).described("Required without the other two."),
            "link_auth_intent_id": .string(maxLength: 64),
            "link_auth_token_client_secret": .string(maxLength: 128),
        ])

        /// Whether the consumer exists, and its new session when it does.
        static let lookupAnswer = APISchema.object(
            ["exists": .boolean, "consumer_session": consumerSession], required: ["exists"])

        /// Looks up a consumer.
        static let lookupConsumerSession = APIOperation.stripe(
            "lookupConsumerSession", "Looks up a Link consumer and opens a consumer session for it.", tag: "Link",
            auth: .anyKey, form: lookupForm, response: lookupAnswer)

        /// The sign-up form.
        static let signUpForm = APISchema.object(
            [
                "email_address": .string(minLength: 1, maxLength: 800),
                "phone_number": .string(maxLength: 32, pattern: "^\\+[1-9][0-9]{7,14}$").described("E.164."),
                "country": .string(maxLength: 2, pattern: "^[A-Za-z]{2}$").described("ISO 3166-1 alpha-2."),
                "legal_name": .string(maxLength: 200),
            ], required: ["email_address", "phone_number", "country"])

        /// Signs up a consumer.
        static let signUpConsumerAccount = APIOperation.stripe(
            "signUpConsumerAccount", "Creates a Link account and opens an unverified consumer session.", tag: "Link",
            auth: .anyKey, form: signUpForm,
            response: .object(
                ["exists": .boolean, "consumer_session": consumerSession], required: ["exists", "consumer_session"]))

        /// Starts the SMS verification.
        static let startConsumerVerification = APIOperation.stripe(
            "startConsumerVerification", "Sends the one-time code of a consumer session (test mode only).",
            tag: "Link", auth: .anyKey,
            form: .object(["credentials": credentials, "type": .enumeration(["SMS"])], required: ["credentials"]),
            response: verifications)

        /// The confirmation form: the code, and the consent to a LinkAuthIntent.
        static let confirmForm = APISchema.object(
            [
                "credentials": credentials, "code": .string(minLength: 1, maxLength: 16),
                "consent_granted": .enumeration(["true", "false"]),
            ], required: ["credentials", "code"])

        /// The LinkAuthIntent a confirmation advanced.
        static let advancedIntent = APISchema.object(
            ["id": .string, "status": .enumeration(LinkAuthIntent.Status.allCases.map(\.rawValue))],
            required: ["id", "status"])

        /// The confirmation's answer: the intent, customer and seamless sign-in token when they apply.
        static let confirmAnswer = APISchema.object(
            [
                "consumer_session": sessionVerifications,
                "link_auth_intent": advancedIntent, "crypto_customer_id": .string, "link_auth_token": .string,
            ], required: ["consumer_session"])

        /// Confirms the SMS code.
        static let confirmConsumerVerification = APIOperation.stripe(
            "confirmConsumerVerification", "Checks the one-time code and records the consent to a LinkAuthIntent.",
            tag: "Link", auth: .anyKey, form: confirmForm, response: confirmAnswer)

        /// Logs out.
        static let logOutConsumerSession = APIOperation.stripe(
            "logOutConsumerSession", "Ends a consumer session.", tag: "Link", auth: .anyKey,
            form: .object(["credentials": credentials], required: ["credentials"]),
            response: .object(["logged_out": .boolean], required: ["logged_out"]))
    }
}
