import Foundation
import OnrampWire
import Testing

/// A wire object is written by its encoding (``JSONValueEncoder``) or, for the two that add constant and
/// derived members (`RegisteredAttestationKey`, `CryptoOnrampSession`), by hand, and read by the compiler's
/// `Decodable` (what the SDKs and tests read): each object the server writes must decode back to itself, with
/// every optional member present and absent, or a member renamed on one side only would reach a client as a
/// missing field.
@Suite struct WireObjectTests {
    private static func decoded<Object: WireObject & Decodable>(_ object: Object) throws -> Object {
        try JSONDecoder().decode(Object.self, from: Data(object.json.serialized))
    }

    private static let quote = OnrampQuote(
        paymentTotal: "25.00", paymentSubtotal: "24.36", paymentCurrency: "USD", purchaseAmount: "24.36",
        purchaseCurrency: "USDC", destinationNetwork: "base",
        fees: [
            .init(type: .exchange, amount: "0.63", currency: "USD"),
            .init(type: .network, amount: "0.01", currency: "USD"),
        ],
        exchangeRate: "1.000000")

    @Test func app2AppObjectsDecodeToThemselves() throws {
        let challenge = AttestationChallenge(challenge: "q83vEjRWeJCrze8SNFZ4kA", expiresAt: "2026-12-02T10:00:00Z")
        #expect(try Self.decoded(challenge) == challenge)
        let key = RegisteredAttestationKey(
            keyId: "a2V5", appId: "ABCDE12345.com.example.wallet", attestedAt: "2026-12-02T10:00:00Z")
        #expect(try Self.decoded(key) == key)
        #expect(try Self.decoded(Self.quote) == Self.quote)
        for session in [
            OnrampURLSession(onrampUrl: "https://pay.example/onramp?sessionToken=t", quote: Self.quote),
            OnrampURLSession(onrampUrl: "https://pay.example/onramp?sessionToken=t", quote: nil),
        ] {
            #expect(try Self.decoded(session) == session)
        }
    }

