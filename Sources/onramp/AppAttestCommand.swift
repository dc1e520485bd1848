import AppAttest
import Foundation
import OnrampCrypto
import OnrampWire

/// `onramp appattest …`: verify shared-format vectors and drive the software attester by hand.
enum AppAttestCommand {
    static let usage = """
        usage: onramp appattest <command> [options]

          verify VECTOR.json [--attestation FILE] [--trust-root FILE.pem]...
              Verify a vector in the shared format (testdata/appattest). Its fields are the inputs: kind,
              app_id, key_id, client_data_hash_hex, verify_at_time, environment (the only one allowed),
              attestation_b64 | assertion_b64, previous_counter_for_success. An assertion's key comes from the
              attestation vector given with --attestation (verified first; its key id must match), else from
              public_key_x963_b64. Apple's root is always trusted; --trust-root adds roots.
              Prints {"valid":true|false,"code":...}; exit 0 when valid, 1 when not, 2 on usage errors.
          ca create --out DIR
              Create a test CA (root.pem, root-key.pem, intermediate.pem, intermediate-key.pem).
          key create --out FILE
              Create a software App Attest key (JSON with a PKCS#8 PEM key and its counter; keep it secret).
          attest --ca DIR --key FILE --app-id TEAMID.BUNDLEID (--challenge TEXT | --client-data-hash HEX)
                 [--environment development|production] [--out FILE]
              Attest the key; writes an attestation vector (verify it with --trust-root DIR/root.pem).
          assert --ca DIR --key FILE --app-id TEAMID.BUNDLEID (--challenge TEXT | --client-data-hash HEX)
                 [--out FILE]
              Sign an assertion with the key (its counter is incremented in FILE); writes an assertion vector.
        """

    struct UsageError: Error {
        let message: String
    }

