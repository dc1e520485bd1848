import Foundation
import OnrampClient
import PartnerBackendKit
import Synchronization
import Testing

/// The Embedded Components flow through `CryptoOnrampCoordinator` and the partner backend against a real
/// server on a real port.
@Suite(.serialized) @MainActor struct EmbeddedCoordinatorTests {
    static let wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

    static func kyc(firstName: String = "Ada") -> KycInfo {
        KycInfo(
            firstName: firstName, lastName: "Verified", idNumber: "000000000",
            address: Address(
                line1: "address_full_match", city: "San Francisco", state: "CA", postalCode: "94103", country: "US"),
            dateOfBirth: .init(day: 1, month: 2, year: 1990))
    }

    /// Sign-up, LinkAuthIntent, consent, tokens, KYC until L1 is verified. Returns the customer id.
    static func signIn(
        _ coordinator: CryptoOnrampCoordinator, _ sandbox: SandboxServer, user: String, firstName: String = "Ada"
    ) async throws -> String {
        let email = "\(user)@example.com"
        let viewController = PresentingViewController()
        #expect(try await coordinator.hasLinkAccount(with: email) == false)
        try await coordinator.registerLinkUser(
            email: email, fullName: "Ada Verified", phone: "+14155550123", country: "US")
        #expect(try await coordinator.hasLinkAccount(with: email))
        let intent = try await sandbox.embeddedBackend.createAuthIntent(email: email)
        let result = try await coordinator.authorize(linkAuthIntentId: intent, from: viewController)
        guard case .consented(let customerId) = result else {
            Issue.record("expected consent, got \(result)")
            throw CryptoOnrampError(.notAuthenticated, developer: "no consent")
        }
        try await sandbox.embeddedBackend.retrieveTokens(linkAuthIntentId: intent, userRef: user)
        try await coordinator.attachKYCInfo(info: kyc(firstName: firstName))
        #expect(
            try await sandbox.embeddedBackend.waitForTier(customerId: customerId, userRef: user) == "verified")
        return customerId
    }

    @Test func purchaseEndToEndCreditsFromTheFulfilledWebhook() async throws {
        let gate = GatedSettlement()
        let sandbox = try await SandboxServer(settlement: gate)
        let coordinator = try await CryptoOnrampCoordinator.create(
            appearance: LinkAppearance(style: .alwaysDark), apiClient: sandbox.stripeClient)
        let viewController = PresentingViewController()
        let customerId = try await Self.signIn(coordinator, sandbox, user: "emb-1")
        #expect(customerId.hasPrefix("crc_"))
        #expect(await sandbox.embeddedBackend.tokens(for: "emb-1")?.linkAuthToken?.hasPrefix("lat_") == true)
        #expect(try await coordinator.verifyKYCInfo(from: viewController) == .confirmed)
        try await sandbox.embeddedBackend.refreshAccessToken(userRef: "emb-1")

        try await coordinator.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        let display = try #require(try await coordinator.collectPaymentMethod(type: .card, from: viewController))
        #expect(display.label == "Visa •••• 4242")
        let token = try await coordinator.createCryptoPaymentToken()
        #expect(token.hasPrefix("cpt_"))
        let session = try await sandbox.embeddedBackend.createOnrampSession(
            userRef: "emb-1", customerId: customerId, paymentToken: token, sourceAmount: "50.00", network: "base",
            walletAddress: Self.wallet)
        #expect(session.status == "requires_payment")

        // The provider calls the example backend's checkout endpoint over HTTP, as an app would.
        let calls = Mutex(0)
        let backendURL = sandbox.webhooks.baseURL
        let result = try await coordinator.performCheckout(
            onrampSessionId: session.id,
            authenticationContext: HeadlessAuthenticationContext(viewController: viewController)
        ) { id in
            calls.withLock { $0 += 1 }
            let answer = try await URLSessionTransport().json(
                "POST", URL(string: "\(backendURL)/onramp-sessions/\(id)/checkout")!, ["userRef": "emb-1"])
            let body = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return try #require(body?["clientSecret"] as? String)
        }
        #expect(result == .completed)
        #expect(calls.withLock { $0 } == 1)
        #expect(sandbox.ledger.credits.isEmpty)
        gate.open()

        #expect(await sandbox.eventually { !sandbox.ledger.credits(for: "emb-1").isEmpty })
        let credit = try #require(sandbox.ledger.credits(for: "emb-1").first)
        #expect(credit.currency == "usdc")
        #expect(credit.amount == session.destinationAmount)
        #expect(credit.txHash?.hasPrefix("0x") == true)
        #expect(credit.eventId.hasPrefix("evt_"))
        let ledger = try await URLSessionTransport().request("GET", URL(string: "\(backendURL)/ledger/emb-1")!)
        #expect(ledger.text.contains(credit.eventId))
    }

    @Test func threeDSecureCallsTheProviderAgain() async throws {
        let sandbox = try await SandboxServer()
        let coordinator = try await CryptoOnrampCoordinator.create(
            apiClient: sandbox.stripeClient,
            presenters: CryptoOnrampPresenters(
                consent: HeadlessConsentPresenter(), kycReview: HeadlessKYCReviewPresenter(),
                identity: HeadlessIdentityVerificationPresenter(), threeDSecure: HeadlessThreeDSecurePresenter(),
                paymentMethod: HeadlessPaymentMethodPresenter(
                    selection: .card(CardDetails(number: "4000000000003220", expMonth: 12, expYear: 2034, cvc: "123")))
            ))
        let viewController = PresentingViewController()
        let customerId = try await Self.signIn(coordinator, sandbox, user: "emb-2")
        try await coordinator.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        _ = try await coordinator.collectPaymentMethod(type: .card, from: viewController)
        let session = try await sandbox.embeddedBackend.createOnrampSession(
            userRef: "emb-2", customerId: customerId, paymentToken: try await coordinator.createCryptoPaymentToken(),
            sourceAmount: "20.00", network: "base", walletAddress: Self.wallet)
        let calls = Mutex(0)
        let backend = sandbox.embeddedBackend
        let result = try await coordinator.performCheckout(
            onrampSessionId: session.id,
            authenticationContext: HeadlessAuthenticationContext(viewController: viewController)
        ) { id in
            calls.withLock { $0 += 1 }
            return try await backend.checkout(sessionId: id, userRef: "emb-2")
        }
        #expect(result == .completed)
        #expect(calls.withLock { $0 } == 2)
        #expect(await sandbox.eventually { sandbox.ledger.credits(for: "emb-2").count == 1 })
    }

    /// The seed's iOS flow as the newest SDK runs it: the elements session under the mobile-session contract,
    /// Apple Pay as the simulator sends it (empty `pk_token`, the stub naming a 3-D Secure card), the challenge,
    /// the PaymentIntent `requires_capture` that lets the coordinator ask the backend for the second checkout,
    /// and the credit that only the verified `fulfillment_complete` webhook makes.
    @Test func simulatorApplePayWithThreeDSecureIsCreditedFromTheWebhook() async throws {
        let sandbox = try await SandboxServer()
        var presenters = CryptoOnrampPresenters.headless
        presenters.paymentMethod = HeadlessPaymentMethodPresenter(
            selection: .card(CardDetails(number: "4000000000003220", expMonth: 12, expYear: 2034, cvc: "123")))
        let coordinator = try await CryptoOnrampCoordinator.create(
            apiClient: sandbox.stripeClient, presenters: presenters)
        let viewController = PresentingViewController()
        let customerId = try await Self.signIn(coordinator, sandbox, user: "emb-9")
        try await coordinator.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        let request = ApplePayPaymentRequest(merchantIdentifier: "merchant.com.example", country: "US", currency: "USD")
        let display = try #require(
            try await coordinator.collectPaymentMethod(type: .applePay(paymentRequest: request), from: viewController))
        #expect(display.paymentMethodType == "apple_pay")
        let backend = sandbox.embeddedBackend
        let session = try await backend.createOnrampSession(
            userRef: "emb-9", customerId: customerId, paymentToken: try await coordinator.createCryptoPaymentToken(),
            sourceAmount: "20.00", network: "base", walletAddress: Self.wallet)
        let calls = Mutex(0)
        let result = try await coordinator.performCheckout(
            onrampSessionId: session.id,
            authenticationContext: HeadlessAuthenticationContext(viewController: viewController)
        ) { id in
            calls.withLock { $0 += 1 }
            return try await backend.checkout(sessionId: id, userRef: "emb-9")
        }
        #expect(result == .completed)
        #expect(calls.withLock { $0 } == 2, "the challenge, then the second checkout")
        #expect(await sandbox.eventually { sandbox.ledger.credits(for: "emb-9").count == 1 })
        let credit = try #require(sandbox.ledger.credits(for: "emb-9").first)
        #expect(credit.eventId.hasPrefix("evt_") && credit.amount == session.destinationAmount)
    }

    /// A bank account (the PaymentIntent stays `processing`, which completes a `us_bank_account` checkout) and
    /// an Apple Pay payment (token, then payment method) both check out and are credited from the webhook.
    @Test func bankAccountAndApplePayCheckOut() async throws {
        let sandbox = try await SandboxServer()
        var presenters = CryptoOnrampPresenters.headless
        presenters.paymentMethod = HeadlessPaymentMethodPresenter(
            selection: .bankAccount(routingNumber: "110000000", accountNumber: "000123456789"))
        let coordinator = try await CryptoOnrampCoordinator.create(
            apiClient: sandbox.stripeClient, presenters: presenters)
        let viewController = PresentingViewController()
        let context = HeadlessAuthenticationContext(viewController: viewController)
        let customerId = try await Self.signIn(coordinator, sandbox, user: "emb-7")
        try await coordinator.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        let bank = try #require(try await coordinator.collectPaymentMethod(type: .bankAccount, from: viewController))
        #expect(bank.paymentMethodType == "us_bank_account")
        let backend = sandbox.embeddedBackend
        let debit = try await backend.createOnrampSession(
            userRef: "emb-7", customerId: customerId, paymentToken: try await coordinator.createCryptoPaymentToken(),
            sourceAmount: "20.00", network: "base", walletAddress: Self.wallet)
        let debited = try await coordinator.performCheckout(onrampSessionId: debit.id, authenticationContext: context) {
            try await backend.checkout(sessionId: $0, userRef: "emb-7", mandateAcceptedFrom: "203.0.113.7")
        }
        #expect(debited == .completed)

        presenters.paymentMethod = HeadlessPaymentMethodPresenter()
        let applePay = try await CryptoOnrampCoordinator.create(apiClient: sandbox.stripeClient, presenters: presenters)
        _ = try await Self.signIn(applePay, sandbox, user: "emb-8")
        try await applePay.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        let request = ApplePayPaymentRequest(merchantIdentifier: "merchant.com.example", country: "US", currency: "USD")
        _ = try await applePay.collectPaymentMethod(type: .applePay(paymentRequest: request), from: viewController)
        let session = try await backend.createOnrampSession(
            userRef: "emb-8", customerId: try #require(applePay.customerId),
            paymentToken: try await applePay.createCryptoPaymentToken(), sourceAmount: "20.00", network: "base",
            walletAddress: Self.wallet)
        let paid = try await applePay.performCheckout(onrampSessionId: session.id, authenticationContext: context) {
            try await backend.checkout(sessionId: $0, userRef: "emb-8")
        }
        #expect(paid == .completed)
        #expect(await sandbox.eventually { sandbox.ledger.credits(for: "emb-7").count == 1 })
        #expect(await sandbox.eventually { sandbox.ledger.credits(for: "emb-8").count == 1 })
    }

    @Test func identityVerificationUnblocksSessionCreation() async throws {
        let sandbox = try await SandboxServer()
        let coordinator = try await CryptoOnrampCoordinator.create(apiClient: sandbox.stripeClient)
        let viewController = PresentingViewController()
        let customerId = try await Self.signIn(coordinator, sandbox, user: "emb-3", firstName: "Challenge")
        try await coordinator.registerWalletAddress(walletAddress: Self.wallet, network: .base)
        _ = try await coordinator.collectPaymentMethod(type: .card, from: viewController)
        let token = try await coordinator.createCryptoPaymentToken()
        await #expect(throws: PartnerBackendError.self) {
            try await sandbox.embeddedBackend.createOnrampSession(
                userRef: "emb-3", customerId: customerId, paymentToken: token, sourceAmount: "20.00", network: "base",
                walletAddress: Self.wallet)
        }
        #expect(try await coordinator.verifyIdentity(from: viewController) == .completed)
        let session = try await sandbox.embeddedBackend.createOnrampSession(
            userRef: "emb-3", customerId: customerId, paymentToken: token, sourceAmount: "20.00", network: "base",
            walletAddress: Self.wallet)
        #expect(session.status == "requires_payment")
    }

    @Test func seamlessSignInAndOnlyOneActiveCoordinator() async throws {
        let sandbox = try await SandboxServer()
        let first = try await CryptoOnrampCoordinator.create(apiClient: sandbox.stripeClient)
        let customerId = try await Self.signIn(first, sandbox, user: "emb-4")

        let second = try await CryptoOnrampCoordinator.create(apiClient: sandbox.stripeClient)
        do {
            _ = try await first.hasLinkAccount(with: "emb-4@example.com")
            Issue.record("the first coordinator should be inactive")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .coordinatorInactive)
        }
        let secret = try await sandbox.embeddedBackend.createLinkAuthTokenClientSecret(userRef: "emb-4")
        try await second.authenticateUserWithToken(secret)
        #expect(second.customerId == customerId)
        do {
            try await second.authenticateUserWithToken(secret)
            Issue.record("a used client secret must be refused")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .seamlessSignInTokenInvalid)
        }
        try await second.logOut()
        #expect(second.customerId == nil)
    }

    @Test func deniedConsentAndTypedSignUpErrors() async throws {
        let sandbox = try await SandboxServer()
        var presenters = CryptoOnrampPresenters.headless
        presenters.consent = HeadlessConsentPresenter(behaviour: .deny)
        let coordinator = try await CryptoOnrampCoordinator.create(
            apiClient: sandbox.stripeClient, presenters: presenters)
        do {
            try await coordinator.registerLinkUser(email: "bad@example.com", fullName: nil, phone: "555", country: "US")
            Issue.record("expected invalid_phone_format")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .invalidPhoneFormat)
            #expect(error.userMessage != error.developerMessage)
        }
        try await coordinator.registerLinkUser(
            email: "deny@example.com", fullName: "Bo", phone: "+14155550124", country: "US")
        do {
            try await coordinator.registerLinkUser(
                email: "deny@example.com", fullName: "Bo", phone: "+14155550124", country: "US")
            Issue.record("expected link_account_already_exists")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .linkAccountAlreadyExists)
        }
        let intent = try await sandbox.embeddedBackend.createAuthIntent(email: "deny@example.com")
        #expect(try await coordinator.authorize(linkAuthIntentId: intent, from: PresentingViewController()) == .denied)
        // The denial reached the server (`consent_update`): the backend gets no tokens.
        await #expect(throws: PartnerBackendError.self) {
            try await sandbox.embeddedBackend.retrieveTokens(linkAuthIntentId: intent, userRef: "deny")
        }
        try await coordinator.logOut()
        do {
            _ = try await coordinator.createCryptoPaymentToken()
            Issue.record("expected missing_crypto_customer_id")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .missingCryptoCustomerId)
        }
    }

    @Test func missingPublishableKeyIsNotConfigured() async throws {
        do {
            _ = try await CryptoOnrampCoordinator.create(apiClient: STPAPIClient())
            Issue.record("expected not_configured")
        } catch let error as CryptoOnrampError {
            #expect(error.code == .notConfigured)
        }
    }

    @Test func addressUpdateIsConfirmedAndApplePayIsCollectedAsAWalletCard() async throws {
        let sandbox = try await SandboxServer()
        let review = RecordingKYCReview(answers: [.updateAddress, .confirmed, .confirmed])
        var presenters = CryptoOnrampPresenters.headless
        presenters.kycReview = review
        let coordinator = try await CryptoOnrampCoordinator.create(
            apiClient: sandbox.stripeClient, presenters: presenters)
        let viewController = PresentingViewController()
        _ = try await Self.signIn(coordinator, sandbox, user: "emb-6")
        #expect(try await coordinator.verifyKYCInfo(from: viewController) == .updateAddress)
        let moved = Address(
            line1: "address_full_match", line2: "Apt 4", city: "Oakland", state: "CA", postalCode: "94607",
            country: "US")
        #expect(try await coordinator.verifyKYCInfo(updatedAddress: moved, from: viewController) == .confirmed)
        #expect(try await coordinator.verifyKYCInfo(from: viewController) == .confirmed)
        #expect(review.shown.first?.address?.city == "San Francisco")
        #expect(review.shown.first?.idNumberLast4 == "0000")
        #expect(review.shown.last?.address == moved)

        let request = ApplePayPaymentRequest(merchantIdentifier: "merchant.com.example", country: "US", currency: "USD")
        let display = try #require(
            try await coordinator.collectPaymentMethod(type: .applePay(paymentRequest: request), from: viewController))
        #expect(display.paymentMethodType == "apple_pay")
        #expect(try await coordinator.createCryptoPaymentToken().hasPrefix("cpt_"))
    }
}

/// A KYC review presenter that answers from a script and records what it was shown.
@MainActor final class RecordingKYCReview: KYCReviewPresenter {
    private var answers: [VerifyKycResult]
    private(set) var shown: [RetrievedKycInfo] = []

    init(answers: [VerifyKycResult]) {
        self.answers = answers
    }

    func review(_ info: RetrievedKycInfo, from viewController: PresentingViewController) async -> VerifyKycResult {
        shown.append(info)
        return answers.isEmpty ? .canceled : answers.removeFirst()
    }
}
