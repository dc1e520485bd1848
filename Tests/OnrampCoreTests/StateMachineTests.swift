import OnrampCore
import Testing

private func expectIllegal(_ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected an illegal transition")
    } catch let error as OnrampError {
        #expect(error.code == .illegalTransition)
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Suite struct App2AppTransactionTests {
    @Test func createEmitsCreated() {
        let (transaction, events) = App2AppTransaction.create()
        #expect(transaction.status == .created)
        #expect(events == [.created])
        #expect(events.map(\.eventType) == ["onramp.transaction.created"])
    }

    @Test func createdToInProgress() throws {
        var transaction = App2AppTransaction(status: .created)
        #expect(try transaction.handle(.start) == [.updated(.inProgress)])
        #expect(transaction.status == .inProgress)
    }

    @Test func inProgressToSuccess() throws {
        var transaction = App2AppTransaction(status: .inProgress)
        let events = try transaction.handle(.succeed(txHash: "0xabc"))
        #expect(events == [.updated(.success), .success])
        #expect(events.map(\.eventType) == ["onramp.transaction.updated", "onramp.transaction.success"])
        #expect(transaction.status == .success && transaction.status.isTerminal)
        #expect(transaction.txHash == "0xabc")
    }

    @Test func inProgressToFailed() throws {
        var transaction = App2AppTransaction(status: .inProgress)
        #expect(try transaction.handle(.fail(.sendFailed)) == [.updated(.failed), .failed(.sendFailed)])
        #expect(transaction.failureReason == .sendFailed)
    }

    @Test func createdToFailed() throws {
        var transaction = App2AppTransaction(status: .created)
        #expect(try transaction.handle(.fail(.buyFailed)) == [.updated(.failed), .failed(.buyFailed)])
        #expect(transaction.status == .failed)
    }

    @Test func createdCannotSucceed() {
        var transaction = App2AppTransaction(status: .created)
        expectIllegal { _ = try transaction.handle(.succeed(txHash: "0x1")) }
        #expect(transaction.status == .created)
    }

    @Test func inProgressCannotStartAgain() {
        var transaction = App2AppTransaction(status: .inProgress)
        expectIllegal { _ = try transaction.handle(.start) }
    }

    @Test(arguments: [App2AppTransaction.Status.success, .failed])
    func terminalStatesAcceptNothing(status: App2AppTransaction.Status) {
        for event in [App2AppTransaction.Event.start, .succeed(txHash: "0x1"), .fail(.buyFailed)] {
            var transaction = App2AppTransaction(status: status)
            expectIllegal { _ = try transaction.handle(event) }
            #expect(transaction.status == status)
        }
    }
}

@Suite struct LinkAuthIntentTests {
    @Test func createdToAuthenticated() throws {
        var intent = LinkAuthIntent()
        #expect(try intent.handle(.authenticate) == [.statusChanged(from: .created, to: .authenticated)])
    }

    @Test func authenticatedToConsented() throws {
        var intent = LinkAuthIntent(status: .authenticated)
        _ = try intent.handle(.consent(granted: true))
        #expect(intent.status == .consented && intent.mayIssueTokens)
    }

    @Test func authenticatedToRejected() throws {
        var intent = LinkAuthIntent(status: .authenticated)
        _ = try intent.handle(.consent(granted: false))
        #expect(intent.status == .rejected && !intent.mayIssueTokens)
    }

    @Test(arguments: [LinkAuthIntent.Status.created, .authenticated])
    func openStatesExpire(status: LinkAuthIntent.Status) throws {
        var intent = LinkAuthIntent(status: status)
        #expect(try intent.handle(.expire) == [.statusChanged(from: status, to: .expired)])
    }

    @Test func consentBeforeAuthenticationIsIllegal() {
        var intent = LinkAuthIntent()
        expectIllegal { _ = try intent.handle(.consent(granted: true)) }
        #expect(!intent.mayIssueTokens)
    }

    @Test func authenticatingTwiceIsIllegal() {
        var intent = LinkAuthIntent(status: .authenticated)
        expectIllegal { _ = try intent.handle(.authenticate) }
    }

    @Test(arguments: [LinkAuthIntent.Status.consented, .rejected, .expired])
    func terminalStatesAcceptNothing(status: LinkAuthIntent.Status) {
        #expect(status.isTerminal)
        for event in [LinkAuthIntent.Event.authenticate, .consent(granted: true), .expire] {
            var intent = LinkAuthIntent(status: status)
            expectIllegal { _ = try intent.handle(event) }
        }
    }
}

@Suite struct OnrampSessionTests {
    private func session(_ status: OnrampSession.Status, _ lastError: OnrampSessionLastError? = nil) -> OnrampSession {
        OnrampSession(status: status, lastError: lastError)
    }

    @Test func initializedToRequiresPayment() throws {
        var session = session(.initialized)
        #expect(try session.handle(.ready) == [.updated(status: .requiresPayment, lastError: nil)])
    }

    @Test func successfulPaymentStartsFulfillment() throws {
        var session = session(.requiresPayment, .actionRequired)
        #expect(
            try session.handle(.checkout(.payment(.succeeded)))
                == [.updated(status: .fulfillmentProcessing, lastError: nil)])
    }

    @Test func fulfillmentCompletes() throws {
        var session = session(.fulfillmentProcessing)
        #expect(
            try session.handle(.fulfillmentSucceeded(transactionID: "tx_1"))
                == [.updated(status: .fulfillmentComplete, lastError: nil)])
        #expect(session.transactionID == "tx_1" && session.status.isTerminal)
    }

    @Test func fulfillmentFailureRejects() throws {
        var session = session(.fulfillmentProcessing)
        #expect(
            try session.handle(.fulfillmentFailed) == [.updated(status: .rejected, lastError: .transactionFailed)])
    }

    @Test func threeDSecureKeepsStatusWithActionRequired() throws {
        var session = session(.requiresPayment)
        #expect(try session.handle(.checkout(.payment(.requiresAction))) == [])
        #expect(session.status == .requiresPayment && session.lastError == .actionRequired)
        _ = try session.handle(.checkout(.payment(.succeeded)))
        #expect(session.status == .fulfillmentProcessing && session.lastError == nil)
    }

    @Test func missingMandateIsActionRequired() throws {
        var session = session(.requiresPayment)
        #expect(try session.handle(.checkout(.payment(.missingMandate))) == [])
        #expect(session.lastError == .actionRequired)
    }

    @Test func declinedPaymentRejects() throws {
        var session = session(.requiresPayment)
        #expect(
            try session.handle(.checkout(.payment(.declined)))
                == [.updated(status: .rejected, lastError: .transactionFailed)])
    }

    @Test func expiredQuoteIsRetryableAndClearedByRequote() throws {
        var session = session(.requiresPayment)
        #expect(try session.handle(.checkout(.quoteExpired)) == [])
        #expect(session.lastError == .chargedWithExpiredQuote)
        #expect(try session.handle(.quoteRefreshed) == [])
        #expect(session.lastError == nil)
    }

    @Test(arguments: [
        OnrampSessionLastError.missingKYC, .missingDocumentVerification, .missingConsumerWallet, .actionRequired,
    ])
    func retryableBlockersKeepRequiresPayment(error: OnrampSessionLastError) throws {
        var session = session(.requiresPayment)
        #expect(try session.handle(.checkout(.blocked(error))) == [])
        #expect(session.status == .requiresPayment && session.lastError == error)
    }

    @Test(arguments: [OnrampSessionLastError.transactionLimitReached, .locationNotSupported, .transactionFailed])
    func terminalBlockersReject(error: OnrampSessionLastError) throws {
        var session = session(.requiresPayment)
        #expect(try session.handle(.checkout(.blocked(error))) == [.updated(status: .rejected, lastError: error)])
    }

    @Test func initializedCanBeRejected() throws {
        var session = session(.initialized)
        #expect(
            try session.handle(.blocked(.locationNotSupported))
                == [.updated(status: .rejected, lastError: .locationNotSupported)])
    }

    @Test func initializedKeepsRetryableBlocker() throws {
        var session = session(.initialized)
        #expect(try session.handle(.blocked(.missingKYC)) == [])
        #expect(session.status == .initialized && session.lastError == .missingKYC)
        _ = try session.handle(.ready)
        #expect(session.lastError == nil)
    }

    @Test func repeatedCheckoutAfterPaymentChangesNothing() throws {
        var processing = session(.fulfillmentProcessing)
        #expect(try processing.handle(.checkout(.payment(.succeeded))) == [])
        var complete = session(.fulfillmentComplete)
        #expect(try complete.handle(.checkout(.payment(.succeeded))) == [])
        #expect(complete.status == .fulfillmentComplete)
    }

    @Test func checkoutBeforeReadyIsIllegal() {
        var session = session(.initialized)
        expectIllegal { _ = try session.handle(.checkout(.payment(.succeeded))) }
    }

    @Test func requiresPaymentRejectsReadyAndFulfillment() {
        for event in [OnrampSession.Event.ready, .fulfillmentSucceeded(transactionID: "t"), .fulfillmentFailed] {
            var session = session(.requiresPayment)
            expectIllegal { _ = try session.handle(event) }
        }
    }

    @Test func processingRejectsReadyBlockAndRequote() {
        for event in [OnrampSession.Event.ready, .blocked(.missingKYC), .quoteRefreshed] {
            var session = session(.fulfillmentProcessing)
            expectIllegal { _ = try session.handle(event) }
        }
    }

    @Test func terminalStatesRefuseEverythingButRepeatCheckout() {
        let events: [OnrampSession.Event] = [
            .ready, .blocked(.missingKYC), .quoteRefreshed, .fulfillmentSucceeded(transactionID: "t"),
            .fulfillmentFailed,
        ]
        for status in [OnrampSession.Status.fulfillmentComplete, .rejected] {
            for event in events {
                var session = session(status)
                expectIllegal { _ = try session.handle(event) }
            }
        }
        var rejected = session(.rejected, .transactionFailed)
        expectIllegal { _ = try rejected.handle(.checkout(.payment(.succeeded))) }
    }

    @Test func checkoutOutcomeChargesOnlyWhenClear() {
        var charged = 0
        let blocked = CheckoutOutcome.evaluate(blocker: .missingKYC, quoteExpired: true) {
            charged += 1
            return .succeeded
        }
        #expect(blocked == .blocked(.missingKYC))
        let expired = CheckoutOutcome.evaluate(blocker: nil, quoteExpired: true) {
            charged += 1
            return .succeeded
        }
        #expect(expired == .quoteExpired)
        #expect(charged == 0)
        let paid = CheckoutOutcome.evaluate(blocker: nil, quoteExpired: false) {
            charged += 1
            return .requiresAction
        }
        #expect(paid == .payment(.requiresAction) && charged == 1)
    }

    @Test func lastErrorsSplitIntoRetryableAndTerminal() {
        let retryable = OnrampSessionLastError.allCases.filter(\.isRetryable).map(\.rawValue)
        #expect(
            retryable == [
                "action_required", "missing_kyc", "missing_document_verification", "charged_with_expired_quote",
                "missing_consumer_wallet",
            ])
        #expect(
            OnrampSession.DomainEvent.updated(status: .rejected, lastError: nil).eventType
                == "crypto.onramp_session.updated")
    }
}

