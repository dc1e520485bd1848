import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The StripeIdentity sheet's calls (`IdentityAPIClient.swift`) with the ephemeral key of
/// `start_identity_verification`: each answer decodes into the SDK's models, and the outcomes move the L2
/// tier as the hosted identity page does.
@Suite(.blocking) struct StripeIdentitySDKTests {
    /// A JPEG's first bytes: the sandbox keeps only the size and purpose of what is uploaded.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 2048) + [0xFF, 0xD9]

    struct Fixture {
        let server: EmbeddedTestServer
        let user: EmbeddedTestServer.User
        let verificationId: String
        let identity: SDKClient

        init() throws {
            server = try EmbeddedTestServer(transport: .live)
            user = try server.signUpAndAuthorize()
            try server.collectKYC(user)
            let sdk = SDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
            let started = try sdk.post(
                "crypto/internal/start_identity_verification",
                [
                    "credentials": ["consumer_session_client_secret": .string(user.consumerSecret)],
                    "is_mobile": true,
                ], as: SDKStartIdentityVerificationResponse.self)
            verificationId = started.id
            // IdentityAPIClientImpl: a client of its own with the ephemeral key and the identity beta.
            identity = SDKClient(sandbox: server.sandbox, key: started.ephemeralKey, betas: ["identity_client_api=v7"])
        }

        func l2() throws -> String {
            try server.backend.get("/v1/crypto/customers/\(user.customerId)", headers: user.oauth)
                .string("kyc_tiers.2.verification_status")
        }

        func upload(_ name: String) throws -> String {
            let reply = try identity.upload(
                StripeIdentitySDKTests.jpeg, purpose: "identity_private", ownedBy: verificationId,
                fileName: "\(verificationId)_\(name)")
            let file = try identity.decoded(SDKStripeFile.self, reply, "files")
            #expect(file.size == StripeIdentitySDKTests.jpeg.count && file.purpose == "identity_private")
            return file.id
        }
    }

    /// Consent, front, back and selfie images, submit: the page empties its `missing` step by step and the
    /// document is verified.
    @Test func theCaptureFlowVerifiesTheDocument() throws {
        let fixture = try Fixture()
        let page = try fixture.identity.get(
            "identity/verification_pages/\(fixture.verificationId)", ["app_identifier": "com.example.test"],
            as: SDKVerificationPage.self)
        #expect(page.requirements.missing == [.biometricConsent, .idDocumentFront, .idDocumentBack, .face])
        #expect(!page.livemode && !page.submitted && page.status == .requiresInput, "the SDK's test-mode screen first")
        let path = "identity/verification_pages/\(fixture.verificationId)"
        let consent = try fixture.identity.post(
            "\(path)/data",
            [
                "collected_data": ["biometric_consent": true],
                "clear_data": [
                    "biometric_consent": false, "face": true, "id_document_back": true, "id_document_front": true,
                ],
            ], as: SDKVerificationPageData.self)
        #expect(consent.requirements.missing == [.idDocumentFront, .idDocumentBack, .face])
        for side in ["front", "back"] {
            let (high, low) = (try fixture.upload(side), try fixture.upload("\(side)_full_frame"))
            let answer = try fixture.identity.post(
                "\(path)/data",
                [
                    "collected_data": [
                        "id_document_\(side)": [
                            "high_res_image": .string(high), "low_res_image": .string(low),
                            "upload_method": "auto_capture",
                        ]
                    ]
                ], as: SDKVerificationPageData.self)
            #expect(!answer.requirements.missing.contains(side == "front" ? .idDocumentFront : .idDocumentBack))
        }
        let face = try fixture.identity.post(
            "\(path)/data",
            [
                "collected_data": [
                    "face": [
                        "best_high_res_image": .string(try fixture.upload("face")),
                        "best_low_res_image": .string(try fixture.upload("face_full_frame")),
                        "best_face_score": "0.9", "face_score_variance": "0.01", "num_frames": "8",
                        "training_consent": false,
                    ]
                ]
            ], as: SDKVerificationPageData.self)
        #expect(face.requirements.missing.isEmpty)
        let submitted = try fixture.identity.post("\(path)/submit", [:], as: SDKVerificationPageData.self)
        #expect(submitted.submitted && submitted.closed, "the sheet reports .flowCompleted")
        #expect(try fixture.l2() == "verified")
        let (again, againError) = try fixture.identity.error("POST", "\(path)/submit", [:])
        #expect(again == 400 && againError.error.code == "verification_page_submitted")
    }

    /// The test-mode screen's buttons: `testing/unverify` rejects the document, a new verification's
    /// `testing/verify` verifies it; a file must belong to the verification it is collected for.
    @Test func theTestModeScreenDecidesTheOutcome() throws {
        let fixture = try Fixture()
        let path = "identity/verification_pages/\(fixture.verificationId)"
        let (missingFile, missingError) = try fixture.identity.error(
            "POST", "\(path)/data", ["collected_data": ["id_document_front": ["high_res_image": "file_nope"]]])
        #expect(missingFile == 404 && missingError.error.code == "resource_missing")
        let rejected = try fixture.identity.post(
            "\(path)/testing/unverify", ["simulate_delay": false], as: SDKVerificationPageData.self)
        #expect(rejected.submitted && rejected.closed)
        #expect(try fixture.l2() == "rejected")

        let sdk = SDKClient(sandbox: fixture.server.sandbox, key: fixture.server.credentials.stripePublishableKey)
        let retry = try sdk.post(
            "crypto/internal/start_identity_verification",
            [
                "credentials": ["consumer_session_client_secret": .string(fixture.user.consumerSecret)],
                "is_mobile": true,
            ],
            as: SDKStartIdentityVerificationResponse.self)
        let second = SDKClient(
            sandbox: fixture.server.sandbox, key: retry.ephemeralKey, betas: ["identity_client_api=v7"])
        _ = try second.post(
            "identity/verification_pages/\(retry.id)/testing/verify", ["simulate_delay": false],
            as: SDKVerificationPageData.self)
        #expect(try fixture.l2() == "verified")
    }

    @Test func theEphemeralKeyOpensOnlyItsOwnVerification() throws {
        let fixture = try Fixture()
        let (other, otherError) = try fixture.identity.error("GET", "identity/verification_pages/vs_other", [:])
        #expect(other == 404 && otherError.error.code == "resource_missing")
        let stranger = SDKClient(sandbox: fixture.server.sandbox, key: "ek_test_unknown")
        let (unknown, unknownError) = try stranger.error(
            "GET", "identity/verification_pages/\(fixture.verificationId)", [:])
        #expect(unknown == 401 && unknownError.error.type == "authentication_error")
        let upload = try fixture.identity.upload(
            StripeIdentitySDKTests.jpeg, purpose: "identity_private", ownedBy: "vs_other", fileName: "x")
        #expect(upload.status == 404, "\(upload.text)")
    }
}
