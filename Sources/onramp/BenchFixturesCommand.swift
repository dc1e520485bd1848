import AppAttest
import Foundation
import HTTPServer
import OnrampCrypto
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `onramp bench-fixtures app2app`: prepares attested session requests for `bench/app2app.sh`.
/// Every request gets its own software App Attest key, registered over HTTP, so replaying them
/// concurrently never races a counter. Writes one JSON request body per line.
enum BenchFixturesCommand {
    static let usage = """
        Usage: onramp bench-fixtures app2app --server URL --project ID --app-id TEAMID.BUNDLEID --ca DIR \\
                 --redirect-host HOST --count N --out FILE

        Registers N software App Attest keys (signed by the test CA in DIR, which the server must trust),
        creates N purchase challenges and writes N session-creation bodies, one JSON object per line.
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try Arguments(
                arguments,
                valueOptions: ["--server", "--project", "--app-id", "--ca", "--count", "--out", "--redirect-host"],
                flagOptions: ["--help"])
            guard args.positional.first == "app2app", !args.flag("--help") else {
                print(usage)
                return args.flag("--help") ? 0 : 64
            }
            func required(_ name: String) throws -> String {
                guard let value = args.value(name) else { throw Arguments.UsageError(description: "missing \(name)") }
                return value
            }
            let server = try required("--server")
            let project = try required("--project")
            let appId = try required("--app-id")
            let count = try args.integer("--count", default: 1000, in: 1...1_000_000)
            let authority = try TestCertificateAuthority(directory: URL(fileURLWithPath: try required("--ca")))
            let attester = SoftwareAttester(authority: authority, appId: appId, environment: .production)
            let client = BlockingHTTPClient(base: server)
            var lines: [String] = []
            lines.reserveCapacity(count)
            for index in 0..<count {
                var key = try attester.generateKey()
                let registrationChallenge = try client.challenge(
                    "/platform/v2/onramp/mobile/projects/\(project)/attestation/challenges", body: [:])
                let attestation = try attester.attestKey(
                    key, clientDataHash: SHA256.hash(Base64URL.decode(registrationChallenge) ?? []), at: Date())
                _ = try client.post(
                    "/platform/v2/onramp/mobile/projects/\(project)/attestation/registrations",
                    body: [
                        "challenge": .string(registrationChallenge),
                        "ios": ["keyId": .string(key.keyId), "attestation": .string(Base64.encode(attestation))],
                    ], expecting: 200)
                let purchase = try client.challenge(
                    "/platform/v2/onramp/mobile/challenges",
                    body: [
                        "projectId": .string(project), "purchaseCurrency": "USDC", "destinationNetwork": "base",
                        "destinationAddress": "0x52908400098527886E0F7030069857D2E4169EE7",
                        "redirectUrl": .string("https://\(try required("--redirect-host"))/onramp-return"),
                        "paymentAmount": "25.00", "partnerUserRef": .string("bench-user-\(index % 100)"),
                    ])
                let assertion = try attester.generateAssertion(
                    &key, clientDataHash: SHA256.hash(Base64URL.decode(purchase) ?? []))
                let body: JSONValue = [
                    "challenge": .string(purchase),
                    "ios": ["keyId": .string(key.keyId), "assertion": .string(Base64.encode(assertion))],
                ]
                lines.append(body.serializedString)
            }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: try required("--out"), atomically: true, encoding: .utf8)
            return 0
        } catch let error as Arguments.UsageError {
            printError("onramp bench-fixtures: \(error)\n\n\(usage)")
            return 64
        } catch {
            printError("onramp bench-fixtures: \(error)")
            return 1
        }
    }
}

/// Synchronous JSON requests for command-line tools (URLSession underneath).
struct BlockingHTTPClient {
    let base: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func post(_ path: String, body: JSONValue, expecting status: Int) throws -> JSONValue {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.serialized)
        let box = ResultBox()
        let semaphore = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.set(data, (response as? HTTPURLResponse)?.statusCode, error)
            semaphore.signal()
        }.resume()
        semaphore.wait()
        let (data, code, error) = box.get()
        if let error { throw Failure(description: "\(path): \(error)") }
        let text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard code == status else { throw Failure(description: "\(path): HTTP \(code ?? 0) \(text)") }
        return try JSONParser().parse(text)
    }

    func challenge(_ path: String, body: JSONValue) throws -> String {
        guard let challenge = try post(path, body: body, expecting: 201)["challenge"]?.stringValue else {
            throw Failure(description: "\(path): no challenge")
        }
        return challenge
    }
}

/// Carries a URLSession completion back to the waiting thread.
private final class ResultBox: @unchecked Sendable {
    // Written once by the completion handler before the semaphore is signalled, read after the wait.
    private var value: (Data?, Int?, (any Error)?) = (nil, nil, nil)
    func set(_ data: Data?, _ status: Int?, _ error: (any Error)?) { value = (data, status, error) }
    func get() -> (Data?, Int?, (any Error)?) { value }
}
