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

        /// One requirement as the requirements listing shows it.
        static let requirement = APISchema.object(
            [
                "requested_by": .string, "awaiting_action_from": .string,
                "errors": .array(.object(["code": .string, "description": .string])),
                "document": .object(
                    [
                        "accepted_subtypes": .array(
                            .object(
                                ["id": .string, "label": .string, "description": .string],
                                required: ["id", "label", "description"])),
                        "accepted_formats": .array(.string), "max_file_size_bytes": .integer,
                        "min_document_types": .integer, "max_document_types": .integer,
                        "max_files_per_document_type": .integer, "file_requirements": .string,
                        "instructions": .array(.string),
                    ],
                    required: [
                        "accepted_subtypes", "accepted_formats", "max_file_size_bytes", "min_document_types",
                        "max_document_types", "file_requirements", "instructions",
                    ]),
                "additional_requirements": .object([
                    "questionnaire": .object(
                        [
                            "questions": .array(
                                .object(
                                    [
                                        "id": .string, "prompt": .string, "answer_type": .string,
                                        "required": .boolean,
                                    ], required: ["id", "prompt", "answer_type", "required"]))
                        ], required: ["questions"])
                ]),
            ], required: ["requested_by", "awaiting_action_from", "errors"])

        static let retrieveKycRequirements = APIOperation.stripe(
            "GET /v1/crypto/internal/kyc_requirements",
            "retrieveKycRequirements",
            "What the customer still owes beyond the KYC tiers (an EU customer: a proof of address and a question).",
            tag: "Embedded", auth: .anyKey, query: [Consumer.credentialsQuery], headers: [Consumer.consumerHeader],
            response: .object(
                ["object": .constant("crypto.kyc_requirements"), "requirements": .object([:])],
                required: ["requirements"]))

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
            response: .object(
                [
                    "id": .string, "object": .constant("crypto.kyc_requirement_submission"),
                    "liquidity_provider": .string, "submission_type": .string, "status": .string, "created": .integer,
                    "documents": .array(.anyObject), "questionnaire": .anyObject,
                ], required: ["id", "object", "liquidity_provider", "submission_type", "status", "created"]))

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
            response: .object(
                ["object": .constant("crypto.kyc_requirements_fulfillment"), "requirements": .anyObject],
                required: ["object", "requirements"]))

        /// The identifiers still owed.
        static let identifierPlan = APISchema.object(
            [
                "object": .constant("crypto.identifier_requirements"),
                "identifiers": .array(
                    .object(
                        ["type": .string, "regulation": .enumeration(["eu_carf", "eu_mica"])],
                        required: ["type", "regulation"])),
                "alternatives": .array(
                    .object(
                        [
                            "original_missing_identifiers": .array(.string),
                            "alternative_missing_identifiers": .array(.string),
                        ], required: ["original_missing_identifiers", "alternative_missing_identifiers"])),
                "carf_tin_required": .boolean,
            ], required: ["identifiers", "alternatives", "carf_tin_required"])

        static let retrieveIdentifierRequirements = APIOperation.stripe(
            "GET /v1/crypto/internal/identifier_requirements",
            "retrieveIdentifierRequirements",
            "The MiCA and CRS/CARF identifiers the customer still owes (none outside the EU).", tag: "Embedded",
            auth: .anyKey, query: [Consumer.credentialsQuery], headers: [Consumer.consumerHeader],
            response: identifierPlan)

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
            response: APISchema.object(
                [
                    "object": .constant("crypto.identifier_requirements"), "valid": .boolean,
                    "invalid_identifiers": .array(.string),
                    "identifiers": .array(.anyObject), "alternatives": .array(.anyObject),
                    "carf_tin_required": .boolean,
                ], required: ["valid", "invalid_identifiers", "identifiers", "alternatives", "carf_tin_required"]))
    }
}
