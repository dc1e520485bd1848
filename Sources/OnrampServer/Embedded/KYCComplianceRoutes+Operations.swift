import HTTPServer
import OnrampServices
import OnrampWire

extension KYCComplianceRoutes {
    /// The OpenAPI operations of the 2026 KYC and compliance calls.
    enum Operations {
        typealias Consumer = DeclarationRoutes.Operations

        /// A document of a requirement's fulfilment.
        static let documentForm = APISchema.object(
            [
                "document_type": .string(maxLength: 64), "document_subtype": .string(maxLength: 64),
                "file_ids": .array(.string(maxLength: 64), maxItems: 10),
            ], required: ["document_subtype", "file_ids"])

        /// A questionnaire's answers.
        static let questionnaireForm = APISchema.object(
            [
                "answers": .array(
                    .object(
                        ["question_id": .string(maxLength: 64), "value": .string(maxLength: 500)],
                        required: ["question_id", "value"]), maxItems: 20)
            ])

        static let retrieveKycRequirements = APIOperation.stripe(
            "GET /v1/crypto/internal/kyc_requirements",
            "retrieveKycRequirements",
            "What the customer still owes beyond the KYC tiers (an EU customer: a proof of address and a question).",
            tag: "Embedded", auth: .anyKey, query: [Consumer.credentialsQuery], headers: [Consumer.consumerHeader],
            response: CryptoKYCRequirements.schema)

        static let fulfillAdditionalKycRequirement = APIOperation.stripe(
            "POST /v1/crypto/internal/fulfill_additional_kyc_requirement",
            "fulfillAdditionalKycRequirement",
            "Fulfils what a liquidity provider asked, with uploaded documents and the questionnaire's answers.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "liquidity_provider": .string(maxLength: 64), "submission_type": .enumeration(["document"]),
                    "documents": .array(documentForm, maxItems: 5), "questionnaire": questionnaireForm,
                ], required: ["credentials", "liquidity_provider"]),
            response: CryptoKYCRequirementSubmission.schema)

        static let fulfillKycRequirements = APIOperation.stripe(
            "POST /v1/crypto/internal/fulfill_kyc_requirements",
            "fulfillKycRequirements",
            "Fulfils requirements by name; the newest SDK sends its link session key (lsk_…) as the Bearer key.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "requirements": .object([:]).described(
                        "requirements[<name>][requested_by|documents|additional_requirements]"),
                ], required: ["requirements"]),
            response: CryptoKYCRequirementsFulfillment.schema)

        /// The regulations the SDKs know (`ComplianceRegulation.kt` at fe68fa21); any other fails them.
        static let regulations: KeyValuePairs<String, APISchema> = [
            "identifiers": .array(
                CryptoIdentifierRequirements.Identifier.schema.refining([
                    "regulation": .enumeration(["eu_carf", "eu_mica"])
                ]))
        ]

        static let retrieveIdentifierRequirements = APIOperation.stripe(
            "GET /v1/crypto/internal/identifier_requirements",
            "retrieveIdentifierRequirements",
            "The MiCA and CRS/CARF identifiers the customer still owes (none outside the EU).", tag: "Embedded",
            auth: .anyKey, query: [Consumer.credentialsQuery], headers: [Consumer.consumerHeader],
            response: CryptoIdentifierRequirements.schema.refining(regulations))

        static let submitEUIdentifiers = APIOperation.stripe(
            "POST /v1/crypto/internal/eu_identifiers",
            "submitEUIdentifiers", "Submits MiCA and CRS/CARF identifiers; answers what is still owed.",
            tag: "Embedded", auth: .anyKey,
            form: .object(
                [
                    "credentials": ConsumerRoutes.Operations.credentials,
                    "identifiers": .array(
                        .object(
                            ["type": .string(maxLength: 32), "value": .string(maxLength: 64)],
                            required: ["type", "value"]), maxItems: 30),
                ], required: ["credentials", "identifiers"]),
            response: CryptoIdentifierSubmission.schema.refining(regulations))
    }
}