/// The guest checkout order and the offramp sell, transition by transition.
struct HeadlessAndOfframpMachineTests {
    @Test func anOrderIsPaidThenSettledOrDeclined() throws {
        var (order, created) = GuestCheckoutOrder.create()
        #expect(created == [.created])
        #expect(try order.handle(.paymentApproved) == [.updated(.processing)])
        #expect(throws: OnrampError.self) { try order.handle(.paymentDeclined) }
        #expect(try order.handle(.delivered(txHash: "0xab")) == [.updated(.completed), .success])
        #expect(order.txHash == "0xab")
        #expect(throws: OnrampError.self) { try order.handle(.fail(.sendFailed)) }
        var declined = GuestCheckoutOrder.create().order
        #expect(try declined.handle(.paymentDeclined) == [.updated(.failed), .failed(.paymentDeclined)])
        #expect(declined.failureReason == .paymentDeclined)
        #expect(throws: OnrampError.self) { try declined.handle(.paymentApproved) }
        var unpaid = GuestCheckoutOrder.create().order
        #expect(throws: OnrampError.self) { try unpaid.handle(.delivered(txHash: "0x")) }
    }

    @Test func aSellSucceedsFailsOrExpiresOnce() throws {
        var (sell, created) = OfframpTransaction.start()
        #expect(created == [.created])
        #expect(try sell.handle(.depositReceived(txHash: "0xcd")) == [.updated(.success), .success])
        #expect(throws: OnrampError.self) { try sell.handle(.expire) }
        var late = OfframpTransaction.start().transaction
        #expect(try late.handle(.expire) == [.updated(.expired), .failed])
        var failed = OfframpTransaction.start().transaction
        #expect(try failed.handle(.fail) == [.updated(.failed), .failed])
        #expect(failed.status.isTerminal)
    }

