import OnrampServices
import OnrampWire

/// The `VerificationPage` the StripeIdentity sheet reads (`StripeIdentity/…/API Bindings/Models/
/// VerificationPage/VerificationPage.swift` and its static-content types): every key the oldest and the newest
/// versions require, in their snake_case. `livemode` is false, so the sheet first shows its test-mode screen,
/// whose "verify" and "unverify" buttons call `testing/verify` and `testing/unverify`; its capture path needs
/// StripeIdentity's on-device models, which this sandbox cannot serve: their URLs name ``modelsPath`` on this
/// server, which answers 404, so the sheet falls back to manual document upload and shows its error screen
/// for the selfie. Capture sizes keep an upload under the server's 1 MiB body limit.
struct VerificationPageContent {
    /// Where the model URLs point (not served).
    static let modelsPath = "/embedded/test/identity/models"

    /// What a verification collects, as `VerificationPageFieldType` raw values.
    static let requiredFields = VerificationPageState.requiredFields

    let id: String
    /// This server's public base URL.
    let baseURL: String
    /// Where a client that cannot run the sheet is sent (`unsupported_client` is false, so the SDK never goes):
    /// the hosted identity page's path, which needs the link `start_identity_verification` answered.
    let fallbackURL: String
    let status: String
    let submitted: Bool
    let missing: [String]

    var json: JSONValue {
        [
            "id": .string(id), "object": "identity.verification_page", "livemode": false, "status": .string(status),
            "submitted": .bool(submitted), "unsupported_client": false, "fallback_url": .string(fallbackURL),
            "user_session_id": .string("us_" + id.dropFirst(3)), "is_stripe": false, "skip_success_page": false,
            "experiments": [], "requirements": ["missing": .array(missing.map { .string($0) })],
            "biometric_consent": [
                "title": "Verify your identity", "body": "Test mode: nothing you upload is kept.",
                "accept_button_text": "Accept and continue", "decline_button_text": "No, don't verify",
                "privacy_policy": "Sandbox data only.", "time_estimate": "Takes about 1–2 minutes.",
                "scroll_to_continue_button_text": "Scroll to continue",
                "lines": [["icon": "document", "content": "A photo ID and a selfie are checked in test mode."]],
            ],
            "document_select": [
                "title": "Which form of ID do you want to use?", "body": .null, "button_text": "Continue",
                "id_document_type_allowlist": [
                    "driving_license": "Driver's license", "id_card": "Identity card", "passport": "Passport",
                ],
            ],
            "document_capture": [
                "autocapture_timeout": 10_000, "file_purpose": "identity_private",
                "high_res_image_compression_quality": .number("0.8"), "high_res_image_crop_padding": .number("0.08"),
                "high_res_image_max_dimension": 1440, "ios_id_card_back_barcode_timeout": 3000,
                "ios_id_card_back_country_barcode_symbologies": ["US": "pdf417"],
                "low_res_image_compression_quality": .number("0.8"), "low_res_image_max_dimension": 800,
                "motion_blur_min_duration": 500, "motion_blur_min_iou": .number("0.95"), "require_live_capture": false,
                "models": [
                    "id_detector_min_iou": .number("0.5"), "id_detector_min_score": .number("0.4"),
                    "id_detector_url": .string(baseURL + Self.modelsPath + "/id_detector"),
                ],
            ],
            "selfie": [
                "autocapture_timeout": 8000, "file_purpose": "identity_private",
                "high_res_image_compression_quality": .number("0.8"), "high_res_image_crop_padding": .number("0.05"),
                "high_res_image_max_dimension": 1440, "low_res_image_compression_quality": .number("0.8"),
                "low_res_image_max_dimension": 800, "max_centered_threshold_x": .number("0.2"),
                "max_centered_threshold_y": .number("0.2"), "max_coverage_threshold": .number("0.8"),
                "min_coverage_threshold": .number("0.07"), "min_edge_threshold": .number("0.05"), "num_samples": 8,
                "sample_interval": 250, "training_consent_text": "Allow Stripe to use your images to improve checks.",
                "models": [
                    "face_detector_min_iou": .number("0.5"), "face_detector_min_score": .number("0.8"),
                    "face_detector_url": .string(baseURL + Self.modelsPath + "/face_detector"),
                ],
            ],
            "individual": [
                "title": "Provide personal information", "button_text": "Submit",
                "address_countries": ["US": "United States"], "id_number_countries": ["US": "United States"],
                "phone_number_countries": ["US": "United States"],
                "id_number_country_not_listed_text_button_text": "My country is not listed",
                "address_country_not_listed_text_button_text": "My country is not listed",
            ],
            "individual_welcome": [
                "title": "Verify your identity", "body": "Test mode.", "get_started_button_text": "Get started",
                "privacy_policy": "Sandbox data only.", "time_estimate": "Takes about 1–2 minutes.",
                "lines": [["icon": "lock", "content": "Nothing you enter leaves the sandbox."]],
            ],
            "country_not_listed": [
                "title": "We cannot verify IDs from your country", "body": "Use an ID from a listed country.",
                "cancel_button_text": "Cancel", "id_from_other_country_text_button_text": "Use another ID",
                "address_from_other_country_text_button_text": "Use another address",
            ],
            "success": [
                "title": "Verification submitted", "body": "You can return to the app.", "button_text": "Complete",
            ],
        ]
    }

    /// The `VerificationPageData` of `/data`, `/submit` and `testing/*` (`id`, `status`, `submitted`, `closed`,
    /// `requirements{errors, missing}`).
    static func data(id: String, status: String, submitted: Bool, missing: [String]) -> JSONValue {
        [
            "id": .string(id), "object": "identity.verification_page_data", "status": .string(status),
            "submitted": .bool(submitted), "closed": .bool(submitted),
            "requirements": ["errors": [], "missing": .array(missing.map { .string($0) })],
        ]
    }

    /// ``data(id:status:submitted:missing:)`` as a JSON Schema.
    static let dataSchema = APISchema.object(
        [
            "id": .string, "object": .constant("identity.verification_page_data"),
            "status": .enumeration(["requires_input", "processing", "verified", "canceled"]),
            "submitted": .boolean, "closed": .boolean,
            "requirements": .object(
                ["errors": .array(.anyObject), "missing": .array(.enumeration(requiredFields))],
                required: ["errors", "missing"]),
        ], required: ["id", "status", "submitted", "closed", "requirements"])

    /// ``json`` as a JSON Schema (its top-level keys).
    static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("identity.verification_page"), "livemode": .boolean,
            "status": .enumeration(["requires_input", "processing", "verified", "canceled"]), "submitted": .boolean,
            "unsupported_client": .boolean, "fallback_url": .uri, "user_session_id": .string, "is_stripe": .boolean,
            "skip_success_page": .boolean, "experiments": .array(.anyObject),
            "requirements": .object(["missing": .array(.enumeration(requiredFields))], required: ["missing"]),
            "biometric_consent": .anyObject, "document_select": .anyObject, "document_capture": .anyObject,
            "selfie": .anyObject, "individual": .anyObject, "individual_welcome": .anyObject,
            "country_not_listed": .anyObject, "success": .anyObject,
        ],
        required: [
            "id", "livemode", "status", "submitted", "unsupported_client", "fallback_url", "requirements",
            "biometric_consent", "document_select", "document_capture", "success",
        ])
}
