import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The 2026 KYC and compliance calls as stripe-android's `crypto-onramp` sends them
/// (`../shared/audits/stripe-android-2026.md` §6): an EU customer's identifier requirements and their
/// submission, its document and question requirement, a KYC document uploaded and the requirement fulfilled
/// with the consumer's link session key (`lsk_…`), on SQLite and PostgreSQL; and the key's scope.
@Suite(.blocking) struct StripeAndroidKYCTests {
    /// A signed-in user whose KYC is collected with a French address and French and Polish nationalities, the
    /// client, and the session's link session key (from a refresh's answer, as the SDK reads it).
    struct EUCustomer {
        let server: EmbeddedTestServer
        let user: EmbeddedTestServer.User
        let sdk: AndroidSDKClient
        let linkSessionKey: String

        init(server: EmbeddedTestServer) throws {
            self.server = server
            user = try server.signUpAndAuthorize()
            sdk = AndroidSDKClient(sandbox: server.sandbox, key: server.credentials.stripePublishableKey)
            let collected = try sdk.send(
                "POST", "crypto/internal/kyc_data_collection",
                [
                    androidCredentials(user.consumerSecret), .value("first_name", "Ada"),
                    .value("last_name", "Verified"),
                    .map("dob", [.value("day", "15"), .value("month", "6"), .value("year", "1990")]),
                    .value("line1", "address_full_match"), .value("city", "Paris"), .value("zip", "75001"),
                    .value("country", "FR"), .list("nationalities", ["FR", "PL"]),
                ])
            #expect(collected.status == 200, "\(collected.text)")
            let refreshed = try sdk.post(
                "consumers/sessions/refresh",
                [.value("app_id", "com.example.wallet"), androidCredentials(user.consumerSecret)],
                as: AndroidSessionResponse.self)
            linkSessionKey = try #require(refreshed.consumerSession.linkSessionKey)
        }
    }

    /// `fulfill_kyc_requirements`' form for the proof of address: one utility bill (`fileId`) and the purpose.
    static func fulfilment(fileId: String, answer: String) -> [AndroidParameter] {
        [
            .map(
                "requirements",
                [
                    .map(
                        "proof_of_address",
                        [
                            .value("requested_by", "stripe"),
                            .map(
                                "documents",
                                [.map("0", [.value("document_subtype", "utility_bill"), .list("file_ids", [fileId])])]),
                            .map(
                                "additional_requirements",
                                [
                                    .map(
                                        "questionnaire",
                                        [
                                            .map(
                                                "answers",
                                                [
                                                    .map(
                                                        "0",
                                                        [
                                                            .value("question_id", "purchase_purpose"),
                                                            .value("value", answer),
                                                        ])
                                                ])
                                        ])
                                ]),
                        ])
                ])
        ]
    }