    @Test func guestLimitsAndSellQuotes() throws {
        let limits = GuestCheckoutLimits.standard
        #expect(
            limits.breach(ordering: DecimalAmount(exactly: 500), spentThisWeek: DecimalAmount(exactly: 0), orders: 0)
                == nil)
        #expect(
            limits.breach(ordering: DecimalAmount(exactly: 1), spentThisWeek: DecimalAmount(exactly: 500), orders: 0)
                == .weeklySpending)
        #expect(
            limits.breach(ordering: DecimalAmount(exactly: 1), spentThisWeek: DecimalAmount(exactly: 0), orders: 15)
                == .lifetimeTransactions)
        #expect(
            limits.remaining(spentThisWeek: DecimalAmount(exactly: 600), orders: 20) == (DecimalAmount(exactly: 0), 0))
        let quote = try SellQuote(
            catalogue: .standard, asset: "USDC", amount: try DecimalAmount(parsing: "100"), currency: "USD",
            method: .paypal)
        #expect(quote.text(quote.cashoutSubtotal) == "100.00")
        #expect(quote.text(quote.coinbaseFee) == "3.30", "PayPal: 3 % + 0.30, rounded up")
        #expect(quote.text(quote.cashoutTotal) == "96.70")
        #expect(throws: OnrampError.self) {
            try SellQuote(
                catalogue: .standard, asset: "USDC", amount: try DecimalAmount(parsing: "0.2"), currency: "USD",
                method: .paypal)
        }
    }
}

