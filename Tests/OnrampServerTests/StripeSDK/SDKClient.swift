import Foundation
import OnrampTestSupport
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Sends requests the way StripeCore's `STPAPIClient` does (`StripeCore/…/API Bindings/STPAPIClient.swift`,
/// commit c57767ad): `<apiURL>/<resource>`, GET parameters in the query and POST parameters as a form, both
/// encoded by ``SDKFormEncoder``; `Authorization: Bearer <key>`, `Stripe-Version: 2020-08-27` (betas
/// appended), `X-Stripe-User-Agent`. Answers are decoded whatever their status, and only when that fails
/// read as a Stripe error, as the SDK does. Each call goes over a new loopback connection through the
/// harness's exchange, so its answer is also held to `/openapi.json` (``DescribedAnswers``).
struct SDKClient {
    let sandbox: OnrampSandbox
    /// The key sent as the Bearer token (publishable, ephemeral or consumer key).
    var key: String
    var betas: [String] = []

    /// A call that did not decode into the model.
    struct Failure: Error, CustomStringConvertible {
        let resource: String
        let status: Int
        let body: String
        let decodingError: any Error
        var description: String { "\(resource): HTTP \(status) did not decode (\(decodingError)): \(body)" }
    }

    func post<T: Decodable>(
        _ resource: String, _ parameters: [String: SDKParameter], as type: T.Type, key: String? = nil
    ) throws -> T {
        try decode(type, resource, try send("POST", resource, parameters, key: key))
    }

    func get<T: Decodable>(
        _ resource: String, _ parameters: [String: SDKParameter], as type: T.Type, key: String? = nil
    ) throws -> T {
        try decode(type, resource, try send("GET", resource, parameters, key: key))
    }

    /// The Stripe error a call answers (the test fails when it answers anything else).
    func error(_ method: String, _ resource: String, _ parameters: [String: SDKParameter]) throws -> (Int, SDKAPIError)
    {
        let reply = try send(method, resource, parameters, key: nil)
        return (reply.status, try decode(SDKAPIError.self, resource, reply))
    }

    /// `STPAPIClient.uploadImage` (StripeCore `STPAPIClient+FileUpload.swift`): a multipart POST of `purpose`,
    /// `owned_by` and a JPEG `file` to `uploads.stripe.com/v1/files`, which the sandbox serves at `/v1/files`.
    func upload(_ jpeg: [UInt8], purpose: String, ownedBy: String, fileName: String) throws -> RawHTTPClient.Response {
        let boundary = "Stripe-iOS-\(UUID().uuidString)"
        var body: [UInt8] = []
        for (name, value) in [("purpose", purpose), ("owned_by", ownedBy)] {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Array(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(fileName).jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                .utf8)
        body += jpeg + Array("\r\n--\(boundary)--\r\n".utf8)
        return try sandbox.exchange(
            .live, "POST", "/v1/files",
            headers: [
                ("Authorization", "Bearer \(key)"),
                ("Stripe-Version", (["2020-08-27"] + betas).joined(separator: "; ")),
                ("Content-Type", "multipart/form-data; boundary=\(boundary)"),
            ], body: body)
    }

    /// Decodes an answer as the SDK does (the model, whatever the status).
    func decoded<T: Decodable>(_ type: T.Type, _ reply: RawHTTPClient.Response, _ resource: String) throws -> T {
        try decode(type, resource, reply)
    }

    /// Sends one request as the SDK encodes it.
    func send(
        _ method: String, _ resource: String, _ parameters: [String: SDKParameter], key: String?,
        headers extra: [(String, String)] = []
    ) throws -> RawHTTPClient.Response {
        let encoded = SDKFormEncoder.encode(parameters)
        let target = "/v1/\(resource)" + (method == "GET" && !encoded.isEmpty ? "?\(encoded)" : "")
        var headers =
            [
                ("Authorization", "Bearer \(key ?? self.key)"),
                ("Stripe-Version", (["2020-08-27"] + betas).joined(separator: "; ")),
                (
                    "X-Stripe-User-Agent",
                    #"{"lang":"objective-c","bindings_version":"25.0.0","os_version":"26.0","type":"iPhone17,1","model":"iPhone","vendor_identifier":"test"}"#
                ),
            ] + extra
        var body: [UInt8] = []
        if method != "GET" {
            body = Array(encoded.utf8)
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        }
        return try sandbox.exchange(.live, method, target, headers: headers, body: body)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ resource: String, _ reply: RawHTTPClient.Response) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(reply.body))
        } catch {
            throw Failure(resource: resource, status: reply.status, body: reply.text, decodingError: error)
        }
    }
}
