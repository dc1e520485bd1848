import Foundation
import OnrampCore
import OnrampCrypto
import OnrampStore
import OnrampWire

/// The 2026 KYC and compliance calls of both mobile SDKs, for a customer: the identifiers the EU's rules ask
/// (``ComplianceIdentifiers``) and their submission, the documents and questions still owed
/// (``KYCDocumentRequirements``), KYC document uploads and the fulfilment of a requirement with them. In the
/// sandbox a well-formed submission is accepted at once; nothing here moves money.
package struct KYCComplianceService: Sendable, UsesServiceEnvironment {
    package let environment: ServiceEnvironment
    /// The key identifier values are hashed with, derived from the data key.
    private let identifierKey: [UInt8]

    /// The largest document accepted, as the requirement announces it: what fits one request body (1 MiB) with
    /// room for the multipart framing.
    package static let maximumDocumentBytes = 1_000_000
    /// The document formats accepted, by media type, as the requirement announces them.
    package static let documentFormats = ["application/pdf": "pdf", "image/jpeg": "jpeg", "image/png": "png"]
    /// The most files one document type may have.
    package static let maximumFilesPerDocumentType = 2

    package init(context: ServerContext) {
        environment = context.environment
        identifierKey = HMACSHA256.authenticationCode(
            key: context.dataKey, message: Array("compliance-identifier".utf8))
    }

    private var now: Int64 { Timestamp.milliseconds(clock.now()) }

    /// The identifiers `customer` still owes.
    package func identifierPlan(of customer: CryptoCustomer) throws -> ComplianceIdentifiers.Plan {
        let submitted = try database.read {
            try KYCComplianceRepository(connection: $0).identifierTypes(of: customer.id)
        }
        return ComplianceIdentifiers.plan(
            residence: customer.address["country"] ?? customer.country, nationalities: customer.nationalities,
            submitted: submitted)
    }

    /// Stores the well-formed identifiers of known types (a keyed hash of the value and its last 4
    /// characters), all in one transaction; answers the types refused and what is still owed.
    package func submit(_ identifiers: [(type: String, value: String)], for customer: CryptoCustomer) throws -> (
        invalid: [String], plan: ComplianceIdentifiers.Plan
    ) {
        let now = self.now
        var invalid: [String] = []
        try database.transaction { connection in
            let repository = KYCComplianceRepository(connection: connection)
            for (type, value) in identifiers {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                guard ComplianceIdentifiers.isKnown(type), ComplianceIdentifiers.isWellFormed(trimmed) else {
                    invalid.append(type)
                    continue
                }
                let hash = Hex.encode(
                    HMACSHA256.authenticationCode(
                        key: identifierKey, message: Array("\(customer.id):\(type):\(trimmed)".utf8)))
                try repository.saveIdentifier(
                    customerId: customer.id, type: type, valueHash: hash, last4: String(trimmed.suffix(4)), now: now)
            }
        }
        return (invalid, try identifierPlan(of: customer))
    }

    /// The requirements `customer` still owes.
    package func outstandingRequirements(of customer: CryptoCustomer) throws -> [String] {
        let fulfilled = try database.read { try KYCComplianceRepository(connection: $0).fulfilled(by: customer.id) }
        return KYCDocumentRequirements.outstanding(
            residence: customer.address["country"] ?? customer.country, fulfilled: fulfilled)
    }

    /// Keeps an uploaded KYC document's metadata (not its bytes) for the caller's project and mode, owned by
    /// the customer of the caller's link session key when it used one.
    package func upload(caller: StripeCaller, contentType: String, fileName: String?, bytes: [UInt8]) throws -> (
        id: String, created: Int64
    ) {
        let id = ids.id(prefix: IdPrefix.file)
        let now = self.now
        try database.transaction {
            try KYCComplianceRepository(connection: $0).insertDocument(
                .init(
                    id: id, projectId: caller.projectId, livemode: caller.livemode,
                    customerId: caller.linkSessionCustomer?.id),
                contentType: contentType, fileName: fileName, size: bytes.count,
                sha256: Hex.encode(SHA256.hash(bytes)), now: now)
        }
        return (id, now)
    }

    /// Fulfils `requirement` of `customer` with `submission`: the requirement must be owed, its documents of
    /// accepted subtypes made of files uploaded for this customer (or by its project's publishable key) in its
    /// mode, and the required question answered. Returns the submission's id.
    package func fulfill(_ requirement: String, with submission: KYCRequirementSubmission, for customer: CryptoCustomer)
        throws -> String
    {
        guard try outstandingRequirements(of: customer).contains(requirement) else {
            throw OnrampError.refusal(
                "kyc_requirement_not_outstanding", "The customer owes no requirement \(requirement).",
                parameter: "requirements")
        }
        guard submission.documents.count == 1 else {
            throw OnrampError.refusal(
                "parameter_invalid", "Send one document for \(requirement).", parameter: "documents")
        }
        let answered = submission.answers.contains {
            $0.questionId == KYCDocumentRequirements.purchasePurpose && !$0.value.isEmpty
        }
        guard answered else {
            throw OnrampError.refusal(
                "parameter_missing", "Answer the question \(KYCDocumentRequirements.purchasePurpose).",
                parameter: "questionnaire")
        }
        let submissionId = ids.id(prefix: "kycsub")
        let now = self.now
        try database.transaction { connection in
            let repository = KYCComplianceRepository(connection: connection)
            for document in submission.documents {
                guard KYCDocumentRequirements.proofOfAddressSubtypes.contains(document.subtype) else {
                    throw OnrampError.refusal(
                        "parameter_invalid", "document_subtype must be one the requirement accepts.",
                        parameter: "document_subtype")
                }
                guard (1...Self.maximumFilesPerDocumentType).contains(document.fileIds.count) else {
                    throw OnrampError.refusal(
                        "parameter_invalid", "Send 1 to \(Self.maximumFilesPerDocumentType) files per document.",
                        parameter: "file_ids")
                }
                for fileId in document.fileIds {
                    guard let file = try repository.document(id: fileId), file.projectId == customer.projectId,
                        file.livemode == customer.livemode, file.customerId == nil || file.customerId == customer.id
                    else { throw OnrampError.missing("file: \(fileId)", parameter: "file_ids") }
                }
            }
            guard
                try repository.fulfill(
                    customerId: customer.id, requirement: requirement, submissionId: submissionId,
                    submission: submission.json.serializedString, now: now)
            else {
                throw OnrampError.refusal(
                    "kyc_requirement_not_outstanding", "The requirement \(requirement) was fulfilled already.",
                    parameter: "requirements")
            }
        }
        return submissionId
    }
}