/// The single-use purchase page both the App2App handoff and the hosted onramp drive.
@Suite struct SingleUsePageTests {
    /// A handoff-style page: link and page both expire at 1,000.
    static let issued = SingleUsePage(linkExpiresAt: 1_000, openedAt: nil, outcome: nil)

    @Test func aLinkOpensOnceBeforeItExpires() {
        #expect(Self.issued.open(now: 999) == .show)
        #expect(Self.issued.open(now: 1_000) == .spent(expired: true))
        let opened = SingleUsePage(linkExpiresAt: 1_000, openedAt: 10, outcome: nil)
        #expect(opened.open(now: 20) == .spent(expired: false))
        #expect(opened.open(now: 2_000) == .spent(expired: true))
    }

    @Test func anOpenedPageProceedsCancelsOrExpires() {
        let opened = SingleUsePage(linkExpiresAt: 1_000, openedAt: 10, outcome: nil)
        #expect(opened.submit(cancelling: false, now: 999) == .proceed)
        #expect(opened.submit(cancelling: true, now: 999) == .end(.cancelled))
        #expect(opened.submit(cancelling: false, now: 1_000) == .end(.error))
        #expect(opened.submit(cancelling: true, now: 1_000) == .end(.error), "an expired page cannot be cancelled")
    }

    @Test func anEndedPageReplaysItsOutcomeWhateverIsAsked() {
        for outcome in PurchaseOutcome.allCases {
            let ended = SingleUsePage(linkExpiresAt: 1_000, openedAt: 10, outcome: outcome)
            #expect(ended.submit(cancelling: false, now: 20) == .replay(outcome))
            #expect(ended.submit(cancelling: true, now: 5_000) == .replay(outcome))
            #expect(ended.reportedOutcome == outcome)
        }
        #expect(Self.issued.reportedOutcome == .error)
    }

    /// The hosted page: its link opens within its own lifetime, the opened page lasts its page lifetime.
    @Test func aPageLifetimeCountsFromTheOpen() {
        let page = SingleUsePage(linkExpiresAt: 300, pageLifetime: 900, openedAt: 200, outcome: nil)
        #expect(page.pageExpiresAt == 1_100)
        #expect(page.submit(cancelling: false, now: 1_099) == .proceed, "past the link's expiry, within the page's")
        #expect(page.submit(cancelling: false, now: 1_100) == .end(.error))
        #expect(SingleUsePage(linkExpiresAt: 300, pageLifetime: 900, openedAt: nil, outcome: nil).pageExpiresAt == 300)
    }
}
