import OnrampCore
import OnrampStore
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// An onramp session's details are stored as a JSON object and read back by the next request:
/// every member, optional ones present and absent, must survive the round trip.
@Suite struct OnrampSessionDetailsTests {
    static func purchase(amount: EmbeddedAmount, metadata: [String: String]?, ip: String?) -> OnrampSessionPurchase {
        OnrampSessionPurchase(
            sourceCurrency: "usd", destinationCurrency: "usdc", destinationNetwork: "base",
            destinationCurrencies: ["usdc"], destinationNetworks: ["base", "solana"],
            walletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", paymentToken: "cpt_1",
            settlementSpeed: .standard, customerIPAddress: ip, metadata: metadata, amount: amount)
    }

    static let quoted = OnrampSessionDetails.QuotedAmounts(
        sourceAmount: "50.00", sourceTotalAmount: "51.26", destinationAmount: "50.000000", networkFeeAmount: "0.01",
        transactionFeeAmount: "1.25")

    @Test func detailsSurviveTheirStoredForm() throws {
        var full = OnrampSessionDetails(
            purchase: Self.purchase(
                amount: .destination(try DecimalAmount(parsing: "50.5")), metadata: ["order": "42"], ip: "203.0.113.7"),
            quoted: Self.quoted)
        full.nextActionURL = "http://127.0.0.1/v1/crypto/test/3ds?session=cos_1&token=t"
        let bare = OnrampSessionDetails(
            purchase: Self.purchase(amount: .source(try DecimalAmount(parsing: "50")), metadata: nil, ip: nil),
            quoted: Self.quoted)
        for details in [full, bare] {
            let stored = try JSONParser().parse(details.stored.serializedString)
            #expect(try OnrampSessionDetails(stored: stored) == details)
        }
    }

    @Test func detailsMissingAMemberAreRefused() throws {
        let details = OnrampSessionDetails(
            purchase: Self.purchase(amount: .source(try DecimalAmount(parsing: "50")), metadata: nil, ip: nil),
            quoted: Self.quoted)
        let members = try #require(details.stored.objectValue)
        let lacking = JSONValue.object(members.filter { $0.0 != "payment_token" })
        #expect(throws: StoreError.self) { try OnrampSessionDetails(stored: lacking) }
    }

    /// Each KYC refusal shows as the session's `last_error` the SDK documents for it.
    @Test func kycRefusalsBecomeTheirLastError() {
        func refusal(_ code: OnrampError.Code) -> OnrampError {
            OnrampError(code: code, userMessage: "", developerMessage: "")
        }
        #expect(
            OnrampSessionLastError(kycRefusal: refusal(.missingDocumentVerification)) == .missingDocumentVerification)
        #expect(OnrampSessionLastError(kycRefusal: refusal(.unsupportedCountry)) == .locationNotSupported)
        #expect(OnrampSessionLastError(kycRefusal: refusal(.transactionLimitReached)) == .transactionLimitReached)
        #expect(OnrampSessionLastError(kycRefusal: refusal(.missingIdentityVerification)) == .missingKYC)
    }
}
