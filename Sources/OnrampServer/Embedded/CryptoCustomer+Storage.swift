import OnrampStore

extension CryptoCustomer {
    /// What a customer has several of, each a table of rows with a `customer_id`.
    enum Items: String {
        case wallets = "crypto_wallets"
        case paymentTokens = "payment_tokens"

        /// The columns a list of them reads.
        var listedColumns: String {
            switch self {
            case .wallets: "id, network, wallet_address, livemode, verified_ownership"
            case .paymentTokens: "id, details"
            }
        }
    }

    /// KYC data as a customer attaches it: the id number only as its keyed hash and last 4 digits.
    struct KYCSubmission {
        let firstName: String
        let lastName: String
        /// `nil` keeps the stored one (a later call without the number).
        let idNumberHash: String?
        let idNumberLast4: String?
        let idType: String?
        let dob: String?
        let address: [String: String]
        let country: String
        /// When the sandbox decides the phone and KYC checks.
        let verificationDueAt: Int64
    }

    /// Stores `kyc` on the customer: the phone check starts again, and the KYC check too once an id
    /// number is on file.
    static func attach(_ kyc: KYCSubmission, to customerId: String, on connection: any SQLConnection) throws {
        let idHash = kyc.idNumberHash.map(SQLValue.text) ?? .null
        try connection.execute(
            """
            UPDATE crypto_customers SET first_name = ?, last_name = ?, id_number_hash = COALESCE(?, id_number_hash),
                id_number_last4 = COALESCE(?, id_number_last4), id_type = COALESCE(?, id_type),
                dob = COALESCE(?, dob), line1 = ?, line2 = ?, city = ?, state = ?, zip = ?, country = ?,
                phone_status = 'pending',
                kyc_status = CASE WHEN COALESCE(?, id_number_hash) IS NULL THEN kyc_status ELSE 'pending' END,
                verification_due_at = ?
            WHERE id = ?
            """,
            [
                .text(kyc.firstName), .text(kyc.lastName), idHash, kyc.idNumberLast4.map(SQLValue.text) ?? .null,
                kyc.idType.map(SQLValue.text) ?? .null, kyc.dob.map(SQLValue.text) ?? .null,
                .text(kyc.address["line1"] ?? ""), kyc.address["line2"].map(SQLValue.text) ?? .null,
                kyc.address["city"].map(SQLValue.text) ?? .null, kyc.address["state"].map(SQLValue.text) ?? .null,
                kyc.address["zip"].map(SQLValue.text) ?? .null, .text(kyc.country), idHash,
                .integer(kyc.verificationDueAt), .text(customerId),
            ])
    }

    /// Replaces the address fields given (names from ``addressFields`` only), leaving the others.
    static func update(address: [String: String], of customerId: String, on connection: any SQLConnection) throws {
        for field in addressFields {
            guard let value = address[field] else { continue }
            try connection.execute(
                "UPDATE crypto_customers SET \(field) = ? WHERE id = ?", [.text(value), .text(customerId)])
        }
    }

    /// Up to `limit` of the customer's `items` (their ``Items/listedColumns``), newest first (ties by
    /// id), after the one `startingAfter` when given; `nil` when that one is not the customer's.
    static func page(
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
    static func count(of items: Items, of customerId: String, on connection: any SQLConnection) throws -> Int64 {
        try connection.query("SELECT COUNT(*) AS n FROM \(items.rawValue) WHERE customer_id = ?", [.text(customerId)])
            .first?
            .int("n") ?? 0
    }
}
