import Foundation
import OnrampCore
import OnrampStore
import OnrampWire
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// An onramp session's details are kept in a column each (migration 710) and read back by the next request:
/// every member, optional ones present and absent, must survive the round trip through each database, and
/// sessions stored before, as one JSON `details` column, must read the same after the migration.
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

    /// One with every optional member, one with none.
    static func examples() throws -> (full: OnrampSessionDetails, bare: OnrampSessionDetails) {
        var full = OnrampSessionDetails(
            purchase: Self.purchase(
                amount: .destination(try DecimalAmount(parsing: "50.5")), metadata: ["order": "42", "cart": "7"],
                ip: "203.0.113.7"),
            quoted: Self.quoted)
        full.nextActionURL = "http://127.0.0.1/v1/crypto/test/3ds?session=cos_1&token=t"
        let bare = OnrampSessionDetails(
            purchase: Self.purchase(amount: .source(try DecimalAmount(parsing: "50")), metadata: nil, ip: nil),
            quoted: Self.quoted)
        return (full, bare)
    }

    /// The details' columns as a row of `database`, from their values bound as parameters.
    static func row(of details: OnrampSessionDetails, in database: any Database, leaving: String? = nil) throws -> Row {
        let columns =
            ["destination_currency", "destination_network"] + OnrampSessionDetails.purchaseColumns
            + OnrampSessionDetails.quoteColumns
        let values =
            [.text(details.purchase.destinationCurrency), .text(details.purchase.destinationNetwork)]
            + details.purchaseValues + details.quoteValues
        let select = zip(columns, values).map { column, value in
            column == leaving ? "CAST(NULL AS TEXT) AS \(column)" : "CAST(? AS TEXT) AS \(column)"
        }
        let bound = zip(columns, values).filter { $0.0 != leaving }.map(\.1)
        return try #require(try database.read { try $0.query("SELECT " + select.joined(separator: ", "), bound) }.first)
    }

    @Test(arguments: DatabaseDriver.all)
    func detailsSurviveTheirColumns(driver: DatabaseDriver) throws {
        try withWebhookDatabaseURL(driver) { url in
            let database = try DatabaseURL.open(url)
            defer { database.close() }
            let (full, bare) = try Self.examples()
            for details in [full, bare] {
                #expect(try OnrampSessionDetails(row: Self.row(of: details, in: database)) == details)
            }
            #expect(throws: StoreError.self) {
                try OnrampSessionDetails(row: Self.row(of: bare, in: database, leaving: "payment_token"))
            }
        }
    }

    /// Sessions saved before migration 710, their details one JSON object as the server wrote it then, read
    /// the same once their details are copied into the columns.
    @Test(arguments: DatabaseDriver.all)
    func sessionsStoredAsJSONReadTheSameAfterTheMigration(driver: DatabaseDriver) throws {
        let scratch = try ScratchDatabase(driver, migrated: false)
        defer { scratch.drop() }
        do {
            let database = try DatabaseURL.open(scratch.url)
            defer { database.close() }
            try database.migrate(Schema.migrations.filter { $0.version < 710 })
            let project = try ProjectProvisioner(database: database).createProject(
                name: "Before 710", appIds: [], redirectHosts: [], keyType: .es256
            ).projectId
            let fullJSON = """
                {"amount_input":"50.5","amount_side":"destination","customer_ip_address":"203.0.113.7",\
                "destination_amount":"50.000000","destination_currencies":["usdc"],"destination_currency":"usdc",\
                "destination_network":"base","destination_networks":["base","solana"],\
                "metadata":{"cart":"7","order":"42"},"network_fee_amount":"0.01",\
                "next_action_url":"http://127.0.0.1/v1/crypto/test/3ds?session=cos_1&token=t",\
                "payment_token":"cpt_1","settlement_speed":"standard","source_amount":"50.00",\
                "source_currency":"usd","source_total_amount":"51.26","transaction_fee_amount":"1.25",\
                "wallet_address":"0x52908400098527886E0F7030069857D2E4169EE7"}
                """
            let bareJSON = """
                {"amount_input":"50","amount_side":"source","customer_ip_address":null,\
                "destination_amount":"50.000000","destination_currencies":["usdc"],"destination_currency":"usdc",\
                "destination_network":"base","destination_networks":["base","solana"],"network_fee_amount":"0.01",\
                "payment_token":"cpt_1","settlement_speed":"standard","source_amount":"50.00",\
                "source_currency":"usd","source_total_amount":"51.26","transaction_fee_amount":"1.25",\
                "wallet_address":"0x52908400098527886E0F7030069857D2E4169EE7"}
                """
            try database.transaction { connection in
                try connection.execute(
                    """
                    INSERT INTO link_consumers (id, project_id, email, email_hash, phone, country, legal_name, created_at)
                    VALUES ('lc_1', ?, 'a@example.com', 'h', '+14155550123', 'US', 'A', 0)
                    """, [.text(project)])
                try connection.execute(
                    """
                    INSERT INTO crypto_customers (id, project_id, consumer_id, livemode, country, phone_status,
                        kyc_status, document_status, created_at)
                    VALUES ('crc_1', ?, 'lc_1', 0, 'US', 'verified', 'verified', 'verified', 0)
                    """, [.text(project)])
                for (id, details) in [("cos_full", fullJSON), ("cos_bare", bareJSON)] {
                    try connection.execute(
                        """
                        INSERT INTO crypto_onramp_sessions (id, project_id, customer_id, client_secret, livemode, status,
                            last_error, details, destination_currency, destination_network, quote_expires_at,
                            created_at, updated_at)
                        VALUES (?, ?, 'crc_1', 'secret', 0, 'requires_payment', 'action_required', ?, 'usdc', 'base',
                            0, 0, 0)
                        """, [.text(id), .text(project), .text(details)])
                }
            }
            try database.migrate(Schema.migrations)
            let (full, bare) = try Self.examples()
            let read = try database.read { connection in
                try ["cos_full", "cos_bare"].map {
                    try OnrampSessionRecord.find(anyProject: connection, id: $0)?.details
                }
            }
            #expect(read == [full, bare])
        }
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