    @Test(arguments: DatabaseDriver.all)
    func anEUCustomerOwesIdentifiersAndAProofOfAddressAndFulfilsThem(driver: DatabaseDriver) throws {
        let customer = try EUCustomer(
            server: try EmbeddedTestServer(settlementDelay: 30, driver: driver, transport: .live))
        let sdk = customer.sdk
        let secret = customer.user.consumerSecret
        #expect(customer.linkSessionKey.hasPrefix("lsk_"))

        // MiCA: an identifier per nationality (Poland's PESEL or NIP); CRS/CARF: a TIN of the residence.
        let owed = try sdk.get(
            "crypto/internal/identifier_requirements", [], as: AndroidIdentifierRequirements.self,
            consumerSecret: secret)
        #expect(
            owed.identifiers == [
                .init(type: "fr_spi", regulation: .euMica), .init(type: "pl_pesel", regulation: .euMica),
                .init(type: "fr_spi", regulation: .euCarf),
            ])
        #expect(
            owed.alternatives == [
                .init(originalMissingIdentifiers: ["pl_pesel"], alternativeMissingIdentifiers: ["pl_nip"])
            ])
        let submitted = try sdk.post(
            "crypto/internal/eu_identifiers",
            [
                androidCredentials(secret),
                .map(
                    "identifiers",
                    [
                        .map("0", [.value("type", "fr_spi"), .value("value", "30 23 456 789 012")]),
                        .map("1", [.value("type", "pl_nip"), .value("value", "123-456-32-18")]),
                        .map("2", [.value("type", "xx_tin"), .value("value", "1234")]),
                    ]),
            ], as: AndroidIdentifierRequirements.self)
        #expect(!submitted.valid && submitted.invalidIdentifiers == ["xx_tin"])
        #expect(submitted.identifiers.isEmpty && submitted.alternatives.isEmpty, "the alternative stands for PESEL")
        let stored = try customer.server.database.read {
            try $0.query("SELECT value_hash, value_last4 FROM customer_identifiers", []).map {
                "\(try $0.string("value_hash")) \(try $0.string("value_last4"))"
            }
        }
        #expect(stored.count == 2 && !stored.joined().contains("456 789"), "only a hash and the last 4 are kept")

        // The document and question requirement, a document uploaded with the link session key, fulfilled.
        let requirements = try sdk.get(
            "crypto/internal/kyc_requirements", [], as: AndroidKycRequirementsResponse.self, consumerSecret: secret)
        let proof = try #require(requirements.requirements["proof_of_address"])
        #expect(proof.awaitingActionFrom == "user" && proof.document?.acceptedFormats.contains("pdf") == true)
        #expect(proof.additionalRequirements?.questionnaire?.questions.first?.id == "purchase_purpose")
        let upload = try sdk.uploadKYCDocument(
            Array("%PDF-1.4 utility bill".utf8), contentType: "application/pdf", fileName: "bill.pdf",
            key: customer.linkSessionKey)
        let file = try sdk.decode(AndroidIdResponse.self, "files", upload)
        #expect(upload.status == 200 && file.id.hasPrefix("file_"), "\(upload.text)")
        let fulfil = Self.fulfilment(fileId: file.id, answer: "Investment")
        let fulfilled = try sdk.send(
            "POST", "crypto/internal/fulfill_kyc_requirements", fulfil, key: customer.linkSessionKey)
        #expect(fulfilled.status == 200 && fulfilled.text.hasPrefix("{"), "\(fulfilled.text)")
        let again = try sdk.send(
            "POST", "crypto/internal/fulfill_kyc_requirements", fulfil, key: customer.linkSessionKey)
        #expect(again.status == 400 && again.text.contains("kyc_requirement_not_outstanding"), "once")
        let after = try sdk.get(
            "crypto/internal/kyc_requirements", [], as: AndroidKycRequirementsResponse.self, consumerSecret: secret)
        #expect(after.requirements.isEmpty)
    }

    /// A link session key acts for its own customer only, on the calls that take one: another customer's file
    /// is not found, another route refuses the key, and a logged-out session's key stops working. A US
    /// customer owes nothing.
    @Test func aLinkSessionKeyActsForItsCustomerAloneAndOnlyWhereItIsTaken() throws {
        let server = try EmbeddedTestServer(settlementDelay: 30, transport: .live)
        let first = try EUCustomer(server: server)
        let second = try EUCustomer(server: server)
        let upload = try first.sdk.uploadKYCDocument(
            Array("%PDF-1.4".utf8), contentType: "application/pdf", fileName: "a.pdf", key: first.linkSessionKey)
        let file = try first.sdk.decode(AndroidIdResponse.self, "files", upload)
        let foreign = Self.fulfilment(fileId: file.id, answer: "x")
        let refused = try second.sdk.send(
            "POST", "crypto/internal/fulfill_kyc_requirements", foreign, key: second.linkSessionKey)
        #expect(refused.status == 404 && refused.text.contains("resource_missing"), "\(refused.text)")
        let elsewhere = try first.sdk.send(
            "POST", "crypto/internal/customers", [androidCredentials(first.user.consumerSecret)],
            key: first.linkSessionKey)
        #expect(elsewhere.status == 401, "\(elsewhere.text)")
        let wrongPurpose = try first.sdk.send("GET", "crypto/internal/platform_settings", [], key: first.linkSessionKey)
        #expect(wrongPurpose.status == 401)
        _ = try first.sdk.send(
            "POST", "consumers/sessions/log_out", [androidCredentials(first.user.consumerSecret)])
        let loggedOut = try first.sdk.send(
            "POST", "crypto/internal/fulfill_kyc_requirements", foreign, key: first.linkSessionKey)
        #expect(loggedOut.status == 401, "\(loggedOut.text)")

        let american = try server.signUpAndAuthorize()
        try server.collectKYC(american)
        let none = try first.sdk.get(
            "crypto/internal/identifier_requirements", [], as: AndroidIdentifierRequirements.self,
            consumerSecret: american.consumerSecret)
        #expect(none.identifiers.isEmpty)
        let noDocuments = try first.sdk.get(
            "crypto/internal/kyc_requirements", [], as: AndroidKycRequirementsResponse.self,
            consumerSecret: american.consumerSecret)
        #expect(noDocuments.requirements.isEmpty)
    }
}
