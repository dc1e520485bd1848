/// `GET /v1/crypto/internal/kyc_requirements`: what a customer still owes, by requirement name, as stripe-android
/// reads it (`RetrieveKycRequirementsResponse.kt` at 9061dde6, `RetrieveAdditionalKycRequirementsResponse.kt` at
/// 13f0fb44: `requirements` required, an empty map allowed).
public struct CryptoKYCRequirements: WireObject, Codable, Equatable {
    /// One requirement: who asked, what it takes.
    public struct Requirement: Codable, Equatable, Sendable {
        /// An error a submission met (`{code, description}`).
        public struct RequirementError: Codable, Equatable, Sendable {
            /// The error's code.
            public var code: String
            /// What went wrong.
            public var description: String
        }

        /// A document the requirement accepts.
        public struct Document: Codable, Equatable, Sendable {
            /// One accepted kind of document.
            public struct Subtype: Codable, Equatable, Sendable {
                /// `utility_bill`, …
                public var id: String
                /// For the user.
                public var label: String
                /// What the document must show (required by the 13f0fb44 model).
                public var description: String

                /// An accepted document kind.
                public init(id: String, label: String, description: String) {
                    self.id = id
                    self.label = label
                    self.description = description
                }
            }

            /// The kinds accepted.
            public var acceptedSubtypes: [Subtype]
            /// The file types accepted (`application/pdf`, …).
            public var acceptedFormats: [String]
            /// The largest file.
            public var maxFileSizeBytes: Int64
            /// The fewest kinds to send.
            public var minDocumentTypes: Int
            /// The most kinds to send.
            public var maxDocumentTypes: Int
            /// The most files of one kind.
            public var maxFilesPerDocumentType: Int?
            /// The file requirements, for the user.
            public var fileRequirements: String
            /// What to do, for the user.
            public var instructions: [String]

            enum CodingKeys: String, CodingKey {
                case acceptedSubtypes = "accepted_subtypes", acceptedFormats = "accepted_formats"
                case maxFileSizeBytes = "max_file_size_bytes", minDocumentTypes = "min_document_types"
                case maxDocumentTypes = "max_document_types", maxFilesPerDocumentType = "max_files_per_document_type"
                case fileRequirements = "file_requirements", instructions
            }

            /// A document requirement.
            public init(
                acceptedSubtypes: [Subtype], acceptedFormats: [String], maxFileSizeBytes: Int64,
                minDocumentTypes: Int, maxDocumentTypes: Int, maxFilesPerDocumentType: Int?,
                fileRequirements: String, instructions: [String]
            ) {
                self.acceptedSubtypes = acceptedSubtypes
                self.acceptedFormats = acceptedFormats
                self.maxFileSizeBytes = maxFileSizeBytes
                self.minDocumentTypes = minDocumentTypes
                self.maxDocumentTypes = maxDocumentTypes
                self.maxFilesPerDocumentType = maxFilesPerDocumentType
                self.fileRequirements = fileRequirements
                self.instructions = instructions
            }
        }

        /// Questions the requirement asks.
        public struct AdditionalRequirements: Codable, Equatable, Sendable {
            /// The questionnaire.
            public struct Questionnaire: Codable, Equatable, Sendable {
                /// One question.
                public struct Question: Codable, Equatable, Sendable {
                    /// The question's id, which an answer names.
                    public var id: String
                    /// For the user.
                    public var prompt: String
                    /// `text`, …
                    public var answerType: String
                    /// Whether an answer is needed.
                    public var required: Bool

                    enum CodingKeys: String, CodingKey {
                        case id, prompt, answerType = "answer_type", required
                    }

                    /// A question.
                    public init(id: String, prompt: String, answerType: String, required: Bool) {
                        self.id = id
                        self.prompt = prompt
                        self.answerType = answerType
                        self.required = required
                    }
                }

                /// The questions.
                public var questions: [Question]
            }

            /// The questionnaire.
            public var questionnaire: Questionnaire

            /// The questions asked.
            public init(questions: [Questionnaire.Question]) {
                questionnaire = Questionnaire(questions: questions)
            }
        }

        /// Who asked (`stripe`, a liquidity provider).
        public var requestedBy: String
        /// Whose move it is (`user`).
        public var awaitingActionFrom: String
        /// What went wrong with the last submission.
        public var errors: [RequirementError]
        /// The document it takes, if any.
        public var document: Document?
        /// The questions it asks, if any.
        public var additionalRequirements: AdditionalRequirements?

        enum CodingKeys: String, CodingKey {
            case requestedBy = "requested_by", awaitingActionFrom = "awaiting_action_from", errors, document
            case additionalRequirements = "additional_requirements"
        }

        /// A requirement awaiting the user, with no errors yet.
        public init(requestedBy: String, document: Document?, additionalRequirements: AdditionalRequirements?) {
            self.requestedBy = requestedBy
            awaitingActionFrom = "user"
            errors = []
            self.document = document
            self.additionalRequirements = additionalRequirements
        }

        /// What a requirement always holds.
        public static let schema = APISchema.object(
            [
                "requested_by": .string, "awaiting_action_from": .string,
                "errors": .array(.object(["code": .string, "description": .string])),
                "document": .object(
                    [
                        "accepted_subtypes": .array(
                            .object(
                                ["id": .string, "label": .string, "description": .string],
                                required: ["id", "label", "description"])),
                        "accepted_formats": .array(.string), "max_file_size_bytes": .integer,
                        "min_document_types": .integer, "max_document_types": .integer,
                        "max_files_per_document_type": .integer, "file_requirements": .string,
                        "instructions": .array(.string),
                    ],
                    required: [
                        "accepted_subtypes", "accepted_formats", "max_file_size_bytes", "min_document_types",
                        "max_document_types", "file_requirements", "instructions",
                    ]),
                "additional_requirements": .object([
                    "questionnaire": .object(
                        [
                            "questions": .array(
                                .object(
                                    [
                                        "id": .string, "prompt": .string, "answer_type": .string,
                                        "required": .boolean,
                                    ], required: ["id", "prompt", "answer_type", "required"]))
                        ], required: ["questions"])
                ]),
            ], required: ["requested_by", "awaiting_action_from", "errors"])
    }

