import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Sends requests the way stripe-android's `crypto-onramp` does (`../shared/audits/stripe-android-2026.md` §2):
/// `HttpURLConnection` to `<API_HOST>/v1/<path>`; GET **and DELETE** carry their parameters in the query, POST
/// as `application/x-www-form-urlencoded; charset=UTF-8`; every key and value through `java.net.URLEncoder`
/// (`QueryStringFactory`: brackets percent-encoded, a space `+`, only `A–Z a–z 0–9 . - * _` literal; maps as
/// `a[b]`, lists of primitives as `a[]=x`, an empty list as `a=`); `Authorization: Bearer`, `Stripe-Version`
/// `2020-03-02` for Link, elements sessions and payment intents and `2026-03-25.preview` for
/// `crypto/internal/*` (`CryptoApiRepository.kt` at 01eb4742, `ApiVersion.kt` at c126e3e5), a Kotlin
/// `X-Stripe-User-Agent`, and the consumer's secret in `Stripe-Consumer-Auth-Token` on the GETs that act for
/// it. Answers are decoded whatever their status, as the SDK's parsers read them.
struct AndroidSDKClient {
    let sandbox: OnrampSandbox
    /// The Bearer key (the merchant's, the platform's or the consumer's publishable key).
    var key: String

    /// The `Stripe-Version` of each family of calls.
    static let linkVersion = "2020-03-02"
    static let cryptoVersion = "2026-03-25.preview"

    /// A call that did not decode into the Kotlin model.
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let status: Int
        let body: String
        let decodingError: any Error
        var description: String { "\(path): HTTP \(status) did not decode (\(decodingError)): \(body)" }
    }

    func post<T: Decodable>(_ path: String, _ parameters: [AndroidParameter], as type: T.Type, key: String? = nil)
        throws -> T
    {
        try decode(type, path, try send("POST", path, parameters, key: key))
    }

    func get<T: Decodable>(
        _ path: String, _ parameters: [AndroidParameter], as type: T.Type, key: String? = nil,
        consumerSecret: String? = nil
    ) throws -> T {
        try decode(type, path, try send("GET", path, parameters, key: key, consumerSecret: consumerSecret))
    }

    /// Sends one request as the SDK encodes it.
    func send(
        _ method: String, _ path: String, _ parameters: [AndroidParameter], key: String? = nil,
        consumerSecret: String? = nil
    ) throws -> RawHTTPClient.Response {
        let encoded = AndroidParameter.encode(parameters)
        let inQuery = method == "GET" || method == "DELETE"
        let target = "/v1/\(path)" + (inQuery && !encoded.isEmpty ? "?\(encoded)" : "")
        var headers = [
            ("Authorization", "Bearer \(key ?? self.key)"),
            ("Stripe-Version", path.hasPrefix("crypto/internal/") ? Self.cryptoVersion : Self.linkVersion),
            ("Accept", "application/json"), ("Accept-Charset", "UTF-8"), ("Accept-Language", "en-US"),
            ("User-Agent", "Stripe/v1 AndroidBindings/21.30.0"),
            (
                "X-Stripe-User-Agent",
                #"{"lang":"kotlin","bindings_version":"21.30.0","os_version":"35","type":"Google_Pixel 9_pixel9","model":"Pixel 9"}"#
            ),
        ]
        if let consumerSecret { headers.append(("Stripe-Consumer-Auth-Token", consumerSecret)) }
        var body: [UInt8] = []
        if !inQuery {
            body = Array(encoded.utf8)
            headers.append(("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8"))
        }
        return try sandbox.exchange(.live, method, target, headers: headers, body: body)
    }

    /// A KYC document upload as `OnrampFileUploadRequest.kt` (f868347b) and `FileUploadRequest.kt` (02c5abef)
    /// write it: a random non-negative Long as the boundary, parts `purpose` and `file` (with its file name,
    /// `Content-Type` and `Content-Transfer-Encoding: binary`), no `owned_by`, and no CRLF after the closing
    /// boundary.
    func uploadKYCDocument(_ bytes: [UInt8], contentType: String, fileName: String, key: String) throws
        -> RawHTTPClient.Response
    {
        let boundary = String(UInt64.random(in: 0...UInt64(Int64.max)))
        var body = Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\ncrypto_onramp_kyc_document\r\n"
                .utf8)
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName)\"\r\nContent-Type: \(contentType)\r\nContent-Transfer-Encoding: binary\r\n\r\n"
                .utf8)
        body += bytes + Array("\r\n--\(boundary)--".utf8)
        return try sandbox.exchange(
            .live, "POST", "/v1/files",
            headers: [
                ("Authorization", "Bearer \(key)"), ("Stripe-Version", Self.cryptoVersion),
                ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
            ], body: body)
    }

    /// Decodes an answer as kotlinx does for `crypto/internal/*` (`ignoreUnknownKeys`; the models check that
    /// keys without defaults are present) and as the `org.json` parsers do for Link (modelled the same way).
    func decode<T: Decodable>(_ type: T.Type, _ path: String, _ reply: RawHTTPClient.Response) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(reply.body))
        } catch {
            throw Failure(path: path, status: reply.status, body: reply.text, decodingError: error)
        }
    }
}

/// One form parameter as the SDK's request models become maps: text, a boolean, a nested map (`a[b]`), or a
/// list of text (`a[]=x`).
indirect enum AndroidParameter {
    case value(String, String)
    case map(String, [AndroidParameter])
    case list(String, [String])

    static func encode(_ parameters: [AndroidParameter]) -> String {
        parameters.flatMap { $0.pairs(prefix: nil) }.map { "\(urlEncode($0.0))=\(urlEncode($0.1))" }
            .joined(separator: "&")
    }

    private func pairs(prefix: String?) -> [(String, String)] {
        func name(_ key: String) -> String { prefix.map { "\($0)[\(key)]" } ?? key }
        switch self {
        case .value(let key, let value): return [(name(key), value)]
        case .map(let key, let members): return members.flatMap { $0.pairs(prefix: name(key)) }
        case .list(let key, let values):
            return values.isEmpty ? [(name(key), "")] : values.map { ("\(name(key))[]", $0) }
        }
    }

    /// `java.net.URLEncoder.encode(text, "UTF-8")`.
    static func urlEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
                UInt8(ascii: "_"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "): out.append("+")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// The consumer's `credentials[consumer_session_client_secret]`.
func androidCredentials(_ secret: String) -> AndroidParameter {
    .map("credentials", [.value("consumer_session_client_secret", secret)])
}
