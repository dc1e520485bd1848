import Foundation
import OnrampCore
import OnrampWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app side of App2App (seed steps 1–5): registers the App Attest key once per project, creates a
/// purchase challenge, signs it, creates the session, and decides between the onramp app and the hosted
/// fallback. Settlement is confirmed elsewhere (``WebhookSettlementMatcher``, `OnrampBackend`'s
/// `TransactionsAPIClient`), never from the redirect.
///
/// - A persisted registration whose key proves invalid (on the device or at the server) is cleared, a new
///   key is registered, and the purchase is retried once.
/// - Session creation is idempotent on the challenge, so a dropped connection is retried with the same
///   request and yields the same `onrampUrl`.
public actor App2AppClient {
    /// Where and as whom the client talks.
    public let configuration: App2AppConfiguration
    private let attestation: any AppAttestProvider
    private let registrations: any AttestationRegistrationStore
    private let transport: any HTTPTransport
    private let capabilityChecker: any OnrampCapabilityChecker
    private let hostedFallback: (any HostedOnrampFallback)?
    private let sessionAttempts: Int

    /// Creates a client. `sessionAttempts` bounds the sends of one session request (first try included).
    public init(
        configuration: App2AppConfiguration, attestation: any AppAttestProvider,
        registrations: any AttestationRegistrationStore = FileAttestationRegistrationStore(),
        transport: any HTTPTransport = URLSessionTransport(),
        capabilityChecker: any OnrampCapabilityChecker = FixedCapabilityChecker(true),
        hostedFallback: (any HostedOnrampFallback)? = nil, sessionAttempts: Int = 3
    ) {
        self.configuration = configuration
        self.attestation = attestation
        self.registrations = registrations
        self.transport = transport
        self.capabilityChecker = capabilityChecker
        self.hostedFallback = hostedFallback
        self.sessionAttempts = max(1, sessionAttempts)
    }

    /// `SHA-256(base64url_decode(challenge))`: decode first, then hash (hashing the text fails verification).
    /// Standard base64 (the cdp-sdk form) is accepted too.
    public static func clientDataHash(challenge: String) throws(App2AppError) -> [UInt8] {
        guard let bytes = Base64URL.decode(challenge) ?? Base64.decode(challenge) else {
            throw App2AppError(.unexpectedResponse, developer: "The challenge is not base64url.")
        }
        return PortableSHA256.hash(bytes)
    }

    /// Decides what to open: checks the capability scheme, then creates a session (``createSession(_:)``) or,
    /// when the app can't take it or the device has no App Attest, asks the hosted fallback.
    public func launch(_ purchase: App2AppPurchase) async throws -> App2AppLaunch {
        let capable = await capabilityChecker.canOpen(configuration.capabilityURL)
        if capable, await attestation.isSupported {
            return .app2App(onrampURL: try await createSession(purchase).onrampURL)
        }
        guard let hostedFallback else {
            throw App2AppError(
                .attestationUnsupported, developer: "No App2App-capable app or App Attest, and no hosted fallback.")
        }
        return .hostedOnramp(try await hostedFallback.hostedOnrampURL(for: purchase))
    }

    /// Steps 1–4: registration (if none is stored), purchase challenge, assertion, session.
    public func createSession(_ purchase: App2AppPurchase) async throws -> App2AppSession {
        var reregistered = false
        while true {
            let registration = try await register()
            do {
                let challenge = try await purchaseChallenge(purchase)
                let hash = try Self.clientDataHash(challenge: challenge)
                let assertion = try await attestation.generateAssertion(registration.keyId, clientDataHash: hash)
                let url = try await postSession(challenge: challenge, keyId: registration.keyId, assertion: assertion)
                return App2AppSession(onrampURL: url, challenge: challenge, keyId: registration.keyId)
            } catch let error as App2AppError where error.code == .invalidKey && !reregistered {
                reregistered = true
                try await registrations.removeRegistration(forProject: configuration.projectId)
            }
        }
    }

    /// Step 1: returns the stored registration, or registers a new key and stores it.
    @discardableResult
    public func register() async throws -> AttestationRegistration {
        if let stored = try await registrations.registration(forProject: configuration.projectId) { return stored }
        guard await attestation.isSupported else {
            throw App2AppError(.attestationUnsupported, developer: "App Attest is not supported on this device.")
        }
        let base = "/v2/onramp/mobile/projects/\(configuration.projectId)/attestation"
        let challenge = try await send("POST", base + "/challenges", body: nil).decodeOrThrow(
            AttestationChallenge.self)
        let keyId = try await attestation.generateKey()
        let attestationObject = try await attestation.attestKey(
            keyId, clientDataHash: try Self.clientDataHash(challenge: challenge.challenge))
        let body = AttestationKeyRegistration(
            challenge: challenge.challenge,
            ios: .init(keyId: keyId, attestation: Base64.encode(attestationObject), bundleId: configuration.bundleId))
        let answer = try await send("POST", base + "/registrations", body: try JSONEncoder().encode(body))
        guard answer.isSuccess else {
            let failure = Self.failure(answer)
            // A refused attestation (its `errorReason` set) or request: the registration failed.
            throw App2AppError(
                [.invalidRequest, .invalidKey].contains(failure.code) ? .registrationFailed : failure.code,
                developer: failure.developerMessage)
        }
        let response = try answer.decodeOrThrow(RegisteredAttestationKey.self)
        let registration = AttestationRegistration(
            projectId: configuration.projectId, keyId: response.keyId, appId: response.appId,
            attestedAt: response.attestedAt)
        try await registrations.save(registration)
        return registration
    }

    private func purchaseChallenge(_ purchase: App2AppPurchase) async throws -> String {
        let body = App2AppWire.purchaseChallenge(projectId: configuration.projectId, purchase: purchase)
        let answer = try await send("POST", "/v2/onramp/mobile/challenges", body: try JSONEncoder().encode(body))
        return try answer.decodeOrThrow(AttestationChallenge.self).challenge
    }

    /// Sends the same session request until an answer arrives (at most ``sessionAttempts`` times).
    private func postSession(challenge: String, keyId: String, assertion: [UInt8]) async throws -> URL {
        let body = try JSONEncoder().encode(
            PurchaseAssertion(challenge: challenge, ios: .init(keyId: keyId, assertion: Base64.encode(assertion))))
        var lastError: URLError?
        for _ in 0..<sessionAttempts {
            do {
                let answer = try await transport.request(
                    "POST", configuration.url("/v2/onramp/mobile/sessions"), body: body,
                    contentType: "application/json")
                let session = try answer.decodeOrThrow(OnrampURLSession.self)
                guard let url = URL(string: session.session.onrampUrl) else {
                    throw App2AppError(.unexpectedResponse, developer: "onrampUrl is not a URL.")
                }
                return url
            } catch let error as URLError {
                lastError = error
            }
        }
        throw App2AppError(
            .network, developer: "Session creation failed \(sessionAttempts) times: \(lastError?.code.rawValue ?? 0).")
    }

    private func send(_ method: String, _ path: String, body: Data?) async throws -> HTTPAnswer {
        do {
            return try await transport.request(
                method, configuration.url(path), body: body, contentType: body == nil ? nil : "application/json")
        } catch let error as URLError {
            throw App2AppError(.network, developer: "\(method) \(path): URLError \(error.code.rawValue).")
        }
    }

    /// Maps an error answer (``CDPErrorBody``) to an ``App2AppError``: an App Attest failure is known by
    /// its `errorReason`, the verifier's code.
    static func failure(_ answer: HTTPAnswer) -> App2AppError {
        let body = try? answer.decode(CDPErrorBody.self)
        let message = "HTTP \(answer.status): \(body?.errorMessage ?? answer.text.prefix(200).description)"
        let code: App2AppError.Code
        switch (answer.status, body?.errorType) {
        case (_, "stale_attestation"), (422, _): code = .staleChallenge
        case (_, "forbidden"), (403, _): code = .forbidden
        case (_, "rate_limit_exceeded"), (429, _): code = .rateLimited
        case (400, _) where body?.errorReason != nil: code = .invalidKey
        case (400, _): code = .invalidRequest
        default: code = .unexpectedResponse
        }
        return App2AppError(code, developer: message)
    }
}

extension HTTPAnswer {
    fileprivate func decodeOrThrow<T: Decodable>(_ type: T.Type) throws -> T {
        guard isSuccess else { throw App2AppClient.failure(self) }
        do {
            return try decode(type)
        } catch {
            throw App2AppError(.unexpectedResponse, developer: "HTTP \(status): not a \(type): \(error).")
        }
    }
}