    @Test func aTransactionDecodesToItself() throws {
        let usd = { (value: String) in OnrampTransaction.Amount(value: value, currency: "USD") }
        for (completed, failure) in [("2026-12-02T10:01:00Z", nil), (nil, "FAILURE_REASON_SEND_FAILED")] {
            let transaction = OnrampTransaction(
                transactionId: "tx_1", status: "ONRAMP_TRANSACTION_STATUS_SUCCESS", userId: "u_1",
                purchaseCurrency: "USDC", purchaseNetwork: "base",
                purchaseAmount: .init(value: "24.36", currency: "USDC"), paymentTotal: usd("25.00"),
                paymentSubtotal: usd("24.36"), paymentTotalUsd: usd("25.00"), coinbaseFee: usd("0.63"),
                networkFee: usd("0.01"), exchangeRate: usd("1.00"), txHash: "0xabc", walletAddress: "0x5290",
                contractAddress: "0x8335", country: "US", partnerUserRef: "user-1", paymentMethod: "CARD",
                createdAt: "2026-12-02T10:00:00Z", completedAt: completed, endPartnerName: "Wallet",
                failureReason: failure)
            #expect(try Self.decoded(transaction) == transaction)
            #expect(
                transaction.json.objectValue?.map(\.0)
                    == OnrampTransaction.schema.json["required"]?.arrayValue?.compactMap(\.stringValue))
        }
        // Another server's answer may carry only the id and the status.
        let minimal = try JSONDecoder().decode(
            OnrampTransaction.self,
            from: Data(#"{"transaction_id":"tx_2","status":"ONRAMP_TRANSACTION_STATUS_SUCCESS"}"#.utf8))
        #expect(minimal.isSettled && minimal.purchaseAmount == nil)
    }

    private static func transaction(completedAt: String?, failureReason: String?) -> OnrampTransaction {
        let usd = { (value: String) in OnrampTransaction.Amount(value: value, currency: "USD") }
        return OnrampTransaction(
            transactionId: "tx_1", status: "ONRAMP_TRANSACTION_STATUS_SUCCESS", userId: "u_1",
            purchaseCurrency: "USDC", purchaseNetwork: "base", purchaseAmount: .init(value: "24.36", currency: "USDC"),
            paymentTotal: usd("25.00"), paymentSubtotal: usd("24.36"), paymentTotalUsd: usd("25.00"),
            coinbaseFee: usd("0.63"), networkFee: usd("0.01"), exchangeRate: usd("1.00"), txHash: "0xabc",
            walletAddress: "0x5290", contractAddress: "0x8335", country: "US", partnerUserRef: "user-1",
            paymentMethod: "CARD", createdAt: "2026-12-02T10:00:00Z", completedAt: completedAt,
            endPartnerName: "Wallet", failureReason: failureReason)
    }

    /// A transaction's webhook payload (cdp-sdk 1.51.0 `OnrampTransactionPayload`) writes the event type first,
    /// every member the schema requires in its order, `completedAt` and `failureReason` as `null` until they
    /// apply, and `partnerId` only for an aggregator's purchase; it decodes back to itself either way.
    @Test func aTransactionPayloadWritesNullsButLeavesOutPartnerId() throws {
        for (completed, failure, partner) in [
            ("2026-12-02T10:01:00Z", nil, nil), (nil, "FAILURE_REASON_SEND_FAILED", "partner-7"),
        ] {
            let payload = OnrampTransactionPayload(
                eventType: "onramp.transaction.success",
                transaction: Self.transaction(completedAt: completed, failureReason: failure), isAppToApp: true,
                partnerId: partner)
            #expect(try Self.decoded(payload) == payload)
            let names = payload.json.objectValue?.map(\.0) ?? []
            let required = OnrampTransactionPayload.schema.json["required"]?.arrayValue?.compactMap(\.stringValue)
            #expect(names == (required ?? []) + (partner == nil ? [] : ["partnerId"]))
            #expect(payload.json["completedAt"] == completed.map(JSONValue.string) ?? .null)
            #expect(payload.json["failureReason"] == failure.map(JSONValue.string) ?? .null)
        }
    }

    /// A Headless order and its answer, limits, verifications and webhook payload decode back to themselves,
    /// and an order's payload lists its fees as `OrderFee`s with the total repeated as `paymentAmount`.
    @Test func headlessObjectsDecodeToThemselves() throws {
        let order = OnrampOrder(
            orderId: "7d3c", paymentTotal: "25.00", paymentSubtotal: "24.36", paymentCurrency: "USD",
            paymentMethod: "GUEST_CHECKOUT_APPLE_PAY", purchaseAmount: "24.36", purchaseCurrency: "USDC",
            fees: Self.quote.fees, exchangeRate: "1.000000", destinationAddress: "0x5290", destinationNetwork: "base",
            status: "ONRAMP_ORDER_STATUS_PENDING_PAYMENT", createdAt: "2026-12-02T10:00:00Z",
            updatedAt: "2026-12-02T10:00:00Z", partnerUserRef: "user-1", txHash: nil, partnerId: nil)
        let answers = [
            OnrampOrderAnswer(order: order),
            OnrampOrderAnswer(
                order: order,
                paymentLink: .init(url: "https://pay.example/b", paymentLinkType: "PAYMENT_LINK_TYPE_APPLE_PAY_BUTTON"),
                userAuthToken: "uat_1"),
        ]
        for answer in answers { #expect(try Self.decoded(answer) == answer) }
        let limits = OnrampUserLimits(
            limits: [
                .init(limitType: "weekly_spending", currency: "USD", limit: "500.00", remaining: "475.00"),
                .init(limitType: "lifetime_transactions", limit: "15", remaining: "14"),
            ],
            limitUpgradeOptions: [
                .init(
                    status: "unrequested", fields: ["ssnLast4", "dateOfBirth"],
                    limitUpgrades: [.init(limitType: "weekly_spending", maxUpgrade: "2500")])
            ])
        #expect(try Self.decoded(limits) == limits)
        for verification in [
            OnrampVerification(verificationId: "onramp_verification_1", otpExpiresAt: "2026-12-02T10:10:00Z"),
            OnrampVerification(verificationId: "onramp_verification_1", verificationExpiresAt: "2027-01-31T10:00:00Z"),
        ] {
            #expect(try Self.decoded(verification) == verification)
        }
        let payload = OnrampOrderPayload(eventType: "onramp.transaction.updated", order: order, failureReason: nil)
        #expect(try Self.decoded(payload) == payload)
        #expect(payload.paymentAmount == "25.00" && payload.txHash == "")
        #expect(payload.fees.map(\.feeType) == ["FEE_TYPE_EXCHANGE", "FEE_TYPE_NETWORK"])
        #expect(payload.json["failureReason"] == nil && payload.json["partnerId"] == nil)
    }

    @Test func errorBodiesDecodeToThemselves() throws {
        for body in [
            CDPErrorBody(errorType: "invalid_request", errorMessage: "No."),
            CDPErrorBody(
                errorType: "invalid_request", errorMessage: "No.", errorReason: "counter_not_increased",
                correlationId: "req_1", errorLink: "https://docs.cdp.coinbase.com/api-reference/v2/errors"),
        ] {
            #expect(try Self.decoded(body) == body)
        }
    }

    @Test func aLinkConsumerSessionDecodesToItself() throws {
        for country in ["US", nil] {
            let session = LinkConsumerSession(
                clientSecret: "cscs_1", emailAddress: "a@example.com", redactedFormattedPhoneNumber: "(•••) ••• ••23",
                redactedPhoneNumber: "+*********23", phoneNumberCountry: country,
                verificationSessions: [.init(.sms, .verified)])
            #expect(try Self.decoded(session) == session)
        }
    }

    @Test func anOnrampSessionDecodesToItself() throws {
        let details = CryptoOnrampSession.TransactionDetails(
            destinationAmount: "50.000000", destinationCurrency: "usdc", destinationNetwork: "base",
            destinationCurrencies: ["usdc"], destinationNetworks: ["base", "solana"],
            fees: .init(networkFeeAmount: "0.01", transactionFeeAmount: "1.25"), lastError: .actionRequired,
            quoteExpiration: 1_796_000_000, settlementSpeed: .standard, sourceAmount: "50.00", sourceCurrency: "usd",
            sourceTotalAmount: "51.26", transactionId: "0xabc", walletAddress: "0x5290")
        var session = CryptoOnrampSession(
            id: "cos_1", clientSecret: "cos_1_secret_2", created: 1_795_999_000, livemode: false,
            status: .requiresPayment, cryptoCustomerId: "crc_1", paymentToken: "cpt_1",
            nextAction: .init(redirectingTo: "https://onramp.example/3ds?session=cos_1"),
            metadata: ["order": "42", "cart": "7"], transactionDetails: details)
        #expect(try Self.decoded(session) == session)
        session.nextAction = nil
        session.metadata = nil
        session.paymentToken = nil
        session.transactionDetails = .init(
            destinationAmount: nil, destinationCurrency: nil, destinationNetwork: "stellar",
            destinationCurrencies: nil, destinationNetworks: nil,
            fees: .init(networkFeeAmount: nil, transactionFeeAmount: nil), lastError: nil, quoteExpiration: 0,
            settlementSpeed: .instant, sourceAmount: nil, sourceCurrency: nil, sourceTotalAmount: nil,
            transactionId: nil, walletAddress: nil)
        #expect(try Self.decoded(session) == session)
        // stripe-node's wallet_addresses: the wallet under its network's key (Base's is base_network).
        let addresses = details.walletAddresses
        #expect(addresses["base_network"] == "0x5290" && addresses["ethereum"] == .null)
        #expect(addresses.objectValue?.count == CryptoOnrampSession.TransactionDetails.walletAddressKeys.count + 1)
        #expect(session.transactionDetails.walletAddresses["stellar"] == .null)
    }

    /// A Stripe event writes its envelope in Stripe's order with its object as the object writes itself, and a
    /// partner's backend decodes it back with the object's type; `api_version` is written only when named.
    @Test func aStripeEventDecodesToItself() throws {
        let session = CryptoOnrampSession(
            id: "cos_1", clientSecret: "cos_1_secret_2", created: 1_795_999_000, livemode: false,
            status: .fulfillmentComplete, cryptoCustomerId: "crc_1", paymentToken: "cpt_1", nextAction: nil,
            metadata: nil,
            transactionDetails: .init(
                destinationAmount: "50.000000", destinationCurrency: "usdc", destinationNetwork: "base",
                destinationCurrencies: ["usdc"], destinationNetworks: ["base"],
                fees: .init(networkFeeAmount: "0.01", transactionFeeAmount: "1.25"), lastError: nil,
                quoteExpiration: 1_796_000_000, settlementSpeed: .instant, sourceAmount: "50.00",
                sourceCurrency: "usd", sourceTotalAmount: "51.26", transactionId: "0xabc", walletAddress: "0x5290"))
        for version in [nil, "2025-03-31.basil"] {
            let event = StripeEvent(
                id: "evt_1", type: "crypto.onramp_session.updated", created: 1_796_000_100, livemode: false,
                apiVersion: version, object: session)
            let decoded = try JSONDecoder().decode(
                StripeEvent<CryptoOnrampSession>.self, from: Data(event.json.serialized))
            #expect(decoded == event)
            #expect(
                event.json.objectValue?.map(\.0)
                    == ["id", "object"] + (version == nil ? [] : ["api_version"]) + [
                        "type", "created", "livemode", "data",
                    ])
            #expect(event.json["data"]?["object"] == session.json)
        }
    }

    /// The webhook objects of both families decode back to themselves; a Stripe endpoint writes `null` for its
    /// absent members but leaves its secret out, and metadata keep the order they were given.
    @Test func webhookObjectsDecodeToThemselves() throws {
        for secret in [nil, "whsec_1"] {
            let endpoint = StripeWebhookEndpoint(
                id: "we_1", created: 1_796_000_000, description: nil, enabledEvents: ["*"], livemode: false,
                metadata: ["zone": "eu", "app": "wallet"], secret: secret, status: .enabled,
                url: "https://example.com/hook")
            #expect(try Self.decoded(endpoint) == endpoint)
            let names = endpoint.json.objectValue?.map(\.0) ?? []
            #expect(names.contains("secret") == (secret != nil))
            #expect(endpoint.json["description"] == .null && endpoint.json["api_version"] == .null)
            #expect(endpoint.json["metadata"]?.objectValue?.map(\.0) == ["zone", "app"])
            let list = StripeList(url: "/v1/webhook_endpoints", limit: 1, fetched: [endpoint, endpoint])
            #expect(list.hasMore && list.data == [endpoint])
            #expect(try Self.decoded(list) == list)
            #expect(list.json.objectValue?.map(\.0) == ["object", "url", "has_more", "data"])
        }
        let deleted = StripeDeletedObject(id: "we_1", object: "webhook_endpoint")
        #expect(try Self.decoded(deleted) == deleted && deleted.json["deleted"] == true)

        let subscription = CDPWebhookSubscription(
            subscriptionId: "8f7c", description: "", eventTypes: ["onramp.transaction.success"],
            target: .init(url: "https://example.com/hook", headers: ["X-Partner": "p1"]), isEnabled: true,
            metadata: ["secret": "stale", "team": "pay"], labels: [:], createdAt: "2026-12-02T10:00:00Z",
            secret: "4b1e", disabledReason: nil)
        #expect(subscription.metadata.entries.map(\.key) == ["team", "secret"], "the secret again, last")
        #expect(subscription.metadata["secret"] == "4b1e")
        #expect(try Self.decoded(subscription) == subscription)
        #expect(subscription.json["disabledReason"] == nil, "left out, not null")
        let page = CDPWebhookSubscriptionList(subscriptions: [subscription], nextPageToken: nil)
        #expect(try Self.decoded(page) == page && page.json["nextPageToken"] == nil)
        for response in [nil, CDPWebhookEvent.Response(httpCode: 500, elapsedTimeMs: 12, body: "no", errorName: nil)] {
            let event = CDPWebhookEvent(
                eventId: "e1", eventTypeName: "onramp.transaction.success", status: .retrying,
                createdAt: "2026-12-02T10:00:00Z", succeededAt: nil, retryCount: 1, response: response)
            #expect(try Self.decoded(CDPWebhookEventList(events: [event])) == CDPWebhookEventList(events: [event]))
        }
    }

    /// The crypto customer, its KYC collection answer (the customer's members, then the five the SDKs require),
    /// its KYC data and its wallets decode back to themselves and write what their schemas require, in order.
    @Test func cryptoCustomerObjectsDecodeToThemselves() throws {
        let customer = CryptoCustomerObject(
            id: "crc_1", livemode: false, kycRegion: nil,
            kycTiers: [
                .init(tier: "l0", verificationStatus: "rejected", verificationErrors: ["phone_verification_failed"])
            ],
            providedFields: ["first_name", "last_name"],
            verifications: [.init(name: "phone_verified", status: "rejected", errors: ["phone_verification_failed"])])
        #expect(try Self.decoded(customer) == customer)
        #expect(customer.json["kyc_region"] == .null, "null, not left out")
        let collection = CryptoKYCCollection(
            customer: customer, personId: "cperson_1", firstName: "Ada", lastName: "Lovelace", nationalities: ["GB"],
            residenceCountry: "US")
        #expect(try Self.decoded(collection) == collection)
        let wallet = CryptoConsumerWallet(
            id: "cwal_1", livemode: false, network: "base", verifiedOwnership: true, walletAddress: "0x5290")
        #expect(try Self.decoded(wallet) == wallet)
        for (json, schema) in [
            (customer.json, CryptoCustomerObject.schema), (collection.json, CryptoKYCCollection.schema),
            (wallet.json, CryptoConsumerWallet.schema),
        ] {
            #expect(json.objectValue?.map(\.0) == schema.json["required"]?.arrayValue?.compactMap(\.stringValue))
        }
        for dob in [nil, CryptoKYCData.DateOfBirth(isoDate: "1990-04-07")] {
            let data = CryptoKYCData(
                firstName: "Ada", lastName: nil, idNumberLast4: "6789", idType: nil, dob: dob,
                address: .init(line1: "1 Main St", line2: nil, city: nil, state: nil, zip: nil, country: "US"))
            #expect(try Self.decoded(data) == data)
            #expect(data.json["address"]?["line2"] == .null && data.json["last_name"] == .null)
        }
        #expect(CryptoKYCData.DateOfBirth(isoDate: "1990-04-07") == .init(year: 1990, month: 4, day: 7))
        #expect(CryptoKYCData.DateOfBirth(isoDate: "1990-04") == nil)
    }

    /// A payment method and a payment token write only the member of their type, a card's absent wallet as
    /// `null` and its unset preferred network not at all, and decode back to themselves.
    @Test func paymentMethodsDecodeToThemselves() throws {
        let card = StripePaymentMethod.Card(
            brand: "visa", expMonth: 12, expYear: 2034, funding: "credit", last4: "4242", wallet: nil)
        let bank = StripePaymentMethod.USBankAccount(
            accountType: "checking", bankName: "STRIPE TEST BANK", last4: "6789", routingNumber: "110000000")
        let cardMethod = StripePaymentMethod(
            id: "pm_1", created: 1_796_000_000, livemode: false, card: card, usBankAccount: nil)
        let bankMethod = StripePaymentMethod(
            id: "pm_2", created: 1_796_000_000, livemode: false, card: nil, usBankAccount: bank)
        #expect(try Self.decoded(cardMethod) == cardMethod)
        #expect(try Self.decoded(bankMethod) == bankMethod)
        #expect(cardMethod.json.objectValue?.map(\.0) == ["id", "object", "created", "livemode", "type", "card"])
        #expect(cardMethod.json["card"]?["wallet"] == .null && cardMethod.json["card"]?["preferred_network"] == nil)
        #expect(bankMethod.type == "us_bank_account" && bankMethod.json["card"] == nil)
        let token = CryptoPaymentToken(id: "cpt_1", card: card, usBankAccount: nil)
        #expect(try Self.decoded(token) == token)
        #expect(token.json.objectValue?.map(\.0) == ["id", "object", "type", "card"])
    }

    /// A deposit address leaves out an absent customer and decodes back to itself.
    @Test func aDepositAddressDecodesToItself() throws {
        for customer in [nil, "cus_1"] {
            let address = CryptoDepositAddress(
                id: "cda_1", address: "0x5290", created: 1_796_000_000, customer: customer, livemode: false,
                metadata: ["order": "7"], network: "base",
                supportedTokens: [.init(tokenContractAddress: "0x8335", tokenCurrency: "usdc")])
            #expect(try Self.decoded(address) == address)
            #expect((address.json["customer"] == nil) == (customer == nil))
        }
    }

    /// Onramp quotes keep their networks in the order asked, write a `null` source amount, and decode back to
    /// themselves, as do the transaction limits.
    @Test func quotesAndLimitsDecodeToThemselves() throws {
        let quote = CryptoOnrampQuotes.Quote(
            id: "cq_1", destinationCurrency: "usdc", destinationNetwork: "solana", destinationAmount: "49.750000",
            sourceTotalAmount: "50.00", fees: .init(networkFeeMonetary: "0.01", transactionFeeMonetary: "0.24"),
            expiresAt: 1_796_000_000)
        let quotes = CryptoOnrampQuotes(
            id: "cqs_1", livemode: false, rateFetchedAt: 1_795_999_990, sourceCurrency: "usd", sourceAmount: nil,
            destinationNetworkQuotes: ["solana": [quote], "ethereum": []])
        #expect(try Self.decoded(quotes) == quotes)
        #expect(quotes.json["destination_network_quotes"]?.objectValue?.map(\.0) == ["solana", "ethereum"])
        #expect(quotes.json["source_amount"] == .null)
        let limits = CryptoOnrampTransactionLimits(
            livemode: false, currency: "usd", perTransaction: .init(l0: "100.00", l1: "100.00", l2: "100.00"))
        #expect(try Self.decoded(limits) == limits)
        #expect(limits.json.objectValue?.map(\.0) == ["object", "livemode", "currency", "per_transaction"])
    }

    /// A PaymentIntent writes its payment method as an id or, expanded, as the method writes itself; a decline's
    /// `decline_code` only when there is one; and decodes back to itself either way.
    @Test func aPaymentIntentDecodesToItself() throws {
        let card = StripePaymentMethod(
            id: "pm_1", created: 1_796_000_000, livemode: false,
            card: .init(brand: "visa", expMonth: 12, expYear: 2034, funding: "credit", last4: "4242", wallet: nil),
            usBankAccount: nil)
        for (method, error) in [
            (StripePaymentIntent.PaymentMethod.expanded(card), StripePaymentIntent.LastPaymentError?.none),
            (
                .id("pm_1"),
                .init(type: "card_error", code: "card_declined", declineCode: "generic_decline", message: "No")
            ),
            (
                nil,
                .init(
                    type: "card_error", code: "payment_intent_authentication_failure", declineCode: nil, message: "3DS")
            ),
        ] {
            let intent = StripePaymentIntent(
                id: "pi_1", amount: 5126, captureMethod: "manual", clientSecret: "pi_1_secret_2",
                created: 1_796_000_000,
                currency: "usd", livemode: false, paymentMethodTypes: ["card"], status: .requiresAction,
                paymentMethod: method, nextAction: .init(redirectingTo: "https://example.com/3ds"),
                lastPaymentError: error)
            #expect(try Self.decoded(intent) == intent)
            #expect(intent.json["last_payment_error"]?["decline_code"] == error?.declineCode.map(JSONValue.string))
            #expect(intent.json["payment_method"] == (method.map { $0 == .id("pm_1") ? "pm_1" : card.json } ?? .null))
        }
    }

    /// A card token writes a typed-in card's `null` tokenization method; saved Link payment details leave out
    /// what they do not hold; both decode back to themselves.
    @Test func cardTokensAndLinkPaymentDetailsDecodeToThemselves() throws {
        let token = StripeCardToken(
            id: "tok_1", livemode: false, created: 1_796_000_000,
            card: .init(
                id: "card_1", brand: "Visa", last4: "4242", expMonth: 12, expYear: 2034, funding: "credit",
                tokenizationMethod: nil))
        #expect(try Self.decoded(token) == token)
        #expect(token.json["card"]?["tokenization_method"] == .null && token.json["used"] == false)
        let card = ConsumerPaymentDetails(
            id: "csmrpd_1", isDefault: true, billingEmailAddress: "ada@example.com",
            billingAddress: ["country_code": "US", "postal_code": "94103"],
            cardDetails: .init(
                brand: "VISA", last4: "4242", expMonth: 12, expYear: 2034, networks: ["VISA"], funding: "CREDIT"),
            bankAccountDetails: nil)
        let bank = ConsumerPaymentDetails(
            id: "csmrpd_2", isDefault: false, billingEmailAddress: nil, billingAddress: nil, cardDetails: nil,
            bankAccountDetails: .init(bankName: "STRIPE TEST BANK", last4: "6789"))
        #expect(try Self.decoded(card) == card && card.type == "CARD")
        #expect(try Self.decoded(bank) == bank && bank.type == "BANK_ACCOUNT")
        #expect(bank.json.objectValue?.map(\.0) == ["id", "type", "is_default", "bank_account_details"])
        #expect(card.json["card_details"]?["checks"]?["cvc_check"] == "PASS")
    }

    /// The 2026 KYC and identifier objects decode back to themselves; a submission's answer writes the
    /// requirements' members before its own, and a document's absent type as `null`.
    @Test func kycComplianceObjectsDecodeToThemselves() throws {
        let requirement = CryptoKYCRequirements.Requirement(
            requestedBy: "stripe",
            document: .init(
                acceptedSubtypes: [.init(id: "utility_bill", label: "Utility bill", description: "Recent")],
                acceptedFormats: ["pdf"], maxFileSizeBytes: 1_000_000, minDocumentTypes: 1, maxDocumentTypes: 1,
                maxFilesPerDocumentType: 2, fileRequirements: "A PDF", instructions: ["Upload one"]),
            additionalRequirements: .init(questions: [
                .init(id: "purchase_purpose", prompt: "Why?", answerType: "text", required: true)
            ]))
        let requirements = CryptoKYCRequirements(requirements: ["proof_of_address": requirement])
        #expect(try Self.decoded(requirements) == requirements)
        #expect(requirements.json["requirements"]?["proof_of_address"]?["errors"] == [])
        let fulfilment = CryptoKYCRequirementsFulfillment(requirements: ["proof_of_address": .init(submission: "s1")])
        #expect(try Self.decoded(fulfilment) == fulfilment)
        let submission = CryptoKYCRequirementSubmission(
            id: "s1", liquidityProvider: "stripe", created: 1_796_000_000,
            documents: [.init(documentType: nil, documentSubtype: "utility_bill", fileIds: ["file_1"])],
            answers: [.init(questionId: "purchase_purpose", value: "Investment")])
        #expect(try Self.decoded(submission) == submission)
        #expect(submission.json["documents"]?.arrayValue?.first?["document_type"] == .null)
        let owed = CryptoIdentifierRequirements(
            identifiers: [.init(type: "pl_pesel", regulation: "eu_mica")],
            alternatives: [.init(originalMissingIdentifiers: ["pl_pesel"], alternativeMissingIdentifiers: ["pl_nip"])],
            carfTINRequired: true)
        #expect(try Self.decoded(owed) == owed)
        let answer = CryptoIdentifierSubmission(requirements: owed, invalidIdentifiers: ["xx_tin"])
        #expect(try Self.decoded(answer) == answer && !answer.valid)
        #expect(
            answer.json.objectValue?.map(\.0)
                == ["object", "identifiers", "alternatives", "carf_tin_required", "valid", "invalid_identifiers"])
    }

