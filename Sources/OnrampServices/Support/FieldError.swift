/// A request's contents refused while decoding them: a field missing or malformed, or values that do not go
/// together. It carries what the family's edge renders (the status, the family's code, the message, the
/// parameter, and Stripe's error type where one was chosen), so decoders stay free of HTTP; the edge turns it
/// into its error shape unchanged.
package struct FieldError: Error, Sendable, Equatable {
    /// The status the edge answers with (400 unless a contract says otherwise, such as 402 for a card).
    package var status: Int
    /// The family's code (`invalid_request`, `parameter_invalid`, `parameter_missing`, …).
    package var code: String
    /// What is wrong, naming only what the caller sent.
    package var message: String
    /// The field at fault.
    package var param: String?
    /// Stripe's error type, when the decoder chose one (`invalid_request_error`, `card_error`).
    package var type: String?
    /// A finer cause, when the family reports one (CDP's `errorReason`).
    package var reason: String?

    /// A refusal with `code` and `message`; 400 unless `status` says otherwise.
    package init(
        status: Int = 400, code: String, message: String, param: String? = nil, type: String? = nil,
        reason: String? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.param = param
        self.type = type
        self.reason = reason
    }

    /// Stripe's `invalid_request_error` with `code` and `param`, as Stripe refuses a parameter.
    package static func stripe(_ code: String, _ message: String, param: String? = nil, status: Int = 400)
        -> FieldError
    {
        FieldError(status: status, code: code, message: message, param: param, type: "invalid_request_error")
    }
}
