import HTTPServer
import OnrampCore
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// The Embedded forms are decoded at the edge into what the services take (``PaymentMethodService``,
/// ``CryptoCustomerService``, ``IdentityVerificationService``), with Stripe's error codes and params.
@Suite struct EmbeddedRequestTests {
    static func fields(_ body: JSONValue) -> RequestFields { RequestFields.stripe(body) }

    /// The Stripe error `decode` throws, as the edge renders it.
    static func refusal(_ decode: () throws -> Void) -> HTTPError? {
        do {
            try decode()
            return nil
        } catch let error as FieldError {
            return error.httpError
        } catch let error as HTTPError {
            return error
        } catch {
            Issue.record("not an HTTPError: \(error)")
            return nil
        }
    }

    @Test func aPaymentMethodIsACardACardTokenOrABankAccount() throws {
        let card: JSONValue = [
            "type": "card", "card": ["number": "4000 0000 0000 3220", "exp_month": "12", "exp_year": "2034"],
            "wallet": ["type": "apple_pay"],
        ]
        guard case .method(let method) = try PaymentMethodCreation(Self.fields(card)) else {
            Issue.record("a card is not a method")
            return
        }
        #expect(method.behaviour == .requiresAuthentication)
        #expect(method.card?.last4 == "3220")
        #expect(method.card?.brand == "visa")
        let token: JSONValue = ["type": "card", "card": ["token": "tok_123"]]
        guard case .cardToken("tok_123") = try PaymentMethodCreation(Self.fields(token)) else {
            Issue.record("a card token is not spent")
            return
        }
        let bank: JSONValue = [
            "type": "us_bank_account",
            "us_bank_account": ["routing_number": "110000000", "account_number": "000111111116"],
        ]
        guard case .method(let account) = try PaymentMethodCreation(Self.fields(bank)) else {
            Issue.record("a bank account is not a method")
            return
        }
        #expect(account.behaviour == .declines)
        #expect(Self.refusal { _ = try PaymentMethodCreation(Self.fields(["type": "sepa_debit"])) }?.param == "type")
        #expect(Self.refusal { _ = try PaymentMethodCreation(Self.fields(["type": "card"])) }?.param == "card")
    }

    @Test func aBadCardIsACardErrorOnItsField() {
        let wrongDigit = Self.refusal {
            _ = try TestPaymentMethod(
                card: Self.fields(["number": "4242424242424241", "exp_month": "12", "exp_year": "2034"]), wallet: nil)
        }
        #expect(wrongDigit?.status == 402 && wrongDigit?.code == "incorrect_number")
        #expect(wrongDigit?.param == "card[number]" && wrongDigit?.type == "card_error")
        let expired = Self.refusal {
            _ = try TestPaymentMethod(
                card: Self.fields(["number": "4242424242424242", "exp_month": "13", "exp_year": "2034"]), wallet: nil)
        }
        #expect(expired?.code == "invalid_expiry_year" && expired?.param == "card[exp_year]")
        #expect(TestPaymentMethod.passesLuhn("4242424242424242") && !TestPaymentMethod.passesLuhn("4242424242424243"))
    }

