import HTTPServer
import OnrampServices
import OnrampWire

extension VerificationPageRoutes {
    /// The OpenAPI operations of the StripeIdentity verification-page API (an ephemeral key).
    enum Operations {
        /// `POST …/data`'s form (`VerificationPageDataUpdate`).
        static let dataForm = APISchema.object([
            "collected_data": .object([
                "biometric_consent": .enumeration(["true", "false"]),
                "id_document_front": .object(["high_res_image": .string(maxLength: 64)], required: ["high_res_image"]),
                "id_document_back": .object(["high_res_image": .string(maxLength: 64)], required: ["high_res_image"]),
                "face": .object(["best_high_res_image": .string(maxLength: 64)], required: ["best_high_res_image"]),
            ]),
            "clear_data": .map(.enumeration(["true", "false"])),
        ])

        static let retrieveVerificationPage = APIOperation.stripe(
            "GET /v1/identity/verification_pages/{id}",
            "retrieveVerificationPage", "The identity sheet's page: what to collect and how.", tag: "Identity",
            auth: .ephemeralKey, query: [APIParameter("app_identifier", .string(maxLength: 255))],
            response: VerificationPageContent.schema)

        static let updateVerificationPageData = APIOperation.stripe(
            "POST /v1/identity/verification_pages/{id}/data",
            "updateVerificationPageData", "Records consent and the uploaded document and selfie images.",
            tag: "Identity", auth: .ephemeralKey, form: dataForm, response: VerificationPageContent.dataSchema)

        static let submitVerificationPage = APIOperation.stripe(
            "POST /v1/identity/verification_pages/{id}/submit",
            "submitVerificationPage", "Submits a complete verification (the sandbox verifies the document).",
            tag: "Identity", auth: .ephemeralKey, form: .object([:]), response: VerificationPageContent.dataSchema)

        static let verifyTestVerificationPage = APIOperation.stripe(
            "POST /v1/identity/verification_pages/{id}/testing/verify",
            "verifyTestVerificationPage", "The test-mode screen's \"verify\": the document is verified.",
            tag: "Identity", auth: .ephemeralKey,
            form: .object(["simulate_delay": .enumeration(["true", "false"])]),
            response: VerificationPageContent.dataSchema)

        static let unverifyTestVerificationPage = APIOperation.stripe(
            "POST /v1/identity/verification_pages/{id}/testing/unverify",
            "unverifyTestVerificationPage", "The test-mode screen's \"unverify\": the document is rejected.",
            tag: "Identity", auth: .ephemeralKey,
            form: .object(["simulate_delay": .enumeration(["true", "false"])]),
            response: VerificationPageContent.dataSchema)

        static let uploadIdentityFile = APIOperation(
            "POST /v1/files",
            id: "uploadIdentityFile",
            summary:
                "Uploads an identity image (purpose, owned_by, file; ephemeral key) or a KYC document (purpose crypto_onramp_kyc_document, file; publishable or link session key).",
            tag: "Identity", security: [["stripeEphemeralKey"], ["stripeKey"]],
            body: .multipart(
                .object(
                    [
                        "purpose": .enumeration(["identity_private", "identity_document", "crypto_onramp_kyc_document"]
                        ),
                        "owned_by": .string(maxLength: 64).described("Required for the identity purposes."),
                        "file": .string(format: "binary"),
                    ], required: ["purpose", "file"])),
            responses: [
                .json(
                    200, "The file.",
                    .object(
                        [
                            "id": .string, "object": .constant("file"), "created": .integer, "purpose": .string,
                            "size": .integer, "type": .enumeration(["jpg", "png", "jpeg", "pdf"]),
                            "filename": APISchema.string.nullable,
                        ], required: ["id", "created", "purpose", "size"])),
                .json(400, "A refused request.", .reference(APIComponents.stripeError)).ranged("4XX"),
                .json(500, "The server or its store failed.", .reference(APIComponents.stripeError)).ranged("5XX"),
            ])
    }
}
