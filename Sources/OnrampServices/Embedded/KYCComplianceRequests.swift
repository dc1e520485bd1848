import OnrampCore
import OnrampWire

/// A requirement's fulfilment as both forms send it, decoded at the edge: the documents
/// (`documents[i][document_type|document_subtype|file_ids][]`) and the questionnaire's answers
/// (`questionnaire[answers][i][question_id|value]`, or under `additional_requirements` in the successor form,
/// stripe-android `FulfillKycRequirementsRequest.kt` at 4d426bd7).
package struct KYCRequirementSubmission: Sendable {
    package struct Document: Sendable {
        package let type: String?
        package let subtype: String
        package let fileIds: [String]
    }

    package struct Answer: Sendable {
        package let questionId: String
        package let value: String
    }

    package let documents: [Document]
    package let answers: [Answer]

    /// Decodes `fields` (a requirement's members, or the first form's body).
    package init(_ fields: RequestFields) throws {
        var documents: [Document] = []
        for (index, document) in try fields.objects("documents", maxCount: 5).enumerated() {
            let subtype = try document.required("document_subtype", maxLength: 64)
            let type = try document.optional("document_type", maxLength: 64)
            guard let files = try document.optionalList("file_ids", maxCount: 10, maxLength: 64), !files.isEmpty else {
                throw fields.invalid("documents[\(index)][file_ids]", "Each document needs file_ids.")
            }
            documents.append(Document(type: type, subtype: subtype, fileIds: files))
        }
        self.documents = documents
        let questionnaire =
            try fields.object("additional_requirements")?.object("questionnaire") ?? fields.object("questionnaire")
        var answers: [Answer] = []
        if let questionnaire {
            for answer in try questionnaire.objects("answers", maxCount: 20) {
                answers.append(
                    Answer(
                        questionId: try answer.required("question_id", maxLength: 64),
                        value: try answer.required("value", maxLength: 500)))
            }
        }
        self.answers = answers
    }

    /// What was submitted, as stored and as the first form's answer repeats it.
    package var json: JSONValue {
        [
            "documents": .array(
                documents.map {
                    [
                        "document_type": .optional($0.type), "document_subtype": .string($0.subtype),
                        "file_ids": .array($0.fileIds.map { .string($0) }),
                    ]
                }),
            "questionnaire": [
                "answers": .array(
                    answers.map { ["question_id": .string($0.questionId), "value": .string($0.value)] })
            ],
        ]
    }
}

/// `POST crypto/internal/eu_identifiers`: `identifiers[i][type]` and `identifiers[i][value]`
/// (stripe-android `SubmitIdentifiersRequest.kt` at 6aa70880).
package struct IdentifierSubmission: Sendable {
    package let identifiers: [(type: String, value: String)]

    package init(_ fields: RequestFields) throws {
        let items = try fields.objects("identifiers", maxCount: 30)
        guard !items.isEmpty else { throw fields.invalid("identifiers", "Send 1 to 30 identifiers.") }
        identifiers = try items.map { item in
            (try item.required("type", maxLength: 32), try item.required("value", maxLength: 64))
        }
    }
}