    @Test func anApplePayTokenIsTheCardItsStubNames() throws {
        let stubbed = try CardTokenCreation(
            Self.fields([
                "pk_token": "{}", "pk_token_transaction_id": "ApplePayStubs~4000000000000002~1~USD~sandbox",
            ]), livemode: false)
        #expect(stubbed.applePay && stubbed.method.behaviour == .declines)
        #expect(stubbed.method.card?.wallet?.type == "apple_pay")
        let plain = try CardTokenCreation(Self.fields(["pk_token": "{}"]), livemode: false)
        #expect(plain.method.card?.last4 == "4242")
        #expect(
            Self.refusal { _ = try CardTokenCreation(Self.fields(["pk_token": ""]), livemode: false) }?.param
                == "pk_token")
        #expect(
            Self.refusal { _ = try CardTokenCreation(Self.fields([:]), livemode: false) }?.code == "parameter_missing")
    }

    /// A payment method reads back from what earlier versions stored (a card's `wallet` as `null`, a Link
    /// update's members appended out of order, a bank account) and from what it stores itself.
    @Test func storedPaymentMethodsReadBack() throws {
        let card = try TestPaymentMethod(
            storedText:
                #"{"type":"card","behaviour":"declines","card":{"brand":"visa","funding":"credit","last4":"0002","wallet":null,"exp_month":1,"exp_year":2030,"preferred_network":"visa"}}"#
        )
        #expect(card.behaviour == .declines && card.type == .card)
        #expect(
            card.card
                == .init(
                    brand: "visa", expMonth: 1, expYear: 2030, funding: "credit", last4: "0002", wallet: nil,
                    preferredNetwork: "visa"))
        let bank = try TestPaymentMethod(
            storedText:
                #"{"type":"us_bank_account","behaviour":"succeeds","us_bank_account":{"account_type":"checking","bank_name":"STRIPE TEST BANK","last4":"6789","routing_number":"110000000"}}"#
        )
        #expect(bank.type == .ach && bank.bankAccount?.last4 == "6789" && bank.card == nil)
        for method in [
            card, bank,
            .card(brand: "visa", last4: "4242", expMonth: 12, expYear: 2034, wallet: "apple_pay", behaviour: .succeeds),
        ] {
            let again = try TestPaymentMethod(storedText: method.storedText)
            #expect(
                again.card == method.card && again.bankAccount == method.bankAccount
                    && again.behaviour == method.behaviour)
        }
        #expect(throws: OnrampError.self) {
            try TestPaymentMethod(storedText: #"{"type":"card","behaviour":"succeeds"}"#)
        }
    }

    /// The simulator's request (StripeApplePay `Token+API.swift` at 0032a69d): empty payment data beside the
    /// stub id. Test mode takes the stub's card (4242 when it names none); live mode refuses the empty token.
    @Test func theSimulatorsEmptyApplePayTokenIsATestModeCard() throws {
        let simulator: JSONValue = [
            "pk_token": "", "pk_token_transaction_id": "ApplePayStubs~4000000000003220~0~USD~A1B2",
        ]
        let named = try CardTokenCreation(Self.fields(simulator), livemode: false)
        #expect(named.applePay && named.method.behaviour == .requiresAuthentication)
        let unnamed = try CardTokenCreation(
            Self.fields(["pk_token": "", "pk_token_transaction_id": "ApplePayStubs~~0~USD~A1B2"]), livemode: false)
        #expect(unnamed.method.card?.last4 == "4242")
        let live = Self.refusal { _ = try CardTokenCreation(Self.fields(simulator), livemode: true) }
        #expect(live?.code == "parameter_invalid" && live?.param == "pk_token")
    }

    @Test func kycDataKeepsDigitsAValidDateAndAnUpperCasedAddress() throws {
        let kyc = try KYCCollection(
            Self.fields([
                "first_name": "Ada", "last_name": "Lovelace", "id_number": "000-00-0000",
                "dob": ["day": "29", "month": "2", "year": "2000"],
                "address": ["line1": "1 Main St", "city": "Boston", "state": "ma", "country": "us"],
            ]))
        #expect(kyc.idNumber == "000000000" && kyc.idType == "social_security_number")
        #expect(kyc.dob == "2000-02-29")
        #expect(kyc.address == ["line1": "1 Main St", "city": "Boston", "state": "MA", "country": "US"])
        let notALeapDay = Self.refusal {
            _ = try KYCCollection(
                Self.fields([
                    "first_name": "Ada", "last_name": "Lovelace", "line1": "1 Main St",
                    "dob": ["day": "29", "month": "2", "year": "1900"],
                ]))
        }
        #expect(notALeapDay?.param == "dob")
        let letters = Self.refusal {
            _ = try KYCCollection(
                Self.fields(["first_name": "Ada", "last_name": "Lovelace", "line1": "1 Main St", "id_number": "12ab"]))
        }
        #expect(letters?.param == "id_number")
        let noAddress = Self.refusal { _ = try KYCCollection(Self.fields(["first_name": "Ada", "last_name": "L"])) }
        #expect(noAddress?.param == "line1")
    }

    @Test func aPaymentTokenNamesItsCustomerAndIsHeadless() throws {
        let creation = try PaymentTokenCreation(
            Self.fields(["crypto_customer_id": "crc_1", "payment_method": "pm_1", "ui_mode": "headless"]))
        #expect(creation.customerId == "crc_1" && creation.paymentMethodId == "pm_1")
        let noCustomer = Self.refusal { _ = try PaymentTokenCreation(Self.fields(["payment_method": "pm_1"])) }
        #expect(noCustomer?.code == "missing_crypto_customer_id" && noCustomer?.param == "crypto_customer_id")
        let embedded = Self.refusal {
            _ = try PaymentTokenCreation(
                Self.fields(["crypto_customer_id": "crc_1", "payment_method": "pm_1", "ui_mode": "embedded"]))
        }
        #expect(embedded?.param == "ui_mode")
    }

    @Test func verificationDataClearsAddsAndNamesEachFileItsParameter() throws {
        let update = try VerificationPageDataUpdate([
            "clear_data": ["face": "true", "id_document_back": "false"],
            "collected_data": [
                "biometric_consent": "true", "id_document_front": ["high_res_image": "file_1"],
                "face": ["best_high_res_image": "file_2"],
            ],
        ])
        #expect(update.cleared == ["face"] && update.biometricConsent)
        #expect(update.files.map(\.fileId) == ["file_1", "file_2"])
        #expect(
            update.files.map(\.parameter) == [
                "collected_data[id_document_front][high_res_image]", "collected_data[face][best_high_res_image]",
            ])
        let noImage = Self.refusal {
            _ = try VerificationPageDataUpdate(["collected_data": ["face": ["high_res_image": "file_2"]]])
        }
        #expect(noImage?.code == "parameter_missing")
    }

    @Test func anEndpointChangeEnablesDisablesOrFailsUpToAHundred() throws {
        #expect(try EndpointChange(form: ["action": "enable"]) == .enable)
        #expect(try EndpointChange(form: ["action": "disable"]) == .disable)
        #expect(try EndpointChange(form: ["action": "fail", "count": "100"]) == .failNext(100))
        #expect(throws: ConsoleFormError.self) { try EndpointChange(form: ["action": "fail", "count": "101"]) }
        #expect(throws: ConsoleFormError.self) { try EndpointChange(form: ["action": "fail", "count": "-1"]) }
        #expect(throws: ConsoleFormError.self) { try EndpointChange(form: ["action": "delete"]) }
    }
}
