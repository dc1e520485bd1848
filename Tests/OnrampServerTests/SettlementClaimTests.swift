import Foundation
import OnrampCore
import Synchronization
import Testing

@testable import OnrampServer

/// Settlement runs once per transaction even when several workers (instances) race for it.
@Suite(.serialized) struct SettlementClaimTests {
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
        _ = try device.register()
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
}