    /// Two string maps are equal when they hold the same members in any order; a key set again keeps its place.
    @Test func anOrderedStringMapKeepsItsOrder() throws {
        var map: OrderedStringMap = ["b": "1", "a": "2"]
        map["b"] = "3"
        map["c"] = "4"
        map["a"] = nil
        #expect(map.entries.map(\.key) == ["b", "c"] && map["b"] == "3")
        #expect(map == ["c": "4", "b": "3"] && map != ["b": "3"])
        #expect(OrderedStringMap(json: ["x": 1]) == nil, "only strings")
        #expect(OrderedStringMap(json: ["x": "1", "y": "2"])?.json.objectValue?.map(\.0) == ["x", "y"])
    }

    /// A sell and its webhook payload decode back to themselves and write every member their schema requires,
    /// in its order (the payload's `minimumTotal` and `exchangeRate` from the sell's total and unit price).
    @Test func offrampObjectsDecodeToThemselves() throws {
        let usd = { (value: String) in OnrampTransaction.Amount(value: value, currency: "USD") }
        let sell = OfframpTransactionObject(
            transactionId: "sell_1", status: "TRANSACTION_STATUS_STARTED", asset: "USDC", network: "base",
            sellAmount: .init(value: "25", currency: "USDC"), total: usd("24.50"), subtotal: usd("25.00"),
            coinbaseFee: usd("0.50"), unitPrice: usd("1.00"), paymentMethod: "FIAT_WALLET", fromAddress: "0x5290",
            toAddress: "0x8335", txHash: "", redirectUrl: "https://wallet.example/back", partnerUserRef: "user-1",
            createdAt: "2026-12-02T10:00:00Z", updatedAt: "2026-12-02T10:00:00Z")
        let payload = OfframpTransactionPayload(eventType: "offramp.transaction.created", sell: sell)
        #expect(try Self.decoded(sell) == sell)
        #expect(try Self.decoded(payload) == payload)
        #expect(payload.minimumTotal == sell.total && payload.exchangeRate == sell.unitPrice)
        for (json, schema) in [
            (sell.json, OfframpTransactionObject.schema), (payload.json, OfframpTransactionPayload.schema),
        ] {
            #expect(json.objectValue?.map(\.0) == schema.json["required"]?.arrayValue?.compactMap(\.stringValue))
        }
    }

