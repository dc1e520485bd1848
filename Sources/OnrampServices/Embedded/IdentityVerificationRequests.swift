import OnrampWire

/// `POST /v1/identity/verification_pages/{id}/data` as the service takes it: the fields to clear
/// (`clear_data[field]=true`) and to add (`collected_data[…]`: biometric consent, and documents and faces
/// naming files uploaded for the verification). Decoded at the edge; no I/O.
package struct VerificationPageDataUpdate: Sendable {
    /// A collected field that names an uploaded file.
    package struct FileField: Sendable {
        package let field: String
        package let fileId: String
        /// The form parameter that named the file.
        package let parameter: String
    }

    /// The collected fields that name a file, and the key of the file's id within each.
    package static let fileFields = [
        ("id_document_front", "high_res_image"), ("id_document_back", "high_res_image"),
        ("face", "best_high_res_image"),
    ]

    package let cleared: [String]
    package let biometricConsent: Bool
    package let files: [FileField]

    /// Decodes the form.
    package init(_ form: JSONValue) throws {
        cleared = (form["clear_data"]?.objectValue ?? []).compactMap { $0.1.stringValue == "true" ? $0.0 : nil }
        let data = try RequestFields.stripe(form).object("collected_data")
        biometricConsent = try data?.optionalBool("biometric_consent") == true
        files = try Self.fileFields.compactMap { field, fileKey in
            guard let part = try data?.object(field) else { return nil }
            return FileField(
                field: field, fileId: try part.required(fileKey, maxLength: 64),
                parameter: "collected_data[\(field)][\(fileKey)]")
        }
    }
}
