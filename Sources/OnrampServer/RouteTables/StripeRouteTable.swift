import HTTPServer
import OnrampServices

/// Every route of the Stripe-style contract (Embedded Components and Link: `/v1/…`, `/auth/token`), one
/// line each: who may call it (`server`: the secret key; `client`: the publishable key or the secret key;
/// `router.add`: the route authenticates itself, as its comment says), the operation (its method, path
/// and what the OpenAPI description shows, in `XRoutes+Operations.swift`), and the handler that decodes
/// the input and calls the service.
/// ``StripeRoutes`` is the edge around the `server` and `client` lines: keys, limits, idempotency,
/// unknown parameters, the test clock.
struct StripeRouteTable: Sendable {
    let context: ServerContext
    let sessions: OnrampSessionService
    let webhooks: WebhookSubscriptionService

    func register(on router: inout Router) {
        router.setErrorRenderer(StripeErrorRenderer(publicBaseURL: context.publicBaseURL), forPathPrefix: "/v1/")
        router.setErrorRenderer(OAuthErrorRenderer(), forPathPrefix: "/auth/")
        let stripe = StripeRoutes(context: context)

        // Log in with Link, from the partner's backend; `/auth/token` takes the secret key and OAuth's error shape.
        let link = LinkRoutes(routes: stripe)
        stripe.server(
            &router, LinkRoutes.Operations.createLinkAuthIntent,
            link.createLinkAuthIntent)
        stripe.server(
            &router, LinkRoutes.Operations.createLinkAuthIntentTokens,
            link.createLinkAuthIntentTokens)
        stripe.server(
            &router, LinkRoutes.Operations.createLinkAuthTokenClientSecret, link.createLinkAuthTokenClientSecret)
        router.add(LinkRoutes.Operations.refreshLinkOAuthToken, link.refreshLinkOAuthToken)

        // Link consumers, from the client SDK.
        let consumers = ConsumerRoutes(routes: stripe)
        stripe.client(
            &router, ConsumerRoutes.Operations.lookupMobileConsumerSession, consumers.lookupMobileConsumerSession)
        stripe.client(
            &router, ConsumerRoutes.Operations.lookupConsumerSession,
            consumers.lookupConsumerSession)
        stripe.client(
            &router, ConsumerRoutes.Operations.signUpMobileConsumer,
            consumers.signUpMobileConsumer)
        stripe.client(
            &router, ConsumerRoutes.Operations.signUpConsumerAccount,
            consumers.signUpConsumerAccount)
        stripe.client(
            &router, ConsumerRoutes.Operations.startConsumerVerification, consumers.startConsumerVerification)
        stripe.client(
            &router, ConsumerRoutes.Operations.confirmConsumerVerification, consumers.confirmConsumerVerification)
        stripe.client(
            &router, ConsumerRoutes.Operations.updateConsumerConsent,
            consumers.updateConsumerConsent)
        stripe.client(
            &router, ConsumerRoutes.Operations.refreshConsumerSession,
            consumers.refreshConsumerSession)
        stripe.client(
            &router, ConsumerRoutes.Operations.updateConsumerPhone,
            consumers.updateConsumerPhone)
        stripe.client(
            &router, ConsumerRoutes.Operations.logOutConsumerSession,
            consumers.logOutConsumerSession)
        let paymentDetails = PaymentDetailsRoutes(routes: stripe)
        stripe.client(
            &router, PaymentDetailsRoutes.Operations.listPaymentDetails,
            paymentDetails.listPaymentDetails)
        stripe.client(
            &router, PaymentDetailsRoutes.Operations.createPaymentDetails,
            paymentDetails.createPaymentDetails)
        stripe.client(
            &router, PaymentDetailsRoutes.Operations.sharePaymentDetails,
            paymentDetails.sharePaymentDetails)
        stripe.client(
            &router, PaymentDetailsRoutes.Operations.updatePaymentDetails,
            paymentDetails.updatePaymentDetails)
        stripe.client(
            &router, PaymentDetailsRoutes.Operations.deletePaymentDetails, paymentDetails.deletePaymentDetails)

        // The client SDK's App Attest key, for the mobile consumer paths.
        let attestation = StripeAttestation(context: context)
        stripe.client(
            &router, StripeAttestation.Operations.createAttestChallenge, attestation.createAttestChallenge)
        stripe.client(
            &router, StripeAttestation.Operations.attestDeviceKey,
            attestation.attestDeviceKey)

        // The client SDK's crypto customer: KYC, identity, wallets, payment tokens, declarations.
        let cryptoInternal = CryptoInternalRoutes(routes: stripe)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.createCryptoCustomer,
            cryptoInternal.createCryptoCustomer)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.collectKycData,
            cryptoInternal.collectKycData)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.retrieveKycData,
            cryptoInternal.retrieveKycData)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.retrieveKycDataByQuery, cryptoInternal.retrieveKycData)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.retrievePlatformSettings, cryptoInternal.retrievePlatformSettings)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.refreshConsumerPerson, cryptoInternal.refreshConsumerPerson)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.startIdentityVerification, cryptoInternal.startIdentityVerification
        )
        stripe.client(
            &router, CryptoInternalRoutes.Operations.registerConsumerWallet,
            cryptoInternal.registerConsumerWallet)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.createCryptoPaymentToken, cryptoInternal.createCryptoPaymentToken)
        stripe.client(
            &router, CryptoInternalRoutes.Operations.retrieveOnrampSessionByClientSecret,
            cryptoInternal.retrieveOnrampSessionByClientSecret)
        let walletOwnership = WalletOwnershipRoutes(routes: stripe)
        stripe.client(
            &router, WalletOwnershipRoutes.Operations.createWalletOwnershipChallenge,
            walletOwnership.createWalletOwnershipChallenge)
        stripe.client(
            &router, WalletOwnershipRoutes.Operations.verifyWalletOwnership, walletOwnership.verifyWalletOwnership)
        stripe.client(
            &router, WalletOwnershipRoutes.Operations.deleteConsumerWallet,
            walletOwnership.deleteConsumerWallet)
        let declarations = DeclarationRoutes(routes: stripe)
        stripe.client(
            &router, DeclarationRoutes.Operations.retrieveCRSCARFDeclaration, declarations.retrieveCRSCARFDeclaration)
        stripe.client(
            &router, DeclarationRoutes.Operations.confirmCRSCARFDeclaration, declarations.confirmCRSCARFDeclaration)
        stripe.client(
            &router, DeclarationRoutes.Operations.retrievePartnerTerms,
            declarations.retrievePartnerTerms)
        stripe.client(
            &router, DeclarationRoutes.Operations.confirmPartnerTerms,
            declarations.confirmPartnerTerms)

        // Deposit addresses (private preview).
        let depositAddresses = DepositAddressRoutes(routes: stripe)
        stripe.server(
            &router, DepositAddressRoutes.Operations.createDepositAddress,
            depositAddresses.createDepositAddress)
        stripe.server(
            &router, DepositAddressRoutes.Operations.listDepositAddresses,
            depositAddresses.listDepositAddresses)
        stripe.server(
            &router, DepositAddressRoutes.Operations.retrieveDepositAddress,
            depositAddresses.retrieveDepositAddress)
        stripe.server(
            &router, DepositAddressRoutes.Operations.simulateDeposit, depositAddresses.simulateDeposit)

        // The 2026 KYC and compliance calls (the link session key, `lsk_…`, on fulfil_kyc_requirements).
        let compliance = KYCComplianceRoutes(routes: stripe)
        stripe.client(
            &router, KYCComplianceRoutes.Operations.retrieveKycRequirements,
            compliance.retrieveKycRequirements)
        stripe.client(
            &router, KYCComplianceRoutes.Operations.fulfillAdditionalKycRequirement,
            compliance.fulfillAdditionalKycRequirement)
        stripe.linkSession(
            &router, KYCComplianceRoutes.Operations.fulfillKycRequirements, compliance.fulfillKycRequirements)
        stripe.client(
            &router, KYCComplianceRoutes.Operations.retrieveIdentifierRequirements,
            compliance.retrieveIdentifierRequirements)
        stripe.client(
            &router, KYCComplianceRoutes.Operations.submitEUIdentifiers,
            compliance.submitEUIdentifiers)

        // Identity verification pages: the verification's ephemeral key (`ek_…`) authenticates them.
        let verificationPages = VerificationPageRoutes(context: context)
        router.add(
            VerificationPageRoutes.Operations.retrieveVerificationPage,
            verificationPages.retrieveVerificationPage)
        router.add(
            VerificationPageRoutes.Operations.updateVerificationPageData, verificationPages.updateVerificationPageData)
        router.add(
            VerificationPageRoutes.Operations.submitVerificationPage, verificationPages.submitVerificationPage)
        router.add(
            VerificationPageRoutes.Operations.verifyTestVerificationPage, verificationPages.verifyTestVerificationPage)
        router.add(
            VerificationPageRoutes.Operations.unverifyTestVerificationPage,
            verificationPages.unverifyTestVerificationPage)
        router.add(
            VerificationPageRoutes.Operations.uploadIdentityFile,
            verificationPages.uploadIdentityFile)

        // Payments, from the client SDK.
        let elementsSessions = ElementsSessionRoutes(routes: stripe)
        stripe.client(
            &router, ElementsSessionRoutes.Operations.retrieveElementsSession,
            responding: elementsSessions.retrieveElementsSession)
        let paymentMethods = PaymentMethodRoutes(routes: stripe)
        stripe.client(
            &router, PaymentMethodRoutes.Operations.createPaymentMethod,
            paymentMethods.createPaymentMethod)
        let cardTokens = CardTokenRoutes(routes: stripe)
        stripe.client(&router, CardTokenRoutes.Operations.createToken, cardTokens.createToken)
        let paymentIntents = PaymentIntentRoutes(
            routes: stripe, sessions: sessions, deposits: depositAddresses.service)
        stripe.client(
            &router, PaymentIntentRoutes.Operations.retrievePaymentIntent,
            paymentIntents.retrievePaymentIntent)

        // The partner's backend: customers and onramp sessions (with a `Stripe-OAuth-Token` grant), quotes, limits.
        let cryptoCustomers = CryptoCustomerRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, CryptoCustomerRoutes.Operations.retrieveCryptoCustomer,
            cryptoCustomers.retrieveCryptoCustomer)
        stripe.server(
            &router, CryptoCustomerRoutes.Operations.listCryptoConsumerWallets,
            cryptoCustomers.listCryptoConsumerWallets)
        stripe.server(
            &router, CryptoCustomerRoutes.Operations.listCryptoPaymentTokens, cryptoCustomers.listCryptoPaymentTokens)
        let onrampSessions = OnrampSessionRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, OnrampSessionRoutes.Operations.createOnrampSession,
            onrampSessions.createOnrampSession)
        stripe.server(
            &router, OnrampSessionRoutes.Operations.retrieveOnrampSession,
            onrampSessions.retrieveOnrampSession)
        stripe.server(
            &router, OnrampSessionRoutes.Operations.listOnrampSessions,
            onrampSessions.listOnrampSessions)
        stripe.server(
            &router, OnrampSessionRoutes.Operations.refreshOnrampSessionQuote, onrampSessions.refreshOnrampSessionQuote)
        stripe.server(
            &router, OnrampSessionRoutes.Operations.checkoutOnrampSession, onrampSessions.checkoutOnrampSession)
        let onrampQuotes = OnrampQuoteRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, OnrampQuoteRoutes.Operations.listOnrampQuotes,
            onrampQuotes.listOnrampQuotes)
        stripe.server(
            &router, OnrampQuoteRoutes.Operations.retrieveOnrampTransactionLimits,
            onrampQuotes.retrieveOnrampTransactionLimits)

        // Events and webhook endpoints: the secret key, checked by each route (no idempotency, JSON kept as stored).
        let events = EventRoutes(context: context)
        router.add(EventRoutes.Operations.listEvents, events.listEvents)
        router.add(EventRoutes.Operations.getEvent, events.getEvent)
        let webhookEndpoints = WebhookEndpointRoutes(context: context, service: webhooks)
        router.add(
            WebhookEndpointRoutes.Operations.createEndpoint,
            webhookEndpoints.createEndpoint)
        router.add(
            WebhookEndpointRoutes.Operations.listEndpoints,
            webhookEndpoints.listEndpoints)
        router.add(
            WebhookEndpointRoutes.Operations.getEndpoint,
            webhookEndpoints.getEndpoint)
        router.add(
            WebhookEndpointRoutes.Operations.updateEndpoint,
            webhookEndpoints.updateEndpoint)
        router.add(
            WebhookEndpointRoutes.Operations.deleteEndpoint,
            webhookEndpoints.deleteEndpoint)

        // Test clocks (test mode only).
        let testClocks = TestClockRoutes(context: context)
        stripe.server(
            &router, TestClockRoutes.Operations.advanceStripe,
            testClocks.advanceStripe)
    }
}
