import OnrampCore
import OnrampStore
import OnrampWire

/// The crypto customers table and what hangs off a customer (its KYC, verifications, wallets and payment
/// tokens), on the caller's connection.
package enum CryptoCustomerRepository {
    /// The customer of `consumerId`, created on first use; returns its id.
    package static func getOrCreate(
        _ connection: any SQLConnection, ids: IdGenerator, now: Int64, projectId: String, consumerId: String,
        livemode: Bool
    ) throws -> String {
        if let id = try connection.query("SELECT id FROM crypto_customers WHERE consumer_id = ?", [.text(consumerId)])
            .first?.string("id")
        {
            return id
        }
        let country =
            try connection.query("SELECT country FROM link_consumers WHERE id = ?", [.text(consumerId)]).first?
            .string("country") ?? "US"
        let id = ids.id(prefix: IdPrefix.cryptoCustomer)
        // A parallel request may create it first: then this insert does nothing (waiting for that one to
        // commit), and the customer it made is the answer, never a unique-key 500.
        let inserted = try connection.execute(
            """
            INSERT INTO crypto_customers (id, project_id, consumer_id, livemode, country, phone_status, kyc_status,
                document_status, created_at)
            VALUES (?, ?, ?, ?, ?, 'not_started', 'not_started', 'not_started', ?)
            ON CONFLICT (consumer_id) DO NOTHING
            """,
            [
                .text(id), .text(projectId), .text(consumerId), .integer(livemode ? 1 : 0), .text(country),
                .integer(now),
            ])
        if inserted == 1 { return id }
        guard
            let existing = try connection.query(
                "SELECT id FROM crypto_customers WHERE consumer_id = ?", [.text(consumerId)]
            ).first?.string("id")
        else { throw StoreError(.constraintViolation, "crypto_customers insert conflicted but no row is visible") }
        return existing
    }

    /// The customer `id` in `projectId`.
    package static func find(_ connection: any SQLConnection, id: String, projectId: String) throws -> CryptoCustomer? {
        try connection.run(lookup(id: id, projectId: projectId))
    }

    /// The query of ``find(_:id:projectId:)``.
    package static func lookup(id: String, projectId: String) -> SQLQuery<CryptoCustomer?> {
        SQLQuery(
            """
            SELECT c.*, l.legal_name AS legal_name
            FROM crypto_customers c JOIN link_consumers l ON l.id = c.consumer_id
            WHERE c.id = ? AND c.project_id = ?
            """, [.text(id), .text(projectId)]
        ) { try $0.rows.first.map(CryptoCustomer.init(row:)) }
    }

    /// The customer of `consumerId`.
    package static func find(_ connection: any SQLConnection, consumerId: String) throws -> CryptoCustomer? {
        try connection.query(
            """
            SELECT c.*, l.legal_name AS legal_name
            FROM crypto_customers c JOIN link_consumers l ON l.id = c.consumer_id
            WHERE c.consumer_id = ?
            """, [.text(consumerId)]
        ).first.map(CryptoCustomer.init(row:))
    }

    /// What a customer has several of, each a table of rows with a `customer_id`.
    package enum Items: String {
        case wallets = "crypto_wallets"
        case paymentTokens = "payment_tokens"

        /// The columns a list of them reads.
        package var listedColumns: String {
            switch self {
            case .wallets: "id, network, wallet_address, livemode, verified_ownership"
            case .paymentTokens: "id, details"
            }
        }
    }

    /// KYC data as a customer attaches it: the id number only as its keyed hash and last 4 digits.
    package struct KYCSubmission {
        package let firstName: String
        package let lastName: String
        /// `nil` keeps the stored one (a later call without the number).
        package let idNumberHash: String?
        package let idNumberLast4: String?
        package let idType: String?
        package let dob: String?
        package let address: [String: String]
        package let country: String
        /// `nil` keeps the stored ones (a call that sends none).
        package let nationalities: [String]?
        package let birthCountry: String?
        package let birthCity: String?
        /// When the sandbox decides the phone and KYC checks.
        package let verificationDueAt: Int64
    }

    /// Stores `kyc` on the customer: the phone check starts again, and the KYC check too once an id
    /// number is on file.
    package static func attach(_ kyc: KYCSubmission, to customerId: String, on connection: any SQLConnection) throws {
        let idHash = kyc.idNumberHash.map(SQLValue.text) ?? .null
        try connection.execute(
            """
            UPDATE crypto_customers SET first_name = ?, last_name = ?, id_number_hash = COALESCE(?, id_number_hash),
                id_number_last4 = COALESCE(?, id_number_last4), id_type = COALESCE(?, id_type),
                dob = COALESCE(?, dob), line1 = ?, line2 = ?, city = ?, state = ?, zip = ?, country = ?,
                nationalities = COALESCE(?, nationalities), birth_country = COALESCE(?, birth_country),
                birth_city = COALESCE(?, birth_city), phone_status = 'pending',
                kyc_status = CASE WHEN COALESCE(?, id_number_hash) IS NULL THEN kyc_status ELSE 'pending' END,
                verification_due_at = ?
            WHERE id = ?
            """,
            [
                .text(kyc.firstName), .text(kyc.lastName), idHash, kyc.idNumberLast4.map(SQLValue.text) ?? .null,
                kyc.idType.map(SQLValue.text) ?? .null, kyc.dob.map(SQLValue.text) ?? .null,
                .text(kyc.address["line1"] ?? ""), kyc.address["line2"].map(SQLValue.text) ?? .null,
                kyc.address["city"].map(SQLValue.text) ?? .null, kyc.address["state"].map(SQLValue.text) ?? .null,
                kyc.address["zip"].map(SQLValue.text) ?? .null, .text(kyc.country),
                kyc.nationalities.map { .text($0.joined(separator: ",")) } ?? .null,
                kyc.birthCountry.map(SQLValue.text) ?? .null, kyc.birthCity.map(SQLValue.text) ?? .null, idHash,
                .integer(kyc.verificationDueAt), .text(customerId),
            ])
    }

    /// A test-mode customer whose sandbox checks are due.
    package struct DueVerification {
        package let id: String
        package let lastName: String
        /// Whether an id number is on file (the KYC check is decided only then).
        package let hasIdNumber: Bool
        /// The due time read, so that the decision applies only if no newer submission moved it.
        package let dueAt: Int64
    }

    /// Whether any test-mode customer's sandbox checks are due at the real time `realNow`: the due time was
    /// written in the customer's project time, so it is compared there (``TestClockRepository/due(_:clock:)``).
    package static func hasDueVerifications(realNow: Int64, on connection: any SQLConnection) throws -> Bool {
        try !connection.query(
            """
            SELECT cu.id FROM crypto_customers cu LEFT JOIN test_clocks c ON c.project_id = cu.project_id
            WHERE cu.livemode = 0 AND \(TestClockRepository.due("cu.verification_due_at", clock: "c")) LIMIT 1
            """, [.integer(realNow), .integer(realNow)]
        ).isEmpty
    }

    /// Up to `limit` test-mode customers whose sandbox checks are due at the real time `realNow`, each in its
    /// project's time.
    package static func dueVerifications(realNow: Int64, limit: Int, on connection: any SQLConnection) throws
        -> [DueVerification]
    {
        try connection.query(
            """
            SELECT cu.id, cu.last_name, CASE WHEN cu.id_number_hash IS NULL THEN 0 ELSE 1 END AS has_id_number,
                cu.verification_due_at
            FROM crypto_customers cu LEFT JOIN test_clocks c ON c.project_id = cu.project_id
            WHERE cu.livemode = 0 AND \(TestClockRepository.due("cu.verification_due_at", clock: "c"))
            ORDER BY cu.verification_due_at LIMIT ?
            """, [.integer(realNow), .integer(realNow), .integer(Int64(limit))]
        ).map { row in
            DueVerification(
                id: try row.string("id"), lastName: row.optionalString("last_name") ?? "",
                hasIdNumber: try row.int("has_id_number") != 0, dueAt: try row.int("verification_due_at"))
        }
    }

    /// Records the outcome of `due`'s checks: the phone's, and the KYC check's when `kyc` is given
    /// (otherwise it stays as it is). Nothing changes if the checks were decided or started again since
    /// `due` was read.
    package static func record(
        phone: VerificationStatus, kyc: VerificationStatus?, of due: DueVerification, on connection: any SQLConnection
    ) throws {
        try connection.execute(
            """
            UPDATE crypto_customers SET phone_status = ?, kyc_status = COALESCE(?, kyc_status),
                verification_due_at = NULL
            WHERE id = ? AND verification_due_at = ?
            """,
            [.text(phone.rawValue), kyc.map { .text($0.rawValue) } ?? .null, .text(due.id), .integer(due.dueAt)])
    }

    /// Replaces the address fields given (names from ``CryptoCustomer.addressFields`` only), leaving the others.
    package static func update(address: [String: String], of customerId: String, on connection: any SQLConnection)
        throws
    {
        for field in CryptoCustomer.addressFields {
            guard let value = address[field] else { continue }
            try connection.execute(
                "UPDATE crypto_customers SET \(field) = ? WHERE id = ?", [.text(value), .text(customerId)])
        }
    }

    /// Up to `limit` of the customer's wallets, newest first (ties by id), after the one `startingAfter`
    /// when given; `nil` when that one is not the customer's.
    package static func wallets(
        of customerId: String, startingAfter: String?, limit: Int, on connection: any SQLConnection
    ) throws -> [CryptoConsumerWallet]? {
        try page(of: .wallets, of: customerId, startingAfter: startingAfter, limit: limit, on: connection)?.map {
            CryptoConsumerWallet(
                id: try $0.string("id"), livemode: try $0.int("livemode") != 0, network: try $0.string("network"),
                verifiedOwnership: try $0.int("verified_ownership") != 0, walletAddress: try $0.string("wallet_address")
            )
        }
    }

    /// Up to `limit` of the customer's payment tokens, as ``wallets(of:startingAfter:limit:on:)`` pages.
    package static func paymentTokens(
        of customerId: String, startingAfter: String?, limit: Int, on connection: any SQLConnection
    ) throws -> [CryptoPaymentToken]? {
        try page(of: .paymentTokens, of: customerId, startingAfter: startingAfter, limit: limit, on: connection)?.map {
            try TestPaymentMethod(storedText: try $0.string("details")).token(id: try $0.string("id"))
        }
    }

    /// Up to `limit` rows of the customer's `items` (their ``Items/listedColumns``), newest first (ties
    /// by id), after the one `startingAfter` when given; `nil` when that one is not the customer's.
    private static func page(
        of items: Items, of customerId: String, startingAfter: String?, limit: Int, on connection: any SQLConnection
    ) throws -> [Row]? {
        let table = items.rawValue
        var sql = "SELECT \(items.listedColumns) FROM \(table) WHERE customer_id = ?"
        var parameters: [SQLValue] = [.text(customerId)]
        if let startingAfter {
            guard
                let anchor = try connection.query(
                    "SELECT created_at FROM \(table) WHERE id = ? AND customer_id = ?",
                    [.text(startingAfter), .text(customerId)]
                ).first?.int("created_at")
            else { return nil }
            sql += " AND (created_at < ? OR (created_at = ? AND id < ?))"
            parameters += [.integer(anchor), .integer(anchor), .text(startingAfter)]
        }
        return try connection.query(
            sql + " ORDER BY created_at DESC, id DESC LIMIT ?", parameters + [.integer(Int64(limit))])
    }

    /// How many `items` the customer has.
    package static func count(of items: Items, of customerId: String, on connection: any SQLConnection) throws -> Int64
    {
        try connection.query("SELECT COUNT(*) AS n FROM \(items.rawValue) WHERE customer_id = ?", [.text(customerId)])
            .first?
            .int("n") ?? 0
    }
}
