import HTTPServer
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The Link consumer forms are decoded at the edge into what ``ConsumerService`` takes, with the
/// errors stripe-ios branches on.
@Suite struct ConsumerRequestTests {
    static func fields(_ pairs: KeyValuePairs<String, String>) -> RequestFields {
        RequestFields(.object(pairs.map { ($0.key, .string($0.value)) }))
    }

    @Test func aLookupTakesTheSecretThenTheIntentThenTheEmail() throws {
        #expect(
            try ConsumerLookup(
                Self.fields([
                    "email_address": "A@Example.com", "link_auth_intent_id": "lai_1",
                    "link_auth_token_client_secret": "latcs_1",
                ])) == .seamlessSignIn(clientSecret: "latcs_1"))
        #expect(
            try ConsumerLookup(Self.fields(["email_address": "A@Example.com", "link_auth_intent_id": "lai_1"]))
                == .linkAuthIntent(id: "lai_1"))
        #expect(try ConsumerLookup(Self.fields(["email_address": "A@Example.com"])) == .email("a@example.com"))
        #expect(throws: FieldError.self) { try ConsumerLookup(Self.fields([:])) }
    }

    @Test func aSignUpInfersTheUSFromAPlusOneNumberOnly() throws {
        let us = try ConsumerSignUp(Self.fields(["email_address": "a@example.com", "phone_number": "+14155550100"]))
        #expect(us.country == "US" && us.phone.e164 == "+14155550100" && us.legalName == "")
        let french = try ConsumerSignUp(
            Self.fields(["email_address": "a@example.com", "phone_number": "+33612345678", "country": "fr"]))
        #expect(french.country == "FR")
        do {
            _ = try ConsumerSignUp(Self.fields(["email_address": "a@example.com", "phone_number": "+33612345678"]))
            Issue.record("a +33 number without country was accepted")
        } catch let error as FieldError {
            #expect(error.code == "parameter_missing" && error.param == "country")
        }
    }

    @Test func aBadPhoneNumberIsTheErrorTheSDKRecognises() {
        do {
            _ = try ConsumerSignUp(Self.fields(["email_address": "a@example.com", "phone_number": "4155550100"]))
            Issue.record("a number without + was accepted")
        } catch let error as FieldError {
            // CryptoOnrampCoordinator.handlePhoneFormatError matches the start of this message.
            #expect(error.code == "invalid_phone_format")
            #expect(error.message.hasPrefix("There was an issue parsing the phone number."))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: FieldError.self) {
            try ConsumerSignUp(Self.fields(["email_address": "@example.com", "phone_number": "+14155550100"]))
        }
    }

    @Test func verificationFormsKeepWhatTheySay() throws {
        _ = try VerificationStart(Self.fields([:]))
        #expect(throws: FieldError.self) { try VerificationStart(Self.fields(["type": "EMAIL"])) }
        let confirmation = try VerificationConfirmation(Self.fields(["code": "000000", "consent_granted": "true"]))
        #expect(confirmation == VerificationConfirmation(code: "000000", consentGranted: true))
        #expect(try ConsentUpdate(Self.fields(["consent_granted": "false"])).granted == false)
        #expect(throws: FieldError.self) { try ConsentUpdate(Self.fields([:])) }
    }
}