    /// The objects a client encodes (the request bodies) carry the members the description lists.
    @Test func requestBodiesEncodeTheMembersTheirSchemaNames() throws {
        let registration = AttestationKeyRegistration(
            challenge: "c", ios: .init(keyId: "k", attestation: "YQ==", bundleId: "com.example.wallet"))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(registration)) as? [String: Any]
        #expect(Set(encoded?.keys ?? [:].keys) == ["challenge", "ios"])
        #expect(Set((encoded?["ios"] as? [String: Any])?.keys ?? [:].keys) == ["keyId", "attestation", "bundleId"])
        let schema = AttestationKeyRegistration.schema(keyIdRequired: true).json
        #expect(
            Set(schema["properties"]?["ios"]?["properties"]?.objectValue?.map(\.0) ?? []) == [
                "keyId", "attestation", "bundleId",
            ])
        let assertion = PurchaseAssertion(challenge: "c", ios: .init(keyId: "k", assertion: "YQ=="))
        let sent = try JSONSerialization.jsonObject(with: JSONEncoder().encode(assertion)) as? [String: Any]
        #expect(Set((sent?["ios"] as? [String: Any])?.keys ?? [:].keys) == ["keyId", "assertion"])
        #expect(
            Set(PurchaseAssertion.schema.json["properties"]?["ios"]?["properties"]?.objectValue?.map(\.0) ?? [])
                == ["keyId", "assertion"])
    }
}
