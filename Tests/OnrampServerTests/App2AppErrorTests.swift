import AppAttest
import Foundation
import HTTPServer
import OnrampCore
import OnrampCrypto
import OnrampServer
import OnrampStore
import OnrampTestSupport
import OnrampWire
import Synchronization
import Testing

@testable import OnrampServices

/// One test per row of the seed's error table, plus replay and JWT refusals. Each checks the
/// status and the CDP error shape `{errorType, errorMessage, correlationId}`.
@Suite(.serialized, .blocking) struct App2AppErrorTests {
    func expectError(
        _ response: (status: Int, body: JSONValue), _ status: Int, _ type: String, reason: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // The App Attest failure arrives as a code of its own (`errorReason`), never only inside the message.
        #expect(response.body["errorReason"]?.stringValue == reason, "\(response.body)", sourceLocation: sourceLocation)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.body["errorType"] == .string(type), sourceLocation: sourceLocation)
        #expect(response.body["errorMessage"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(response.body["correlationId"]?.stringValue?.hasPrefix("req_") == true, sourceLocation: sourceLocation)
    }

    @Test func invalidRequestMissingField() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        expectError(
            try device.purchaseChallenge(device.purchase(removing: ["destinationAddress"])), 400, "invalid_request")
        expectError(
            try device.purchaseChallenge(device.purchase([("paymentAmount", .bool(true))])), 400, "invalid_request")
    }

    @Test func redirectHostNotAllowlisted() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        expectError(
            try device.purchaseChallenge(device.purchase([("redirectUrl", "https://evil.example.net/back")])), 400,
            "invalid_request")
        expectError(
            try device.purchaseChallenge(
                device.purchase([("redirectUrl", .string("http://\(TestServer.redirectHost)/back"))])),
            400, "invalid_request")
    }

    @Test(arguments: [
        ("base", "0x52908400098527886e0F7030069857D2E4169EE7"),  // bad EIP-55 checksum
        ("base", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"),  // a Solana address
        ("solana", "0x52908400098527886E0F7030069857D2E4169EE7"),
        ("solana", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtX0"),  // '0' is not base58
        ("bitcoin", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"),  // bad bech32 checksum
        ("bitcoin", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"),  // bad base58check checksum
        ("stellar", "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN8"),
    ])
    func addressDoesNotMatchTheNetwork(network: String, address: String) throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        let asset: JSONValue = network == "bitcoin" ? "BTC" : network == "stellar" ? "XLM" : "USDC"
        let response = try device.purchaseChallenge(
            device.purchase([
                ("destinationNetwork", .string(network)), ("destinationAddress", .string(address)),
                ("purchaseCurrency", asset),
            ]))
        expectError(response, 400, "invalid_request")
    }

    @Test(arguments: [
        ("base", "USDC", "0x52908400098527886E0F7030069857D2E4169EE7"),
        ("solana", "USDC", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"),
        ("bitcoin", "BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
        ("bitcoin", "BTC", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"),
        ("bitcoin", "BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
        ("bitcoin", "BTC", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"),
        ("stellar", "XLM", "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7"),
    ])
    func addressValidForTheNetworkIsAccepted(network: String, asset: String, address: String) throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        let response = try device.purchaseChallenge(
            device.purchase([
                ("destinationNetwork", .string(network)), ("destinationAddress", .string(address)),
                ("purchaseCurrency", .string(asset)),
            ]))
        #expect(response.status == 201, "\(response.body.serializedString)")
    }

    @Test func unknownPurchaseCurrency() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        expectError(
            try device.purchaseChallenge(device.purchase([("purchaseCurrency", "usdc")])), 400, "invalid_request")
        expectError(
            try device.purchaseChallenge(device.purchase([("purchaseCurrency", "NOPE")])), 400, "invalid_request")
    }

    @Test func exactlyOneAmount() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        expectError(try device.purchaseChallenge(device.purchase([("purchaseAmount", "10")])), 400, "invalid_request")
        expectError(try device.purchaseChallenge(device.purchase(removing: ["paymentAmount"])), 400, "invalid_request")
        expectError(try device.purchaseChallenge(device.purchase([("paymentAmount", "1e3")])), 400, "invalid_request")
        #expect(
            try device.purchaseChallenge(device.purchase([("purchaseAmount", "10")], removing: ["paymentAmount"]))
                .status == 201)
    }

    @Test func purchaseChallengeIdempotencyKey() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        func create(_ body: JSONValue) throws -> (status: Int, body: JSONValue) {
            let response = try server.request(
                "POST", "/platform/v2/onramp/mobile/challenges", json: body, headers: [("Idempotency-Key", "order-1")])
            return (response.status, response.body)
        }
        let first = try create(device.purchase())
        let retry = try create(device.purchase())
        #expect(first.status == 201)
        #expect(retry.body["challenge"] == first.body["challenge"])
        expectError(try create(device.purchase([("paymentAmount", "30.00")])), 400, "invalid_request")
        // Once the challenge is attested, a retry cannot hand it out again.
        _ = try device.createSession(challenge: try #require(first.body["challenge"]?.stringValue))
        expectError(try create(device.purchase()), 422, "stale_attestation")
    }

    /// Parallel requests with one Idempotency-Key get one challenge (on PostgreSQL the loser of the insert
    /// race answers as a retry instead of a 500).
    @Test(arguments: DatabaseDriver.all)
    func concurrentRequestsWithOneIdempotencyKeyShareTheChallenge(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        let device = try TestDevice(server: server)
        let body = device.purchase()
        let answers = Mutex<[(status: Int, challenge: String?)]>([])
        let done = DispatchGroup()
        let request = HTTPRequest(
            method: "POST", path: "/platform/v2/onramp/mobile/challenges",
            headers: HTTPHeaders([("Content-Type", "application/json"), ("Idempotency-Key", "parallel-order")]),
            body: body.serialized)
        for _ in 0..<16 {
            done.enter()
            Thread {  // straight into the router on real threads: more overlap than two server threads give
                let response = server.application.router.respond(to: request).response
                let challenge = (try? JSONParser().parse(response.body))?["challenge"]?.stringValue
                answers.withLock { $0.append((response.status, challenge)) }
                done.leave()
            }.start()
        }
        done.wait()
        let all = answers.withLock { $0 }
        #expect(all.allSatisfy { $0.status == 201 }, "\(all)")
        #expect(Set(all.compactMap(\.challenge)).count == 1)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM attestation_challenges WHERE idempotency_key IS NOT NULL") == 1)
    }

    /// One assertion sent many times at once (a client retrying on several connections) gets one session,
    /// the same URL for every request. On PostgreSQL the reads of challenge and key used to be separate
    /// snapshots: a request could see the challenge unused and the key's counter already advanced by the
    /// winner, and answer 400 `counter_not_increased`.
    @Test(arguments: DatabaseDriver.all)
    func concurrentReplaysOfOneAssertionGetTheSameSession(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        var device = try TestDevice(server: server)
        try device.registerKey()
        for _ in 0..<4 {
            let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
            let assertion = try device.assertion(for: text)
            let body: JSONValue = [
                "challenge": .string(text),
                "ios": ["keyId": .string(device.key.keyId), "assertion": .string(assertion)],
            ]
            let request = HTTPRequest(
                method: "POST", path: "/platform/v2/onramp/mobile/sessions",
                headers: HTTPHeaders([("Content-Type", "application/json")]), body: body.serialized)
            let answers = Mutex<[(status: Int, url: String?, message: String?)]>([])
            let done = DispatchGroup()
            for _ in 0..<12 {
                done.enter()
                Thread {
                    let response = server.application.router.respond(to: request).response
                    let parsed = try? JSONParser().parse(response.body)
                    let answer = (
                        response.status, parsed?["session"]?["onrampUrl"]?.stringValue,
                        parsed?["errorMessage"]?.stringValue
                    )
                    answers.withLock { $0.append(answer) }
                    done.leave()
                }.start()
            }
            done.wait()
            let all = answers.withLock { $0 }
            #expect(all.allSatisfy { $0.status == 201 }, "\(all.filter { $0.status != 201 })")
            #expect(Set(all.compactMap(\.url)).count == 1)
        }
    }

    /// A retry whose session token was sealed under another data key (a restart without
    /// `ONRAMP_DATA_KEY`, or another instance with a different key) cannot get its URL back: it is told
    /// to create a new challenge, where it used to get a 500.
    @Test(arguments: DatabaseDriver.all)
    func aRetryOfASessionSealedUnderAnotherDataKeyNeedsANewChallenge(driver: DatabaseDriver) throws {
        let server = try TestServer(driver: driver)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let body: JSONValue = [
            "challenge": .string(text),
            "ios": ["keyId": .string(device.key.keyId), "assertion": .string(try device.assertion(for: text))],
        ]
        let first = try server.request("POST", "/platform/v2/onramp/mobile/sessions", json: body)
        #expect(first.status == 201)
        let retry = try server.request("POST", "/platform/v2/onramp/mobile/sessions", json: body)
        #expect(retry.status == 201)
        #expect(retry.body["session"] == first.body["session"])
        let otherKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
        let elsewhere = Base64.encode(try AESGCM.seal(Array("another token".utf8), key: otherKey))
        try server.database.transaction {
            try $0.execute("UPDATE purchase_sessions SET token_sealed = ?", [.text(elsewhere)])
        }
        let answer = try server.request("POST", "/platform/v2/onramp/mobile/sessions", json: body)
        expectError((answer.status, answer.body), 400, "invalid_request")
        #expect(answer.body["errorMessage"] == "Unknown challenge. Create a new challenge.")
    }

    @Test func partnerUserRefLongerThan50Characters() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        let long = JSONValue.string(String(repeating: "u", count: 51))
        expectError(try device.purchaseChallenge(device.purchase([("partnerUserRef", long)])), 400, "invalid_request")
    }

    @Test func unknownChallenge() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let made = Base64URL.encode(SecureRandom.bytes(32), padded: false)
        expectError(try device.createSession(challenge: made), 400, "invalid_request")
        expectError(try device.createSession(challenge: "not-a-challenge"), 400, "invalid_request")
    }

    @Test func registrationAttestationFailedWithAnUntrustedAuthority() throws {
        let server = try TestServer(trustTestRoot: false)
        var device = try TestDevice(server: server)
        expectError(try device.register(), 400, "invalid_request", reason: "certificate_chain")
        #expect(try server.count("SELECT COUNT(*) AS n FROM app_attest_keys") == 0)
    }

    @Test func registrationForAnAppIdTheProjectDidNotRegister() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server, appId: "ZZZZZ99999.com.other.app")
        expectError(try device.register(), 400, "invalid_request", reason: "rp_id_mismatch")
    }

    @Test func purchaseAssertionFailed() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let first = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let second = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        // An assertion made for another challenge.
        let wrong = try device.assertion(for: second)
        expectError(
            try device.createSession(challenge: first, assertion: wrong), 400, "invalid_request",
            reason: "invalid_signature")
        // A different key's assertion.
        var stranger = try TestDevice(server: server)
        let foreign = try stranger.assertion(for: first)
        expectError(
            try device.createSession(challenge: first, assertion: foreign), 400, "invalid_request",
            reason: "invalid_signature")
    }

    @Test func assertionCounterReplayIsRefused() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        let first = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        #expect(try device.createSession(challenge: first).status == 201)
        let second = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        device.key.counter -= 1  // the next assertion repeats the counter already used
        expectError(
            try device.createSession(challenge: second), 400, "invalid_request", reason: "counter_not_increased")
    }

    @Test func registrationChallengeIsSingleUse() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        let challenge = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        let text = try #require(challenge.body["challenge"]?.stringValue)
        let attestation = Base64.encode(
            try device.attester.attestKey(device.key, clientDataHash: TestDevice.clientDataHash(text), at: Date()))
        let body: JSONValue = [
            "challenge": .string(text),
            "ios": ["keyId": .string(device.key.keyId), "attestation": .string(attestation)],
        ]
        let path = "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/registrations"
        #expect(try server.request("POST", path, json: body).status == 200)
        let replay = try server.request("POST", path, json: body)
        expectError((replay.status, replay.body), 400, "invalid_request")
        // A purchase challenge cannot register a key either.
        let purchase = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        _ = try device.createSession(challenge: purchase)
    }

    /// A project restricted to the production environment refuses a development key's attestation;
    /// allowing development again lets the same device register.
    @Test func projectAcceptsOnlyItsAllowedEnvironments() throws {
        let server = try TestServer()
        let provisioner = ProjectProvisioner(database: server.database, clock: server.clock)
        try provisioner.setAllowedEnvironments([.production], projectId: server.projectId)
        var device = try TestDevice(server: server, environment: .development)
        let refused = try device.register()
        expectError((refused.status, refused.body), 400, "invalid_request", reason: "environment_not_allowed")
        try provisioner.setAllowedEnvironments([.development, .production], projectId: server.projectId)
        #expect(try device.register().status == 200)
        #expect(throws: ProjectProvisioner.ProvisioningError.self) {
            try provisioner.setAllowedEnvironments([], projectId: server.projectId)
        }
    }

    @Test func developmentKeyWithoutSandboxPrefix() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server, environment: .development)
        #expect(try device.register().status == 200)
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        expectError(try device.createSession(challenge: text), 400, "invalid_request")
        let sandbox = try #require(
            try device.purchaseChallenge(device.purchase([("partnerUserRef", "sandbox-1")])).body["challenge"]?
                .stringValue)
        #expect(try device.createSession(challenge: sandbox).status == 201)
    }

    @Test func challengeOlderThanFiveMinutesIsStale() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        clock.advance(by: 5 * 60 + 1)
        expectError(try device.createSession(challenge: text), 422, "stale_attestation")
        // A stale registration challenge too.
        let registration = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        let registrationText = try #require(registration.body["challenge"]?.stringValue)
        clock.advance(by: 5 * 60 + 1)
        let attestation = Base64.encode(
            try device.attester.attestKey(
                device.key, clientDataHash: TestDevice.clientDataHash(registrationText), at: Date()))
        let response = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/registrations",
            json: [
                "challenge": .string(registrationText),
                "ios": ["keyId": .string(device.key.keyId), "attestation": .string(attestation)],
            ])
        expectError((response.status, response.body), 422, "stale_attestation")
    }

    @Test func projectNotEnabledForApp2App() throws {
        let server = try TestServer()
        var device = try TestDevice(server: server)
        try device.registerKey()
        try ProjectProvisioner(database: server.database).setApp2AppEnabled(false, projectId: server.projectId)
        expectError(try device.purchaseChallenge(device.purchase()), 403, "forbidden")
        let response = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/not-a-project/attestation/challenges")
        expectError((response.status, response.body), 403, "forbidden")
    }

    @Test func rateLimited() throws {
        let server = try TestServer(clientRequestsPerSecond: 1)
        var statuses: [Int] = []
        for _ in 0..<5 {
            statuses.append(
                try server.request(
                    "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges"
                ).status)
        }
        #expect(statuses.prefix(2).allSatisfy { $0 == 201 })
        let limited = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        expectError((limited.status, limited.body), 429, "rate_limit_exceeded")
        #expect(limited.headers["retry-after"] == "1")
    }

    /// The per-project limit counts each project apart (every address together), and only calls that
    /// passed the checks an anonymous caller cannot pass: a registration whose attestation verified, a
    /// session against a known challenge and a key registered in the project. Challenges anyone can ask
    /// for, and made-up challenges or keys, do not spend it (80 addresses did, and locked a real client
    /// out). The limiter follows the server's clock, so the buckets refill exactly when the test says.
    @Test func rateLimitedPerProjectOnlyForCallsThatPassedTheCheapChecks() throws {
        let clock = ManualClock(Date())
        let server = try TestServer(clock: clock, projectRequestsPerSecond: 1)
        var device = try TestDevice(server: server)
        #expect(try device.register().status == 200)  // the registration spends one of the burst of two
        // A flood that names the public project id: challenges, registrations with junk attestations against
        // them, and sessions for made-up challenges and keys.
        for _ in 0..<30 {
            let free = try server.request(
                "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
            let junk = try server.request(
                "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/registrations",
                json: [
                    "challenge": try #require(free.body["challenge"]), "ios": ["keyId": "a2V5", "attestation": "AAAA"],
                ])
            #expect(junk.status == 400)
            #expect(try device.purchaseChallenge(device.purchase()).status == 201)
            let registration = try server.request(
                "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
            #expect(registration.status == 201)
            let unknownKey = try server.request(
                "POST", "/platform/v2/onramp/mobile/sessions",
                json: [
                    "challenge": try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]),
                    "ios": ["keyId": "bm90LWEta2V5", "assertion": "AAAA"],
                ])
            #expect(unknownKey.status == 400)
        }
        // The real client still has its budget: one session now, the next after the bucket refills.
        let first = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        #expect(try device.createSession(challenge: first).status == 201)
        let second = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        expectError(try device.createSession(challenge: second), 429, "rate_limit_exceeded")
        let other = try ProjectProvisioner(database: server.database).createProject(
            name: "Other", appIds: [TestServer.appId], redirectHosts: [], keyType: .es256)
        let otherChallenge = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(other.projectId)/attestation/challenges")
        #expect(otherChallenge.status == 201, "another project has a budget of its own")
        clock.advance(by: 1)
        #expect(try device.createSession(challenge: second).status == 201)
    }

    /// A failed attestation spends its challenge: each attempt costs the caller a new challenge.
    @Test func aFailedRegistrationSpendsItsChallenge() throws {
        let server = try TestServer()
        let device = try TestDevice(server: server)
        let challenge = try server.request(
            "POST", "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/challenges")
        let text = try #require(challenge.body["challenge"]?.stringValue)
        let body: JSONValue = [
            "challenge": .string(text), "ios": ["keyId": .string(device.key.keyId), "attestation": "AAAA"],
        ]
        let path = "/platform/v2/onramp/mobile/projects/\(server.projectId)/attestation/registrations"
        let failed = try server.request("POST", path, json: body)
        expectError((failed.status, failed.body), 400, "invalid_request", reason: "invalid_format")
        let again = try server.request("POST", path, json: body)
        #expect(again.body["errorMessage"]?.stringValue?.contains("Unknown challenge") == true, "\(again.body)")
    }

    @Test func serviceUnavailableWhenStorageIsBusy() {
        var router = Router()
        router.setErrorRenderer(CDPErrorRenderer(), forPathPrefix: "/platform/")
        router.add("POST", "/platform/v2/onramp/mobile/sessions") { _ in throw StoreError(.busy, "database is locked") }
        let (response, _) = router.respond(to: HTTPRequest(method: "POST", path: "/platform/v2/onramp/mobile/sessions"))
        let body = (try? JSONParser().parse(response.body)) ?? .null
        expectError((response.status, body), 503, "service_unavailable")
        #expect(response.headers["Retry-After"] == "1")
    }

    /// With `--jwt-single-use` a read's JWT is good for one request too: its nonce is remembered until it
    /// expires.
    @Test func singleUseJWTsAreRefusedTheSecondTime() throws {
        let server = try TestServer(jwtSingleUse: true)
        let path = "/onramp/v1/buy/transactions"
        let token = try server.jwt("GET", path)
        #expect(try server.request("GET", path, headers: [("Authorization", "Bearer \(token)")]).status == 200)
        let replayed = try server.request("GET", path, headers: [("Authorization", "Bearer \(token)")])
        expectError((replayed.status, replayed.body), 401, "unauthorized")
        #expect(replayed.body["errorMessage"]?.stringValue?.contains("nonce") == true)
    }

    /// Coinbase's demo backend signs `uris` with the host name alone (`urlObj.hostname`, no port): on a
    /// non-default port that JWT names this server as well.
    @Test func aJWTNamingTheHostWithoutItsPortIsAccepted() throws {
        let server = try TestServer()
        let path = "/platform/v2/onramp/mobile/attestation/challenges"
        let key = try CDPAPIKey(id: server.credentials.cdpApiKeyId, secret: server.credentials.cdpApiKeySecret)
        let withoutPort = try key.jwt(method: "POST", host: "127.0.0.1", path: path, at: server.clock.now())
        let accepted = try server.request("POST", path, headers: [("Authorization", "Bearer \(withoutPort)")])
        #expect(accepted.status == 201, "\(accepted.body)")
        let withPort = try key.jwt(
            method: "POST", host: "127.0.0.1:\(server.port)", path: path, at: server.clock.now())
        #expect(try server.request("POST", path, headers: [("Authorization", "Bearer \(withPort)")]).status == 201)
        let otherHost = try key.jwt(method: "POST", host: "evil.example.com", path: path, at: server.clock.now())
        let refused = try server.request("POST", path, headers: [("Authorization", "Bearer \(otherHost)")])
        expectError((refused.status, refused.body), 401, "unauthorized")
    }

    @Test func missingOrInvalidJWT() throws {
        let server = try TestServer()
        let path = "/platform/v2/onramp/mobile/attestation/challenges"
        let none = try server.request("POST", path)
        expectError((none.status, none.body), 401, "unauthorized")
        let garbage = try server.request("POST", path, headers: [("Authorization", "Bearer abc.def.ghi")])
        expectError((garbage.status, garbage.body), 401, "unauthorized")
        let wrongURI = try server.request(
            "POST", path, headers: [("Authorization", "Bearer \(try server.jwt("GET", path))")])
        expectError((wrongURI.status, wrongURI.body), 401, "unauthorized")
        let expired = try server.request(
            "POST", path,
            headers: [("Authorization", "Bearer \(try server.jwt("POST", path, at: Date().addingTimeInterval(-600)))")])
        expectError((expired.status, expired.body), 401, "unauthorized")
        let good = try server.jwt("POST", path)
        let accepted = try server.request("POST", path, headers: [("Authorization", "Bearer \(good)")])
        #expect(accepted.status == 201)
        #expect(accepted.body["challenge"]?.stringValue?.count == 44)
        // A write's JWT is good once (its uris do not cover the body).
        let replayed = try server.request("POST", path, headers: [("Authorization", "Bearer \(good)")])
        expectError((replayed.status, replayed.body), 401, "unauthorized")
        // A read's may be reused within its lifetime for the request it names (Coinbase's `export JWT=…`
        // flow, a poller); not for another request.
        let listing = "/onramp/v1/buy/transactions"
        let read = try server.jwt("GET", listing)
        for _ in 0..<2 {
            #expect(try server.request("GET", listing, headers: [("Authorization", "Bearer \(read)")]).status == 200)
        }
        let elsewhere = try server.request(
            "GET", "/onramp/v1/buy/config", headers: [("Authorization", "Bearer \(read)")])
        expectError((elsewhere.status, elsewhere.body), 401, "unauthorized")
        // Signed with the project's own key, but timed to live for ages: refused, and the server stays up.
        let key = try CDPAPIKey(id: server.credentials.cdpApiKeyId, secret: server.credentials.cdpApiKeySecret)
        let now = Date().timeIntervalSince1970.rounded(.down)
        for (issuedAt, notBefore, expiresAt) in [
            (1e300, nil, 1e300), (now + 3600, nil, now + 3700), (now, nil, now + 3600), (nil, nil, 1e15),
        ] as [(Double?, Double?, Double)] {
            let claims = JWTClaims(
                subject: key.id, issuer: "cdp", notBefore: notBefore.map(Date.init(timeIntervalSince1970:)),
                expiresAt: Date(timeIntervalSince1970: expiresAt),
                issuedAt: issuedAt.map(Date.init(timeIntervalSince1970:)),
                uris: [CDPAPIKey.uri(method: "POST", host: "127.0.0.1", path: path)])
            let header = JWTHeader(
                algorithm: key.signingKey.algorithm.rawValue, keyID: key.id, type: "JWT", nonce: CDPAPIKey.makeNonce())
            let token = try JWT.sign(header: header, claims: claims, key: key.signingKey)
            let refused = try server.request("POST", path, headers: [("Authorization", "Bearer \(token)")])
            expectError((refused.status, refused.body), 401, "unauthorized")
        }
        #expect(
            try server.request("POST", path, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
                .status == 201)
    }

    @Test func ed25519KeysAuthenticateToo() throws {
        let server = try TestServer(keyType: .ed25519)
        let path = "/platform/v2/onramp/mobile/attestation/challenges"
        let response = try server.request(
            "POST", path, headers: [("Authorization", "Bearer \(try server.jwt("POST", path))")])
        #expect(response.status == 201)
    }
}
