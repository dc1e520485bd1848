import Foundation
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client-side endpoints, called with the publishable key: form bodies, JSON answers, Stripe errors
/// mapped to ``CryptoOnrampError``.
struct CryptoOnrampAPI: Sendable {
    let baseURL: URL
    let publishableKey: String
    let transport: any HTTPTransport

    /// The `request_surface` the SDK names itself with in Link calls.
    static let requestSurface = ("request_surface", "ios_crypto_onramp")

    /// A POST with a form body; `key` replaces the publishable key (the consumer's publishable key that
    /// Link answers with, as `STPAPIClient+Link` sends it).
    func post(_ path: String, _ fields: [(String, String)] = [], key: String? = nil) async throws -> JSONObject {
        try await send { try await postForm(path, fields, key: key) }
    }

    /// A POST with a form body whose answer is decoded as `Answer`, a wire object the server renders.
    func post<Answer: Decodable>(
        _ path: String, _ fields: [(String, String)] = [], key: String? = nil, as _: Answer.Type
    ) async throws -> Answer {
        try Self.decoded(Answer.self, try await sendChecked { try await postForm(path, fields, key: key) }, path: path)
    }

    /// A GET whose answer is decoded as `Answer`, a wire object the server renders.
    func get<Answer: Decodable>(
        _ path: String, _ query: [(String, String)], key: String? = nil, as _: Answer.Type
    ) async throws -> Answer {
        try Self.decoded(Answer.self, try await sendChecked { try await getQuery(path, query, key: key) }, path: path)
    }

    func get(_ path: String, _ query: [(String, String)], key: String? = nil) async throws -> JSONObject {
        try await getAnswer(path, query, key: key).body
    }

    /// A GET with extra request headers that also returns the answer's headers (names lower-cased).
    func getAnswer(
        _ path: String, _ query: [(String, String)], key: String? = nil, headers: [String: String] = [:]
    ) async throws -> (body: JSONObject, headers: [String: String]) {
        var answerHeaders: [String: String] = [:]
        let body = try await send {
            let answer = try await getQuery(path, query, key: key, headers: headers)
            answerHeaders = answer.headers
            return answer
        }
        return (body, answerHeaders)
    }

    /// Sends `fields` as a form to `path` under `key` (the publishable key by default).
    private func postForm(_ path: String, _ fields: [(String, String)], key: String?) async throws -> HTTPAnswer {
        try await transport.form(
            "POST", url(path), fields, headers: ["Authorization": "Bearer \(key ?? publishableKey)"])
    }

    /// Asks for `path` with `query` under `key` (the publishable key by default), with `headers` beside it.
    private func getQuery(
        _ path: String, _ query: [(String, String)], key: String?, headers: [String: String] = [:]
    ) async throws -> HTTPAnswer {
        try await transport.request(
            "GET", url(path + "?" + FormEncoding.encode(query)),
            headers: headers.merging(["Authorization": "Bearer \(key ?? publishableKey)"]) { $1 })
    }

    /// `body` as `Answer`; a body that is not one is an ``CryptoOnrampError/Code/unexpectedResponse``.
    private static func decoded<Answer: Decodable>(_: Answer.Type, _ body: Data, path: String) throws -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: body)
        } catch {
            throw CryptoOnrampError(.unexpectedResponse, developer: "\(path): not a \(Answer.self) (\(error)).")
        }
    }

    /// The App Attest fields StripeCore's `StripeAttest` adds to the mobile lookup and sign-up. No device
    /// attests here, so these are the SDK's test-mode assertion (`testmodeAssertion()`: bytes `01 02 03`,
    /// key `TestKeyID`), which the sandbox accepts for test keys only.
    var testModeAssertion: [(String, String)] {
        [
            ("app_id", Bundle.main.bundleIdentifier ?? "com.example.test"), ("device_id", "test-device-id"),
            ("key_id", "TestKeyID"), ("ios_assertion_object", "AQID"),
        ]
    }

    private func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString.trimmingSuffix("/") + path)!
    }

    private func send(_ call: () async throws -> HTTPAnswer) async throws -> JSONObject {
        let body = try await sendChecked(call)
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw CryptoOnrampError(.unexpectedResponse, developer: "not a JSON object.")
        }
        return JSONObject(object)
    }

    /// The body of a successful answer; a refusal thrown as its ``CryptoOnrampError``.
    private func sendChecked(_ call: () async throws -> HTTPAnswer) async throws -> Data {
        let answer: HTTPAnswer
        do {
            answer = try await call()
        } catch let error as URLError {
            throw CryptoOnrampError(.network, developer: "URLError \(error.code.rawValue).")
        }
        guard answer.isSuccess else {
            guard (try? JSONSerialization.jsonObject(with: answer.body)) is [String: Any] else {
                throw CryptoOnrampError(.unexpectedResponse, developer: "HTTP \(answer.status): not JSON.")
            }
            throw Self.error(try? JSONDecoder().decode(StripeErrorBody.self, from: answer.body), status: answer.status)
        }
        return answer.body
    }

    /// Types a refusal by Stripe's error `code` (and `type` for card errors).
    static func error(_ body: StripeErrorBody?, status: Int) -> CryptoOnrampError {
        let apiCode = body?.error.code
        let message = "HTTP \(status): \(body?.error.message ?? "no message")"
        // `CryptoOnrampCoordinator.handlePhoneFormatError` (stripe-ios) recognises the message, not a code.
        if body?.error.message.hasPrefix("There was an issue parsing the phone number") == true {
            return CryptoOnrampError(.invalidPhoneFormat, apiCode: apiCode, developer: message)
        }
        let code: CryptoOnrampError.Code
        switch apiCode {
        case "link_account_already_exists": code = .linkAccountAlreadyExists
        case "link_account_not_verified": code = .linkAccountNotVerified
        case "missing_crypto_customer_id": code = .missingCryptoCustomerId
        case "seamless_sign_in_token_invalid": code = .seamlessSignInTokenInvalid
        case "crypto_invalid_wallet_address", "crypto_network_unsupported": code = .invalidWalletAddress
        case "consumer_verification_locked": code = .verificationFailed
        default: code = body?.error.type == "card_error" ? .paymentDeclined : .apiError
        }
        return CryptoOnrampError(code, apiCode: apiCode, developer: message)
    }
}

/// A decoded JSON object with dotted-path access (`"consumer_session.client_secret"`).
struct JSONObject: @unchecked Sendable {
    // Immutable; holds only values produced by JSONSerialization.
    let value: [String: Any]

    init(_ value: [String: Any]) {
        self.value = value
    }

    func any(_ path: String) -> Any? {
        var current: Any? = value
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    func string(_ path: String) -> String? { any(path) as? String }

    func bool(_ path: String) -> Bool? { any(path) as? Bool }

    func int(_ path: String) -> Int? { (any(path) as? NSNumber)?.intValue }

    func object(_ path: String) -> JSONObject? { (any(path) as? [String: Any]).map(JSONObject.init) }
}
