import OnrampCore
import Testing

@Suite struct KYCPolicyTests {
    let policy = KYCPolicy()

    private func decide(
        _ verifications: CustomerVerifications, _ value: String, currency: String = "usd", country: String = "US",
        subdivision: String? = "CA", method: PaymentMethodType = .card, risk: Bool = false, rejected: Bool = false
    ) throws -> Result<KYCTier, OnrampError> {
        policy.evaluate(
            KYCPolicy.Request(
                verifications: verifications,
                amount: Money(amount: try DecimalAmount(parsing: value), currency: currency),
                country: country, subdivision: subdivision, paymentMethod: method,
                riskRequiresDocumentVerification: risk, checksRejected: rejected))
    }

    private func code(_ result: Result<KYCTier, OnrampError>) -> OnrampError.Code? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    @Test func l1CustomerBuysWithinL1Limit() throws {
        #expect(try decide(.verified(through: .l1), "100") == .success(.l1))
        #expect(try decide(.verified(through: .l1), "1000") == .success(.l1))
    }

    @Test func missingL0IsMinimumIdentityError() throws {
        #expect(try code(decide(CustomerVerifications(), "10")) == .missingMinimumIdentityVerification)
    }

    @Test func l0OnlyNeedsIdentityVerification() throws {
        #expect(try code(decide(.verified(through: .l0), "10")) == .missingIdentityVerification)
    }

    @Test func aboveL1LimitNeedsDocumentVerification() throws {
        #expect(try code(decide(.verified(through: .l1), "1000.01")) == .missingDocumentVerification)
        #expect(try decide(.verified(through: .l2), "1000.01") == .success(.l2))
    }

    @Test func riskRulesDemandDocumentsInsideTheLimit() throws {
        #expect(try code(decide(.verified(through: .l1), "50", risk: true)) == .missingDocumentVerification)
        #expect(try decide(.verified(through: .l2), "50", risk: true) == .success(.l2))
    }

    @Test func aboveL2LimitIsRefused() throws {
        #expect(try code(decide(.verified(through: .l2), "25000.01")) == .transactionLimitReached)
    }

    @Test func pendingVerificationFails() throws {
        let pendingL1 = CustomerVerifications(tiers: [.l0: .verified, .l1: .pending])
        #expect(try code(decide(pendingL1, "10")) == .missingIdentityVerification)
        let pendingL0 = CustomerVerifications(tiers: [.l0: .pending])
        #expect(try code(decide(pendingL0, "10")) == .missingMinimumIdentityVerification)
        let pendingL2 = CustomerVerifications(tiers: [.l0: .verified, .l1: .verified, .l2: .pending])
        #expect(try code(decide(pendingL2, "5000")) == .missingDocumentVerification)
    }

    @Test func rejectedVerificationFails() throws {
        let rejected = CustomerVerifications(tiers: [.l0: .verified, .l1: .verified, .l2: .rejected])
        #expect(try code(decide(rejected, "5000")) == .missingDocumentVerification)
    }

    /// A rejected phone or identity check refuses the customer before anything else is weighed.
    @Test func rejectedChecksMakeTheCustomerUnsupportable() throws {
        #expect(try code(decide(.verified(through: .l2), "10", rejected: true)) == .unsupportableCustomer)
        let inNewYork = try decide(.verified(through: .l2), "10", subdivision: "NY", rejected: true)
        #expect(code(inNewYork) == .unsupportableCustomer)
        #expect(try decide(.verified(through: .l2), "10", rejected: false) == .success(.l1))
    }

    @Test func newYorkIsUnsupported() throws {
        #expect(try code(decide(.verified(through: .l2), "10", subdivision: "NY")) == .unsupportedCountry)
        #expect(try code(decide(.verified(through: .l2), "10", subdivision: "US-NY")) == .unsupportedCountry)
    }

    @Test func usNeedsUSD() throws {
        #expect(try code(decide(.verified(through: .l2), "10", currency: "eur")) == .unsupportedCountry)
    }

    /// EU customers pay in euros, by card, and need L2 for any amount (Stripe's EU KYC guide: "L2 verification
    /// (document and selfie) is mandatory for all EU users").
    @Test func euNeedsEURCardsAndL2() throws {
        let verified = CustomerVerifications.verified(through: .l2)
        #expect(try decide(verified, "10", currency: "eur", country: "DE", subdivision: nil) == .success(.l2))
        #expect(
            try decide(verified, "10", currency: "eur", country: "fr", subdivision: nil, method: .applePay)
                == .success(.l2))
        #expect(
            try code(decide(.verified(through: .l1), "10", currency: "eur", country: "DE", subdivision: nil))
                == .missingDocumentVerification)
        #expect(
            try code(decide(verified, "10", currency: "usd", country: "DE", subdivision: nil)) == .unsupportedCountry)
        #expect(
            try code(decide(verified, "10", currency: "eur", country: "DE", subdivision: nil, method: .ach))
                == .unsupportedCountry)
    }

    @Test func otherCountriesAreUnsupported() throws {
        #expect(try code(decide(.verified(through: .l2), "10", currency: "gbp", country: "GB")) == .unsupportedCountry)
        #expect(try code(decide(.verified(through: .l2), "10", country: "CA")) == .unsupportedCountry)
    }

    @Test func regionIsCheckedBeforeKYC() throws {
        #expect(try code(decide(CustomerVerifications(), "10", subdivision: "NY")) == .unsupportedCountry)
    }

    @Test func throwingCheckReturnsTier() throws {
        let request = KYCPolicy.Request(
            verifications: .verified(through: .l1),
            amount: Money(amount: try DecimalAmount(parsing: "5"), currency: "USD"),
            country: "US")
        #expect(try policy.check(request) == .l1)
    }

    @Test func tiersListTheirFieldsAndOrder() {
        #expect(KYCTier.l0.requiredFields == ["name", "phone", "email", "address"])
        #expect(KYCTier.l2.requiredFields.suffix(2) == ["id_document", "selfie"])
        #expect(KYCTier.l0 < .l1 && KYCTier.l1 < .l2)
        #expect(CustomerVerifications.verified(through: .l1).highestVerifiedTier == .l1)
        #expect(CustomerVerifications(tiers: [.l1: .verified]).highestVerifiedTier == nil)
    }
}