    /// Always `crypto.kyc_requirements`.
    public var object: String
    /// What is still owed, by requirement name (`proof_of_address`).
    public var requirements: OrderedMap<Requirement>

    /// The requirements still owed.
    public init(requirements: OrderedMap<Requirement>) {
        object = "crypto.kyc_requirements"
        self.requirements = requirements
    }

    /// What the answer always holds.
    public static let schema = APISchema.object(
        ["object": .constant("crypto.kyc_requirements"), "requirements": .map(Requirement.schema)],
        required: ["object", "requirements"])
}

/// `POST /v1/crypto/internal/fulfill_kyc_requirements`: what each requirement's submission became.
public struct CryptoKYCRequirementsFulfillment: WireObject, Codable, Equatable {
    /// One requirement's submission.
    public struct Fulfilled: Codable, Equatable, Sendable {
        /// The submission's id.
        public var submission: String
        /// `accepted`.
        public var status: String

        /// An accepted submission.
        public init(submission: String) {
            self.submission = submission
            status = "accepted"
        }
    }

    /// Always `crypto.kyc_requirements_fulfillment`.
    public var object: String
    /// Each requirement's submission, in the order sent.
    public var requirements: OrderedMap<Fulfilled>

    /// The fulfilments made.
    public init(requirements: OrderedMap<Fulfilled>) {
        object = "crypto.kyc_requirements_fulfillment"
        self.requirements = requirements
    }

    /// What the answer always holds.
    public static let schema = APISchema.object(
        [
            "object": .constant("crypto.kyc_requirements_fulfillment"),
            "requirements": .map(
                .object(["submission": .string, "status": .string], required: ["submission", "status"])),
        ], required: ["object", "requirements"])
}

/// `POST /v1/crypto/internal/fulfill_additional_kyc_requirement` (the first form): the submission made, with what
/// was submitted (stripe-android `AdditionalKycSubmissionResponse.kt` at 098d989a requires `id`).
public struct CryptoKYCRequirementSubmission: WireObject, Codable, Equatable {
    /// A document submitted.
    public struct Document: Codable, Equatable, Sendable {
        /// Its type, when the request named one (`null` otherwise).
        public var documentType: String?
        /// Its kind (`utility_bill`).
        public var documentSubtype: String
        /// The uploaded files.
        public var fileIds: [String]

        enum CodingKeys: String, CodingKey {
            case documentType = "document_type", documentSubtype = "document_subtype", fileIds = "file_ids"
        }

        /// A submitted document.
        public init(documentType: String?, documentSubtype: String, fileIds: [String]) {
            self.documentType = documentType
            self.documentSubtype = documentSubtype
            self.fileIds = fileIds
        }
    }

    /// The questionnaire's answers.
    public struct Questionnaire: Codable, Equatable, Sendable {
        /// One answer.
        public struct Answer: Codable, Equatable, Sendable {
            /// The question answered.
            public var questionId: String
            /// The answer.
            public var value: String

            enum CodingKeys: String, CodingKey {
                case questionId = "question_id", value
            }

            /// An answer.
            public init(questionId: String, value: String) {
                self.questionId = questionId
                self.value = value
            }
        }

        /// The answers.
        public var answers: [Answer]
    }

    /// The submission's id.
    public var id: String
    /// Always `crypto.kyc_requirement_submission`.
    public var object: String
    /// Who asked.
    public var liquidityProvider: String
    /// `document`.
    public var submissionType: String
    /// `accepted`.
    public var status: String
    /// Creation time, Unix seconds.
    public var created: Int64
    /// The documents submitted.
    public var documents: [Document]
    /// The answers given.
    public var questionnaire: Questionnaire

    enum CodingKeys: String, CodingKey {
        case id, object, liquidityProvider = "liquidity_provider", submissionType = "submission_type", status
        case created, documents, questionnaire
    }

    /// An accepted document submission.
    public init(
        id: String, liquidityProvider: String, created: Int64, documents: [Document],
        answers: [Questionnaire.Answer]
    ) {
        self.id = id
        object = "crypto.kyc_requirement_submission"
        self.liquidityProvider = liquidityProvider
        submissionType = "document"
        status = "accepted"
        self.created = created
        self.documents = documents
        questionnaire = Questionnaire(answers: answers)
    }

    /// A document's absent type is `null`.
    public static let nilEncoding = JSONValueEncoder.NilEncoding.null

    /// What the answer always holds.
    public static let schema = APISchema.object(
        [
            "id": .string, "object": .constant("crypto.kyc_requirement_submission"), "liquidity_provider": .string,
            "submission_type": .string, "status": .string, "created": .integer,
            "documents": .array(
                .object(
                    [
                        "document_type": APISchema.string.nullable, "document_subtype": .string,
                        "file_ids": .array(.string),
                    ], required: ["document_type", "document_subtype", "file_ids"])),
            "questionnaire": .object(
                [
                    "answers": .array(
                        .object(["question_id": .string, "value": .string], required: ["question_id", "value"]))
                ], required: ["answers"]),
        ],
        required: [
            "id", "object", "liquidity_provider", "submission_type", "status", "created", "documents",
            "questionnaire",
        ])
}
