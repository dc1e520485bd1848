import HTTPServer
import OnrampServices

/// Every route of the Stripe-style contract (Embedded Components and Link: `/v1/…`, `/auth/token`), one
/// line each: method, path, who may call it (`server`: the secret key; `client`: the publishable key or
/// the secret key; `router.add`: the route authenticates itself, as its comment says), the operation the
/// OpenAPI description shows, and the handler that decodes the input and calls the service.
/// ``StripeRoutes`` is the edge around the `server` and `client` lines: keys, limits, idempotency,
/// unknown parameters, the test clock.
struct StripeRouteTable: Sendable {
    let context: ServerContext
    let sessions: OnrampSessionService
    let webhooks: WebhookSubscriptionService

    func register(on router: inout Router) {
        router.setErrorRenderer(StripeErrorRenderer(), forPathPrefix: "/v1/")
        router.setErrorRenderer(OAuthErrorRenderer(), forPathPrefix: "/auth/")
        let stripe = StripeRoutes(context: context)

        // Log in with Link, from the partner's backend; `/auth/token` takes the secret key and OAuth's error shape.
        let link = LinkRoutes(routes: stripe)
        stripe.server(
            &router, "POST", "/v1/link_auth_intent", LinkRoutes.Operations.createLinkAuthIntent,
            link.createLinkAuthIntent)
        stripe.server(
            &router, "POST", "/v1/link_auth_intent/{id}/tokens", LinkRoutes.Operations.createLinkAuthIntentTokens,
            link.createLinkAuthIntentTokens)
        stripe.server(
            &router, "POST", "/v1/link_auth_tokens/client_secret",
            LinkRoutes.Operations.createLinkAuthTokenClientSecret, link.createLinkAuthTokenClientSecret)
        router.add("POST", "/auth/token", LinkRoutes.Operations.refreshLinkOAuthToken, link.refreshLinkOAuthToken)

        // Link consumers, from the client SDK.
        let consumers = ConsumerRoutes(routes: stripe)
        stripe.client(
            &router, "POST", "/v1/consumers/mobile/sessions/lookup",
            ConsumerRoutes.Operations.lookupMobileConsumerSession, consumers.lookupMobileConsumerSession)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/lookup", ConsumerRoutes.Operations.lookupConsumerSession,
            consumers.lookupConsumerSession)
        stripe.client(
            &router, "POST", "/v1/consumers/mobile/sign_up", ConsumerRoutes.Operations.signUpMobileConsumer,
            consumers.signUpMobileConsumer)
        stripe.client(
            &router, "POST", "/v1/consumers/accounts/sign_up", ConsumerRoutes.Operations.signUpConsumerAccount,
            consumers.signUpConsumerAccount)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/start_verification",
            ConsumerRoutes.Operations.startConsumerVerification, consumers.startConsumerVerification)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/confirm_verification",
            ConsumerRoutes.Operations.confirmConsumerVerification, consumers.confirmConsumerVerification)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/consent_update", ConsumerRoutes.Operations.updateConsumerConsent,
            consumers.updateConsumerConsent)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/refresh", ConsumerRoutes.Operations.refreshConsumerSession,
            consumers.refreshConsumerSession)
        stripe.client(
            &router, "POST", "/v1/consumers/accounts/update_phone", ConsumerRoutes.Operations.updateConsumerPhone,
            consumers.updateConsumerPhone)
        stripe.client(
            &router, "POST", "/v1/consumers/sessions/log_out", ConsumerRoutes.Operations.logOutConsumerSession,
            consumers.logOutConsumerSession)
        let paymentDetails = PaymentDetailsRoutes(routes: stripe)
        stripe.client(
            &router, "POST", "/v1/consumers/payment_details/list", PaymentDetailsRoutes.Operations.listPaymentDetails,
            paymentDetails.listPaymentDetails)
        stripe.client(
            &router, "POST", "/v1/consumers/payment_details", PaymentDetailsRoutes.Operations.createPaymentDetails,
            paymentDetails.createPaymentDetails)
        stripe.client(
            &router, "POST", "/v1/consumers/payment_details/share", PaymentDetailsRoutes.Operations.sharePaymentDetails,
            paymentDetails.sharePaymentDetails)
        stripe.client(
            &router, "POST", "/v1/consumers/payment_details/{id}", PaymentDetailsRoutes.Operations.updatePaymentDetails,
            paymentDetails.updatePaymentDetails)
        stripe.client(
            &router, "DELETE", "/v1/consumers/payment_details/{id}",
            PaymentDetailsRoutes.Operations.deletePaymentDetails, paymentDetails.deletePaymentDetails)

        // The client SDK's App Attest key, for the mobile consumer paths.
        let attestation = StripeAttestation(context: context)
        stripe.client(
            &router, "POST", "/v1/mobile_sdk_attestation/ios_challenge",
            StripeAttestation.Operations.createAttestChallenge, attestation.createAttestChallenge)
        stripe.client(
            &router, "POST", "/v1/mobile_sdk_attestation/ios_attest", StripeAttestation.Operations.attestDeviceKey,
            attestation.attestDeviceKey)

        // The client SDK's crypto customer: KYC, identity, wallets, payment tokens, declarations.
        let cryptoInternal = CryptoInternalRoutes(routes: stripe)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/customers", CryptoInternalRoutes.Operations.createCryptoCustomer,
            cryptoInternal.createCryptoCustomer)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/kyc_data_collection", CryptoInternalRoutes.Operations.collectKycData,
            cryptoInternal.collectKycData)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/kyc_data_retrieve", CryptoInternalRoutes.Operations.retrieveKycData,
            cryptoInternal.retrieveKycData)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/kyc_data_retrieve",
            CryptoInternalRoutes.Operations.retrieveKycDataByQuery, cryptoInternal.retrieveKycData)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/platform_settings",
            CryptoInternalRoutes.Operations.retrievePlatformSettings, cryptoInternal.retrievePlatformSettings)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/refresh_consumer_person",
            CryptoInternalRoutes.Operations.refreshConsumerPerson, cryptoInternal.refreshConsumerPerson)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/start_identity_verification",
            CryptoInternalRoutes.Operations.startIdentityVerification, cryptoInternal.startIdentityVerification)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/wallet", CryptoInternalRoutes.Operations.registerConsumerWallet,
            cryptoInternal.registerConsumerWallet)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/payment_token",
            CryptoInternalRoutes.Operations.createCryptoPaymentToken, cryptoInternal.createCryptoPaymentToken)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/onramp_session",
            CryptoInternalRoutes.Operations.retrieveOnrampSessionByClientSecret,
            cryptoInternal.retrieveOnrampSessionByClientSecret)
        let walletOwnership = WalletOwnershipRoutes(routes: stripe)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/wallet_ownership_challenge",
            WalletOwnershipRoutes.Operations.createWalletOwnershipChallenge,
            walletOwnership.createWalletOwnershipChallenge)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/wallet_ownership_verification",
            WalletOwnershipRoutes.Operations.verifyWalletOwnership, walletOwnership.verifyWalletOwnership)
        stripe.client(
            &router, "DELETE", "/v1/crypto/internal/wallet", WalletOwnershipRoutes.Operations.deleteConsumerWallet,
            walletOwnership.deleteConsumerWallet)
        let declarations = DeclarationRoutes(routes: stripe)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/crs_carf_declaration",
            DeclarationRoutes.Operations.retrieveCRSCARFDeclaration, declarations.retrieveCRSCARFDeclaration)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/crs_carf_declaration",
            DeclarationRoutes.Operations.confirmCRSCARFDeclaration, declarations.confirmCRSCARFDeclaration)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/partner_terms", DeclarationRoutes.Operations.retrievePartnerTerms,
            declarations.retrievePartnerTerms)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/partner_terms", DeclarationRoutes.Operations.confirmPartnerTerms,
            declarations.confirmPartnerTerms)

        // Deposit addresses (private preview).
        let depositAddresses = DepositAddressRoutes(routes: stripe)
        stripe.server(
            &router, "POST", "/v1/crypto/deposit_addresses", DepositAddressRoutes.Operations.createDepositAddress,
            depositAddresses.createDepositAddress)
        stripe.server(
            &router, "GET", "/v1/crypto/deposit_addresses", DepositAddressRoutes.Operations.listDepositAddresses,
            depositAddresses.listDepositAddresses)
        stripe.server(
            &router, "GET", "/v1/crypto/deposit_addresses/{id}", DepositAddressRoutes.Operations.retrieveDepositAddress,
            depositAddresses.retrieveDepositAddress)
        stripe.server(
            &router, "POST", "/v1/test_helpers/crypto/deposit_addresses/{id}/deposit",
            DepositAddressRoutes.Operations.simulateDeposit, depositAddresses.simulateDeposit)

        // The 2026 KYC and compliance calls (the link session key, `lsk_…`, on fulfil_kyc_requirements).
        let compliance = KYCComplianceRoutes(routes: stripe)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/kyc_requirements",
            KYCComplianceRoutes.Operations.retrieveKycRequirements,
            compliance.retrieveKycRequirements)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/fulfill_additional_kyc_requirement",
            KYCComplianceRoutes.Operations.fulfillAdditionalKycRequirement, compliance.fulfillAdditionalKycRequirement)
        stripe.linkSession(
            &router, "POST", "/v1/crypto/internal/fulfill_kyc_requirements",
            KYCComplianceRoutes.Operations.fulfillKycRequirements, compliance.fulfillKycRequirements)
        stripe.client(
            &router, "GET", "/v1/crypto/internal/identifier_requirements",
            KYCComplianceRoutes.Operations.retrieveIdentifierRequirements, compliance.retrieveIdentifierRequirements)
        stripe.client(
            &router, "POST", "/v1/crypto/internal/eu_identifiers", KYCComplianceRoutes.Operations.submitEUIdentifiers,
            compliance.submitEUIdentifiers)

        // Identity verification pages: the verification's ephemeral key (`ek_…`) authenticates them.
        let verificationPages = VerificationPageRoutes(context: context)
        router.add(
            "GET", "/v1/identity/verification_pages/{id}", VerificationPageRoutes.Operations.retrieveVerificationPage,
            verificationPages.retrieveVerificationPage)
        router.add(
            "POST", "/v1/identity/verification_pages/{id}/data",
            VerificationPageRoutes.Operations.updateVerificationPageData, verificationPages.updateVerificationPageData)
        router.add(
            "POST", "/v1/identity/verification_pages/{id}/submit",
            VerificationPageRoutes.Operations.submitVerificationPage, verificationPages.submitVerificationPage)
        router.add(
            "POST", "/v1/identity/verification_pages/{id}/testing/verify",
            VerificationPageRoutes.Operations.verifyTestVerificationPage, verificationPages.verifyTestVerificationPage)
        router.add(
            "POST", "/v1/identity/verification_pages/{id}/testing/unverify",
            VerificationPageRoutes.Operations.unverifyTestVerificationPage,
            verificationPages.unverifyTestVerificationPage)
        router.add(
            "POST", "/v1/files", VerificationPageRoutes.Operations.uploadIdentityFile,
            verificationPages.uploadIdentityFile)

        // Payments, from the client SDK.
        let elementsSessions = ElementsSessionRoutes(routes: stripe)
        stripe.client(
            &router, "GET", "/v1/elements/sessions", ElementsSessionRoutes.Operations.retrieveElementsSession,
            responding: elementsSessions.retrieveElementsSession)
        let paymentMethods = PaymentMethodRoutes(routes: stripe)
        stripe.client(
            &router, "POST", "/v1/payment_methods", PaymentMethodRoutes.Operations.createPaymentMethod,
            paymentMethods.createPaymentMethod)
        let cardTokens = CardTokenRoutes(routes: stripe)
        stripe.client(&router, "POST", "/v1/tokens", CardTokenRoutes.Operations.createToken, cardTokens.createToken)
        let paymentIntents = PaymentIntentRoutes(
            routes: stripe, sessions: sessions, deposits: depositAddresses.service)
        stripe.client(
            &router, "GET", "/v1/payment_intents/{id}", PaymentIntentRoutes.Operations.retrievePaymentIntent,
            paymentIntents.retrievePaymentIntent)

        // The partner's backend: customers and onramp sessions (with a `Stripe-OAuth-Token` grant), quotes, limits.
        let cryptoCustomers = CryptoCustomerRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, "GET", "/v1/crypto/customers/{id}", CryptoCustomerRoutes.Operations.retrieveCryptoCustomer,
            cryptoCustomers.retrieveCryptoCustomer)
        stripe.server(
            &router, "GET", "/v1/crypto/customers/{id}/crypto_consumer_wallets",
            CryptoCustomerRoutes.Operations.listCryptoConsumerWallets, cryptoCustomers.listCryptoConsumerWallets)
        stripe.server(
            &router, "GET", "/v1/crypto/customers/{id}/payment_tokens",
            CryptoCustomerRoutes.Operations.listCryptoPaymentTokens, cryptoCustomers.listCryptoPaymentTokens)
        let onrampSessions = OnrampSessionRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, "POST", "/v1/crypto/onramp_sessions", OnrampSessionRoutes.Operations.createOnrampSession,
            onrampSessions.createOnrampSession)
        stripe.server(
            &router, "GET", "/v1/crypto/onramp_sessions/{id}", OnrampSessionRoutes.Operations.retrieveOnrampSession,
            onrampSessions.retrieveOnrampSession)
        stripe.server(
            &router, "GET", "/v1/crypto/onramp_sessions", OnrampSessionRoutes.Operations.listOnrampSessions,
            onrampSessions.listOnrampSessions)
        stripe.server(
            &router, "POST", "/v1/crypto/onramp_sessions/{id}/quote",
            OnrampSessionRoutes.Operations.refreshOnrampSessionQuote, onrampSessions.refreshOnrampSessionQuote)
        stripe.server(
            &router, "POST", "/v1/crypto/onramp_sessions/{id}/checkout",
            OnrampSessionRoutes.Operations.checkoutOnrampSession, onrampSessions.checkoutOnrampSession)
        let onrampQuotes = OnrampQuoteRoutes(routes: stripe, sessions: sessions)
        stripe.server(
            &router, "GET", "/v1/crypto/onramp/quotes", OnrampQuoteRoutes.Operations.listOnrampQuotes,
            onrampQuotes.listOnrampQuotes)
        stripe.server(
            &router, "GET", "/v1/crypto/onramp_transaction_limits",
            OnrampQuoteRoutes.Operations.retrieveOnrampTransactionLimits, onrampQuotes.retrieveOnrampTransactionLimits)

        // Events and webhook endpoints: the secret key, checked by each route (no idempotency, JSON kept as stored).
        let events = EventRoutes(context: context)
        router.add("GET", "/v1/events", EventRoutes.Operations.listEvents, events.listEvents)
        router.add("GET", "/v1/events/{id}", EventRoutes.Operations.getEvent, events.getEvent)
        let webhookEndpoints = WebhookEndpointRoutes(database: context.database, service: webhooks)
        router.add(
            "POST", "/v1/webhook_endpoints", WebhookEndpointRoutes.Operations.createEndpoint,
            webhookEndpoints.createEndpoint)
        router.add(
            "GET", "/v1/webhook_endpoints", WebhookEndpointRoutes.Operations.listEndpoints,
            webhookEndpoints.listEndpoints)
        router.add(
            "GET", "/v1/webhook_endpoints/{id}", WebhookEndpointRoutes.Operations.getEndpoint,
            webhookEndpoints.getEndpoint)
        router.add(
            "POST", "/v1/webhook_endpoints/{id}", WebhookEndpointRoutes.Operations.updateEndpoint,
            webhookEndpoints.updateEndpoint)
        router.add(
            "DELETE", "/v1/webhook_endpoints/{id}", WebhookEndpointRoutes.Operations.deleteEndpoint,
            webhookEndpoints.deleteEndpoint)

        // Test clocks (test mode only).
        let testClocks = TestClockRoutes(context: context)
        stripe.server(
            &router, "POST", "/v1/test_helpers/test_clocks/advance", TestClockRoutes.Operations.advanceStripe,
            testClocks.advanceStripe)
    }
}
