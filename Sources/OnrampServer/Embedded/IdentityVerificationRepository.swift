import OnrampStore

/// The identity verifications the verification page API works on (`identity_verifications`): found by
/// the hash of their ephemeral key, with the fields collected and the files uploaded for them.
struct IdentityVerificationRepository {
    let connection: any SQLConnection

    /// The verification whose ephemeral key hashes to `keyHash`, and when it started.
    func find(ephemeralKeyHash keyHash: String) throws -> (VerificationPageState, createdAt: Int64)? {
        try connection.query("SELECT * FROM identity_verifications WHERE ephemeral_key_hash = ?", [.text(keyHash)])
            .first.map { row in
                (
                    VerificationPageState(
                        id: try row.string("id"), status: try row.string("status"),
                        submitted: try row.int("submitted") != 0,
                        collected: Set(try row.string("collected").split(separator: ",").map(String.init))),
                    try row.int("created_at")
                )
            }
    }

    /// Replaces the fields collected so far.
    func setCollected(_ fields: [String], verification id: String) throws {
        try connection.execute(
            "UPDATE identity_verifications SET collected = ? WHERE id = ?",
            [.text(fields.joined(separator: ",")), .text(id)])
    }

    /// Marks the verification submitted.
    func markSubmitted(_ id: String) throws {
        try connection.execute("UPDATE identity_verifications SET submitted = 1 WHERE id = ?", [.text(id)])
    }

    /// Records an upload (its size and purpose; the bytes are not kept).
    func insertFile(id: String, verification: String, purpose: String, size: Int, now: Int64) throws {
        try connection.execute(
            "INSERT INTO identity_files (id, verification_id, purpose, size, created_at) VALUES (?, ?, ?, ?, ?)",
            [.text(id), .text(verification), .text(purpose), .integer(Int64(size)), .integer(now)])
    }

    /// Whether the file `id` was uploaded for `verification`.
    func fileExists(_ id: String, verification: String) throws -> Bool {
        try !connection.query(
            "SELECT id FROM identity_files WHERE id = ? AND verification_id = ?", [.text(id), .text(verification)]
        ).isEmpty
    }
}

/// An identity verification as the verification page API sees it.
struct VerificationPageState {
    let id: String
    let status: String
    let submitted: Bool
    let collected: Set<String>

    var missing: [String] { VerificationPageContent.requiredFields.filter { !collected.contains($0) } }

    /// `VerificationPage.Status`.
    var pageStatus: String {
        switch status {
        case "verified": "verified"
        case "pending": "processing"
        case "canceled": "canceled"
        default: "requires_input"
        }
    }
}
