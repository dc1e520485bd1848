import HTTPServer
import OnrampServices
import OnrampWire

/// The App2App mobile endpoints on their real paths, in the seed's form (project in the path, no
/// API key) and in the `cdp-sdk` form (challenge endpoints authenticated by a CDP API key JWT).
struct App2AppRoutes: Sendable {
    let service: App2AppService
    let testClocks: TestClocks

    /// Answers 429 `rate_limit_exceeded` when the client address is over its mobile rate limit. The
    /// project's budget is charged later, by the service, only once a call has passed the checks an
    /// anonymous caller cannot (a known challenge, a registered key), so that a flood naming a public
    /// project id cannot spend it.
    private func limit(_ request: HTTPRequest) throws(App2AppRefusal) {
        try service.rateLimits.admit(address: request.remoteAddress, at: service.clock.now())
    }

    func createRegistrationChallenge(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let challenge = try inProjectTime(request.pathParameters["projectId"]) {
            try service.createRegistrationChallenge(projectId: request.pathParameters["projectId"]!)
        }
        return Operations.createRegistrationChallenge.success(challenge.wire(.base64URL))
    }

    func registerProjectAttestationKey(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let registration = try KeyRegistrationRequest(try request.jsonBody(), keyIdFromPath: nil)
        return .json(
            try inProjectTime(request.pathParameters["projectId"]) {
                try service.register(registration, projectIdFromPath: request.pathParameters["projectId"])
            })
    }

    func putProjectAttestationKey(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let registration = try KeyRegistrationRequest(
            try request.jsonBody(), keyIdFromPath: request.pathParameters["keyId"])
        return .json(
            try inProjectTime(request.pathParameters["projectId"]) {
                try service.register(registration, projectIdFromPath: request.pathParameters["projectId"])
            })
    }

    func createPurchaseChallenge(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let body = try request.jsonBody()
        guard let projectId = body["projectId"]?.stringValue, !projectId.isEmpty else {
            throw FieldError(
                code: "invalid_request", message: "Missing required field projectId.",
                param: "projectId")
        }
        let purchase = try PurchaseRequest(fields: RequestFields(body))
        let idempotencyKey = try IdempotencyKeyHeader.app2App.key(in: request)
        let challenge = try inProjectTime(projectId) {
            try service.createPurchaseChallenge(
                projectId: projectId, purchase: purchase, idempotencyKey: idempotencyKey)
        }
        RequestNotes.current?.noteSubject(Base64URL.encode(challenge.bytes, padded: false))
        return Operations.createPurchaseChallenge.success(challenge.wire(.base64URL))
    }

    func createPurchaseSession(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let body = try request.jsonBody()
        let session = try PurchaseSessionRequest(body)
        if let challengeId = body["challenge"]?.stringValue.flatMap(ChallengeRepository.id(forChallengeText:)) {
            RequestNotes.current?.noteSubject(challengeId)
        }
        let scope = try service.sessionScope(for: session)
        RequestNotes.current?.projectId = scope.projectId
        return Operations.createPurchaseSession.success(try service.createSession(session, in: scope))
    }

    func createRegistrationChallengeWithAPIKey(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        Operations.createRegistrationChallengeWithAPIKey.success(
            try service.createRegistrationChallenge(projectId: projectId).wire(.base64))
    }

    func registerAttestationKey(_ request: HTTPRequest) throws -> HTTPResponse {
        try limit(request)
        let body = try request.jsonBody()
        let registration = try KeyRegistrationRequest(body, keyIdFromPath: nil)
        return .json(try inChallengeProjectTime(body) { try service.register(registration, projectIdFromPath: nil) })
    }

    func createPurchaseChallengeWithAPIKey(_ request: HTTPRequest, _ projectId: String) throws -> HTTPResponse {
        var body = try request.jsonBody()
        if case .object(let members) = body, body["projectId"] == nil {
            body = .object(members + [("projectId", .string(projectId))])
        } else if body["projectId"]?.stringValue != projectId {
            throw FieldError(
                code: "invalid_request", message: "projectId does not match the API key.",
                param: "projectId")
        }
        let purchase = try PurchaseRequest(fields: RequestFields(body))
        let challenge = try service.createPurchaseChallenge(
            projectId: projectId, purchase: purchase, idempotencyKey: try IdempotencyKeyHeader.app2App.key(in: request))
        RequestNotes.current?.noteSubject(Base64URL.encode(challenge.bytes, padded: false))
        return Operations.createPurchaseChallengeWithAPIKey.success(challenge.wire(.base64))
    }

    /// Runs `body` in the project's time (its test clock; real time when there is none).
    private func inProjectTime<T>(_ projectId: String?, _ body: () throws -> T) throws -> T {
        if let projectId { RequestNotes.current?.projectId = projectId }
        return try testClocks.bound(to: projectId, body)
    }

    /// Runs `body` in the time of the project whose challenge a registration or session names (real time
    /// when it names no known challenge); the project and its clock come from one read.
    private func inChallengeProjectTime<T>(_ requestBody: JSONValue, _ body: () throws -> T) throws -> T {
        guard let text = requestBody["challenge"]?.stringValue, text.utf8.count <= 512,
            let (projectId, offset) = try service.projectClock(ofChallenge: text)
        else { return try body() }
        RequestNotes.current?.projectId = projectId
        return try TestClocks.bound(offsetMilliseconds: offset, body)
    }
}
