import Foundation
import OnrampCore
import OnrampStore
import OnrampTestSupport
import Synchronization
import Testing

@testable import OnrampServer
@testable import OnrampServices

/// Settlement runs once per transaction even when several workers (instances) race for it.
@Suite(.serialized, .blocking) struct SettlementClaimTests {
    /// Counts settlements and takes a while, like a real provider.
    final class CountingSettlement: SettlementProvider {
        let calls = Mutex(0)
        func settle(
            reference: String, network: String, asset: String, amount: String, walletAddress: String,
            partnerUserRef: String
        ) -> SettlementResult {
            calls.withLock { $0 += 1 }
            Thread.sleep(forTimeInterval: 0.05)
            return .delivered(txHash: "0x" + String(repeating: "ab", count: 32))
        }
    }

    @Test(arguments: DatabaseDriver.all)
    func racingWorkersSettleOnceAndEmitOneSuccess(driver: DatabaseDriver) throws {
        let settlement = CountingSettlement()
        let server = try TestServer(startWorkers: false, driver: driver, settlement: settlement)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let transactions = server.application.transactions
        #expect(try transactions.advanceDueTransactions() == 1)  // CREATED → IN_PROGRESS
        let id = try #require(
            try server.database.read {
                try $0.query("SELECT transaction_id FROM onramp_transactions").first?.string("transaction_id")
            })
        let now = server.clock.now().addingTimeInterval(5)
        let moved = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if (try? transactions.advance(transactionId: id, now: Timestamp.milliseconds(now))) == true {
                moved.withLock { $0 += 1 }
            }
        }
        #expect(moved.withLock { $0 } == 1)
        #expect(settlement.calls.withLock { $0 } == 1)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'") == 1)
    }

    /// Takes 61 s of the server's clock per settlement (longer than a lease) and notes, as each starts,
    /// whether its purchase's lease (read by `leaseQuery`, bound to the reference) is still held.
    final class SlowSettlement: SettlementProvider, @unchecked Sendable {
        let clock: ManualClock
        let leaseQuery: String
        var database: (any OnrampStore.Database)?
        let leaseHeld = Mutex<[Bool]>([])
        init(clock: ManualClock, leaseQuery: String) {
            self.clock = clock
            self.leaseQuery = leaseQuery
        }
        func settle(
            reference: String, network: String, asset: String, amount: String, walletAddress: String,
            partnerUserRef: String
        ) -> SettlementResult {
            let lease = try? database?.read { try $0.query(leaseQuery, [.text(reference)]).first?.int("lease") }
            leaseHeld.withLock { $0.append((lease ?? 0) > Timestamp.milliseconds(clock.now())) }
            clock.advance(by: 61)
            return .delivered(txHash: "0x" + String(repeating: "cd", count: 32))
        }
    }

    /// A slow provider (each settlement takes 61 s of the server's clock, longer than a lease) and two
    /// purchases due together: each claim's lease is timed from its own start, so the second is still held
    /// when its settlement starts.
    @Test func eachClaimIsLeasedFromItsOwnStart() throws {
        let clock = ManualClock(Date())
        let settlement = SlowSettlement(
            clock: clock, leaseQuery: "SELECT lease_until AS lease FROM onramp_transactions WHERE transaction_id = ?")
        let server = try TestServer(clock: clock, startWorkers: false, settlement: settlement)
        settlement.database = server.database
        var device = try TestDevice(server: server)
        try device.registerKey()
        for _ in 0..<2 {
            let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
            let url = try #require(
                try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
            #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        }
        let transactions = server.application.transactions
        #expect(try transactions.advanceDueTransactions() == 2)  // both CREATED → IN_PROGRESS
        clock.advance(by: 1)
        #expect(try transactions.advanceDueTransactions() == 2)  // both settled, one after the other
        #expect(settlement.leaseHeld.withLock { $0 } == [true, true])
    }

    /// The same for Embedded fulfilment: two paid sessions due together behind a slow provider.
    @Test func eachFulfilmentClaimIsLeasedFromItsOwnStart() throws {
        let clock = ManualClock(Date())
        let settlement = SlowSettlement(
            clock: clock, leaseQuery: "SELECT lease_until AS lease FROM crypto_onramp_sessions WHERE id = ?")
        let server = try EmbeddedTestServer(clock: clock, settlement: settlement, startWorkers: false)
        settlement.database = server.database
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        for _ in 0..<2 {
            let session = try server.createSession(user, token: token, wallet: wallet)
            #expect(session.status == 200, "\(session)")
            let paid = try server.checkout(user, session.string("id"))
            #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        }
        clock.advance(by: 1)
        #expect(try server.application.embedded.sessions.fulfilDueSessions() == 2)
        #expect(settlement.leaseHeld.withLock { $0 } == [true, true])
    }

    /// A round of due sessions costs two write transactions however many it fulfils: one claims them
    /// all, one records every outcome; each session still settles once and emits one event.
    @Test func dueSessionsAreClaimedTogetherAndRecordedTogether() throws {
        let clock = ManualClock(Date())
        let settlement = CountingSettlement()
        let server = try EmbeddedTestServer(clock: clock, settlement: settlement, startWorkers: false, driver: .sqlite)
        let sqlite = try #require(server.database as? SQLiteDatabase)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        for _ in 0..<4 {
            let session = try server.createSession(user, token: token, wallet: wallet)
            let paid = try server.checkout(user, session.string("id"))
            #expect(paid.string("status") == "fulfillment_processing", "\(paid)")
        }
        clock.advance(by: 1)
        let before = sqlite.groupCommitStatistics.transactions
        #expect(try server.application.embedded.sessions.fulfilDueSessions() == 4)
        #expect(sqlite.groupCommitStatistics.transactions - before == 2)
        #expect(settlement.calls.withLock { $0 } == 4)
        #expect(
            try server.database.read {
                try $0.query(
                    "SELECT COUNT(*) AS n FROM crypto_onramp_sessions WHERE status = 'fulfillment_complete'"
                ).first?.int("n")
            } == 4)
        #expect(try server.application.embedded.sessions.fulfilDueSessions() == 0)
    }

    /// A session whose outcome cannot be written holds up only itself: the round's other outcomes are
    /// recorded one by one, the failure is reported, and the session is settled once its lease ends.
    @Test func anOutcomeThatCannotBeWrittenHoldsUpOnlyItsOwnSession() throws {
        let clock = ManualClock(Date())
        let settlement = CountingSettlement()
        let server = try EmbeddedTestServer(clock: clock, settlement: settlement, startWorkers: false, driver: .sqlite)
        let user = try server.signUpAndAuthorize()
        try server.collectKYC(user)
        let wallet = try server.registerWallet(user)
        let token = try server.paymentToken(user)
        var ids: [String] = []
        for _ in 0..<3 {
            let session = try server.createSession(user, token: token, wallet: wallet)
            ids.append(session.string("id"))
            #expect(try server.checkout(user, ids.last!).string("status") == "fulfillment_processing")
        }
        try server.database.transaction {
            _ = try $0.execute(
                """
                CREATE TRIGGER refuse_outcome BEFORE UPDATE OF status ON crypto_onramp_sessions
                WHEN NEW.id = '\(ids[1])' AND NEW.status <> OLD.status BEGIN SELECT RAISE(ABORT, 'refused'); END
                """, [])
        }
        clock.advance(by: 1)
        #expect(throws: (any Error).self) { try server.application.embedded.sessions.fulfilDueSessions() }
        func statuses() throws -> [String] {
            try ids.map { id in
                try server.database.read {
                    try $0.query("SELECT status FROM crypto_onramp_sessions WHERE id = ?", [.text(id)]).first?.string(
                        "status")
                } ?? "missing"
            }
        }
        #expect(try statuses() == ["fulfillment_complete", "fulfillment_processing", "fulfillment_complete"])

        try server.database.transaction { _ = try $0.execute("DROP TRIGGER refuse_outcome", []) }
        #expect(try server.application.embedded.sessions.fulfilDueSessions() == 0, "leased until its lease ends")
        clock.advance(by: Double(SettlementLease.milliseconds) / 1000 + 1)
        #expect(try server.application.embedded.sessions.fulfilDueSessions() == 1)
        #expect(try statuses() == ["fulfillment_complete", "fulfillment_complete", "fulfillment_complete"])
        #expect(settlement.calls.withLock { $0 } == 4, "the refused one settled again with its reference")
    }

    /// Runs `during` in the middle of each settlement (once), as a second worker acting meanwhile.
    final class InterruptedSettlement: SettlementProvider, @unchecked Sendable {
        var during: (() -> Void)?
        let calls = Mutex(0)
        func settle(
            reference: String, network: String, asset: String, amount: String, walletAddress: String,
            partnerUserRef: String
        ) -> SettlementResult {
            calls.withLock { $0 += 1 }
            let interruption = during
            during = nil
            interruption?()
            return .delivered(txHash: "0x" + String(repeating: "ef", count: 32))
        }
    }

    /// A lease is real time: moving the project's test clock two minutes (past a lease's minute) while a
    /// settlement is in flight does not let a second worker claim it. Both for App2App and Embedded.
    @Test func aTestClockMovedDuringASettlementLeavesItsLeaseHeld() throws {
        let settlement = InterruptedSettlement()
        let server = try TestServer(startWorkers: false, settlement: settlement)
        var device = try TestDevice(server: server)
        try device.registerKey()
        let text = try #require(try device.purchaseChallenge(device.purchase()).body["challenge"]?.stringValue)
        let url = try #require(try device.createSession(challenge: text).body["session"]?["onrampUrl"]?.stringValue)
        #expect(try HandoffBrowser(port: server.port).complete(url, action: "confirm").status == 303)
        let transactions = server.application.transactions
        #expect(try transactions.advanceDueTransactions() == 1)  // CREATED → IN_PROGRESS
        let secondWorker = Mutex<Int?>(nil)
        settlement.during = {
            _ = try? TestClockControl(database: server.database).advance(projectId: server.projectId, seconds: 120)
            secondWorker.withLock { $0 = try? transactions.advanceDueTransactions() }
        }
        _ = try TestClockControl(database: server.database).advance(projectId: server.projectId, seconds: 5)
        #expect(try transactions.advanceDueTransactions() == 1)
        #expect(secondWorker.withLock { $0 } == 0)
        #expect(settlement.calls.withLock { $0 } == 1)
        #expect(
            try server.count("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'onramp.transaction.success'") == 1)

        let embeddedSettlement = InterruptedSettlement()
        let embedded = try EmbeddedTestServer(settlementDelay: 0, settlement: embeddedSettlement, startWorkers: false)
        let user = try embedded.signUpAndAuthorize()
        try embedded.collectKYC(user)
        let session = try embedded.createSession(
            user, token: try embedded.paymentToken(user), wallet: try embedded.registerWallet(user))
        #expect(try embedded.checkout(user, session.string("id")).string("status") == "fulfillment_processing")
        let sessions = embedded.application.embedded.sessions
        let secondFulfilment = Mutex<Int?>(nil)
        embeddedSettlement.during = {
            _ = try? TestClockControl(database: embedded.database).advance(
                projectId: embedded.credentials.projectId, seconds: 120)
            secondFulfilment.withLock { $0 = try? sessions.fulfilDueSessions() }
        }
        #expect(try sessions.fulfilDueSessions() == 1)
        #expect(secondFulfilment.withLock { $0 } == 0)
        #expect(embeddedSettlement.calls.withLock { $0 } == 1)
    }

    @Test func theSimulatorIsIdempotentOnItsReference() {
        let simulator = SimulatedSettlement()
        func hash(_ reference: String, _ network: String = "base") -> String? {
            guard
                case .delivered(let hash) = simulator.settle(
                    reference: reference, network: network, asset: "USDC", amount: "1", walletAddress: "w",
                    partnerUserRef: "user-1")
            else { return nil }
            return hash
        }
        let evm = hash("tx-1")
        #expect(evm == hash("tx-1"))
        #expect(evm != hash("tx-2"))
        #expect(evm?.count == 66 && evm?.hasPrefix("0x") == true)
        let solana = hash("tx-1", "solana")
        #expect(solana == hash("tx-1", "solana") && solana?.hasPrefix("0x") == false)
    }
}