    /// Runs the subcommand in `arguments` (what follows `onramp appattest`) and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first, !arguments.contains(where: isHelp) else {
            print(usage)
            return arguments.isEmpty ? 2 : 0
        }
        do {
            let rest = Array(arguments.dropFirst())
            switch command {
            case "verify": return try verify(options(rest))
            case "ca" where rest.first == "create": return try createAuthority(options(Array(rest.dropFirst())))
            case "key" where rest.first == "create": return try createKey(options(Array(rest.dropFirst())))
            case "attest": return try attest(options(rest))
            case "assert": return try assert(options(rest))
            case "bench": return try AppAttestBenchmark.run(options(rest))
            default: throw UsageError(message: "unknown command \(arguments.joined(separator: " "))")
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("onramp appattest: \(error.message)\n\n\(usage)\n".utf8))
            return 2
        } catch let error as Arguments.UsageError {
            FileHandle.standardError.write(Data("onramp appattest: \(error)\n\n\(usage)\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("onramp appattest: \(error)\n".utf8))
            return 1
        }
    }

    // MARK: verify

    static func verify(_ options: Arguments) throws -> Int32 {
        guard let path = options.positional.first else { throw UsageError(message: "verify needs VECTOR.json") }
        var roots = [AppleAppAttestRoot.certificate]
        for file in options.values("--trust-root") {
            roots += try X509Certificate.certificates(pemRepresentation: String(contentsOfFile: file, encoding: .utf8))
        }
        let vector = try Vector(path: path)
        let result: [(String, String)]
        do {
            switch vector.string("kind") {
            case "attestation":
                let verified = try verifyAttestation(vector, roots: roots)
                result = [
                    ("kind", json("attestation")), ("key_id", json(verified.keyId)),
                    ("environment", json(verified.environment.rawValue)), ("counter", "0"),
                    ("public_key_x963_b64", json(Base64.encode(verified.publicKeyX963))),
                ]
            case "assertion":
                let counter = try verifyAssertion(vector, attestationPath: options.value("--attestation"), roots: roots)
                result = [("kind", json("assertion")), ("counter", String(counter))]
            default:
                throw UsageError(message: "\(path): kind must be attestation or assertion")
            }
        } catch let error as AppAttestError {
            printObject([("valid", "false"), ("code", json(error.code.rawValue)), ("message", json(error.message))])
            return 1
        }
        printObject([("valid", "true"), ("code", json("ok"))] + result)
        return 0
    }

    static func verifyAttestation(_ vector: Vector, roots: [X509Certificate]) throws -> VerifiedAttestation {
        let environments: Set<AppAttestEnvironment> =
            vector.optionalString("environment").flatMap(AppAttestEnvironment.init(rawValue:)).map { [$0] }
            ?? Set(AppAttestEnvironment.allCases)
        let verifier = AttestationVerifier(
            appId: vector.string("app_id"), allowedEnvironments: environments, trustedRoots: roots)
        return try verifier.verify(
            attestationObject: try vector.base64("attestation_b64"), keyId: vector.string("key_id"),
            clientDataHash: try vector.hex("client_data_hash_hex"), at: try vector.date("verify_at_time"))
    }

    static func verifyAssertion(_ vector: Vector, attestationPath: String?, roots: [X509Certificate]) throws -> UInt32 {
        let publicKey: P256.PublicKey
        if let attestationPath {
            let verified = try verifyAttestation(try Vector(path: attestationPath), roots: roots)
            let expected = vector.optionalString("key_id") ?? vector.optionalString("public_key_sha256_b64")
            guard verified.keyId == expected else {
                throw AppAttestError(code: .keyIdMismatch, message: "the attestation is for another key")
            }
            publicKey = verified.publicKey
        } else {
            do {
                publicKey = try P256.PublicKey(x963Representation: vector.base64("public_key_x963_b64"))
            } catch {
                throw AppAttestError(code: .invalidInput, message: "public_key_x963_b64 is not a P-256 point")
            }
        }
        let previous = vector.fields["previous_counter_for_success"] as? Int ?? 0
        return try AssertionVerifier(appId: vector.string("app_id")).verify(
            assertionObject: try vector.base64("assertion_b64"), publicKey: publicKey,
            previousCounter: UInt32(clamping: previous), clientDataHash: try vector.hex("client_data_hash_hex")
        ).counter
    }

    // MARK: software attester

    static func createAuthority(_ options: Arguments) throws -> Int32 {
        let directory = URL(fileURLWithPath: try options.required("--out"))
        let authority = try TestCertificateAuthority.create(at: Date())
        try authority.save(to: directory)
        printObject([
            ("root", json(directory.appendingPathComponent(TestCertificateAuthority.FileName.root).path)),
            ("subject", json(authority.rootCertificate.subject)),
        ])
        return 0
    }

    static func createKey(_ options: Arguments) throws -> Int32 {
        let key = try SoftwareAttestKey()
        try save(key, to: options.required("--out"))
        printObject([("key_id", json(key.keyId))])
        return 0
    }

    static func attest(_ options: Arguments) throws -> Int32 {
        let environment = try AppAttestEnvironment(rawValue: options.value("--environment") ?? "development")
            .orThrow(UsageError(message: "--environment must be development or production"))
        let attester = SoftwareAttester(
            authority: try TestCertificateAuthority(directory: URL(fileURLWithPath: options.required("--ca"))),
            appId: try options.required("--app-id"), environment: environment)
        let keyPath = try options.required("--key")
        let key = try loadKey(keyPath)
        let clientDataHash = try options.clientDataHash()
        let now = Date()
        let object = try attester.attestKey(key, clientDataHash: clientDataHash, at: now)
        try writeVector(
            [
                ("kind", json("attestation")), ("app_id", json(attester.appId)), ("key_id", json(key.keyId)),
                ("client_data_hash_hex", json(Hex.encode(clientDataHash))),
                ("verify_at_time", json(ISO8601DateFormatter().string(from: now))),
                ("environment", json(environment.rawValue)), ("attestation_b64", json(Base64.encode(object))),
                ("expected_result", json("valid")),
            ], to: options.value("--out"))
        return 0
    }

    static func assert(_ options: Arguments) throws -> Int32 {
        let attester = SoftwareAttester(
            authority: try TestCertificateAuthority(directory: URL(fileURLWithPath: options.required("--ca"))),
            appId: try options.required("--app-id"))
        let keyPath = try options.required("--key")
        var key = try loadKey(keyPath)
        let previous = key.counter
        let clientDataHash = try options.clientDataHash()
        let object = try attester.generateAssertion(&key, clientDataHash: clientDataHash)
        try save(key, to: keyPath)
        try writeVector(
            [
                ("kind", json("assertion")), ("app_id", json(attester.appId)), ("key_id", json(key.keyId)),
                ("client_data_hash_hex", json(Hex.encode(clientDataHash))),
                ("public_key_x963_b64", json(Base64.encode(key.privateKey.publicKey.x963Representation))),
                ("previous_counter_for_success", String(previous)), ("counter", String(key.counter)),
                ("assertion_b64", json(Base64.encode(object))), ("expected_result", json("valid")),
            ], to: options.value("--out"))
        return 0
    }

    static func loadKey(_ path: String) throws -> SoftwareAttestKey {
        try JSONDecoder().decode(SoftwareAttestKey.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func save(_ key: SoftwareAttestKey, to path: String) throws {
        let data = try JSONEncoder().encode(key)
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    static func writeVector(_ members: [(String, String)], to path: String?) throws {
        let text = "{\n" + members.map { "  \(json($0.0)): \($0.1)" }.joined(separator: ",\n") + "\n}\n"
        if let path {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
            print(text, terminator: "")
        }
    }

    // MARK: output

    static func json(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    }

    static func printObject(_ members: [(String, String)]) {
        print("{" + members.map { "\(json($0.0)):\($0.1)" }.joined(separator: ",") + "}")
    }
}

extension Optional {
    fileprivate func orThrow(_ error: @autoclosure () -> any Error) throws -> Wrapped {
        guard let value = self else { throw error() }
        return value
    }
}
