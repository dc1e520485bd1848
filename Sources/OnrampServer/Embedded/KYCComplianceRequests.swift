import HTTPServer
import OnrampCore
import OnrampWire

/// A requirement's fulfilment as both forms send it, decoded at the edge: the documents
/// (`documents[i][document_type|document_subtype|file_ids][]`) and the questionnaire's answers
/// (`questionnaire[answers][i][question_id|value]`, or under `additional_requirements` in the successor form,
/// stripe-android `FulfillKycRequirementsRequest.kt` at 4d426bd7).
struct KYCRequirementSubmission: Sendable {
    struct Document: Sendable {
        let type: String?
        let subtype: String
        let fileIds: [String]
    }

    struct Answer: Sendable {
        let questionId: String
        let value: String
    }

    let documents: [Document]
    let answers: [Answer]

    /// Decodes `fields` (a requirement's members, or the first form's body).
    init(_ fields: RequestFields) throws {
        var documents: [Document] = []
        for (index, document) in try Self.list(fields, "documents", maxCount: 5).enumerated() {
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
            for answer in try Self.list(questionnaire, "answers", maxCount: 20) {
                answers.append(
                    Answer(
                        questionId: try answer.required("question_id", maxLength: 64),
                        value: try answer.required("value", maxLength: 500)))
            }
        }
        self.answers = answers
    }

    /// The members of list `name` (a JSON array, or a form's `name[0][…]` object with index keys).
    private static func list(_ fields: RequestFields, _ name: String, maxCount: Int) throws -> [RequestFields] {
        guard let value = fields.body[name], !value.isNull else { return [] }
        let elements: [JSONValue]
        switch value {
        case .array(let items): elements = items
        case .object(let members) where members.allSatisfy({ Int($0.0) != nil }):
            elements = members.sorted { Int($0.0)! < Int($1.0)! }.map(\.1)
        default: throw fields.invalid(name, "\(name) must be a list.")
        }
        guard elements.count <= maxCount else { throw fields.invalid(name, "\(name) holds at most \(maxCount).") }
        return try elements.map { element in
            guard element.objectValue != nil else { throw fields.invalid(name, "Each of \(name) is an object.") }
            return RequestFields(element, invalidCode: fields.invalidCode, missingCode: fields.missingCode)
        }
    }

    /// What was submitted, as stored and as the first form's answer repeats it.
    var json: JSONValue {
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
struct IdentifierSubmission: Sendable {
    let identifiers: [(type: String, value: String)]

    init(_ fields: RequestFields) throws {
        guard let value = fields.body["identifiers"], !value.isNull else {
            throw fields.invalid("identifiers", "Missing required field identifiers.")
        }
        let elements: [JSONValue]
        switch value {
        case .array(let items): elements = items
        case .object(let members) where members.allSatisfy({ Int($0.0) != nil }):
            elements = members.sorted { Int($0.0)! < Int($1.0)! }.map(\.1)
        default: throw fields.invalid("identifiers", "identifiers must be a list.")
        }
        guard (1...30).contains(elements.count) else {
            throw fields.invalid("identifiers", "Send 1 to 30 identifiers.")
        }
        identifiers = try elements.map { element in
            let item = RequestFields(element, invalidCode: fields.invalidCode, missingCode: fields.missingCode)
            return (try item.required("type", maxLength: 32), try item.required("value", maxLength: 64))
        }
    }
}
