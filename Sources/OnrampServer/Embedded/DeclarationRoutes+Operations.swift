import HTTPServer
import OnrampServices
import OnrampWire

extension DeclarationRoutes {
    /// The OpenAPI operations of the CRS/CARF declaration and the partner terms.
    enum Operations {
        /// The GETs name the session in the `Stripe-Consumer-Auth-Token` header (or the older query).
        static let consumerHeader = APIParameter(
            "Stripe-Consumer-Auth-Token", .string(maxLength: 128).described("The consumer session's client secret."))
        static let credentialsQuery = APIParameter(
            "credentials[consumer_session_client_secret]", .string(maxLength: 128))

        static let retrieveCRSCARFDeclaration = APIOperation.stripe(
            "GET /v1/crypto/internal/crs_carf_declaration",
            "retrieveCRSCARFDeclaration", "The CRS/CARF tax self-certification to show the user.", tag: "Embedded",
            auth: .anyKey, query: [credentialsQuery], headers: [consumerHeader],
            response: .object(["text": .string, "version": .string], required: ["text", "version"]))

        static let confirmCRSCARFDeclaration = APIOperation.stripe(
            "POST /v1/crypto/internal/crs_carf_declaration",
            "confirmCRSCARFDeclaration", "Records that the user confirmed the CRS/CARF declaration.", tag: "Embedded",
            auth: .anyKey,
            form: .object(["credentials": ConsumerRoutes.Operations.credentials], required: ["credentials"]),
            response: .object([:]))

        static let retrievePartnerTerms = APIOperation.stripe(
            "GET /v1/crypto/internal/partner_terms",
            "retrievePartnerTerms", "Whether the user must accept the partner's terms, and which.", tag: "Embedded",
            auth: .anyKey,
            query: [
                APIParameter(
                    "declaration_type", .enumeration(["transaction_terms", "terms_of_service", "terms", "tos"]),
                    required: true),
                credentialsQuery,
            ], headers: [consumerHeader],
            response: .object(
                [
                    "required": .boolean, "partner": .string, "version": .string, "text": .string,
                    "declaration_id": .string,
                    "declaration": .object(
                        [
                            "id": .string, "type": .enumeration(["transaction_terms", "terms_of_service"]),
                            "text": .string,
                        ], required: ["id", "type", "text"]),
                ], required: ["required"]))

        static let confirmPartnerTerms = APIOperation.stripe(
            "POST /v1/crypto/internal/partner_terms",
            "confirmPartnerTerms", "Records that the user accepted a declaration.", tag: "Embedded", auth: .anyKey,
            headers: [consumerHeader],
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "declaration_id": .string(minLength: 1, maxLength: 64),
                ], required: ["declaration_id"]),
            response: .object([:]))
    }
}
