import Foundation
import Synchronization
import Testing

@testable import OnrampStore

/// The pool lends each connection to one borrower; a borrower finding none free waits for one, up to
/// the pool's timeout, and is refused as busy after it.
@Suite(.blocking) struct ConnectionPoolTests {
    final class FakeConnection: PooledConnection {
        func prepareForReuse() -> Bool { true }
        func close() {}
    }

    @Test func aBorrowerWaitsForTheConnectionHeldElsewhere() throws {
        let opened = Atomic<Int>(0)
        let pool = ConnectionPool<FakeConnection>(maximumCount: 1, acquireTimeout: .seconds(5)) {
            opened.add(1, ordering: .relaxed)
            return FakeConnection()
        }
        let holding = DispatchSemaphore(value: 0)
        let held = Mutex<(id: ObjectIdentifier?, done: Bool)>((nil, false))
        let holder = Thread {
            try? pool.withConnection { connection in
                held.withLock { $0.id = ObjectIdentifier(connection) }
                holding.signal()
                Thread.sleep(forTimeInterval: 0.3)
                held.withLock { $0.done = true }
            }
        }
        holder.start()
        holding.wait()
        let (borrowed, holderWasDone) = try pool.withConnection { (ObjectIdentifier($0), held.withLock { $0.done }) }
        #expect(holderWasDone, "lent only once the holder gave it back")
        #expect(borrowed == held.withLock { $0.id }, "the same connection, lent again")
        #expect(opened.load(ordering: .relaxed) == 1)
    }

    @Test func aBorrowerIsRefusedAsBusyAfterTheTimeout() throws {
        let pool = ConnectionPool<FakeConnection>(maximumCount: 1, acquireTimeout: .milliseconds(100)) {
            FakeConnection()
        }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
        }.start()
        holding.wait()
        defer { release.signal() }
        #expect {
            try pool.withConnection { _ in }
        } throws: { error in
            (error as? StoreError)?.code == .busy && "\(error)".contains("no database connection became free")
        }
    }
}
