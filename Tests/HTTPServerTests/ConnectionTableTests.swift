import Testing

@testable import HTTPServer

/// The connection bookkeeping on its own, with the time given: caps, eviction order and deadlines.
struct ConnectionTableTests {
    static let limits = ConnectionLimits(
        total: 4, perAddress: 2, headSeconds: 10, keepAliveSeconds: 15, bodySeconds: 30, reserve: 1)

    @Test func capsConnectionsPerAddress() {
        var table = ConnectionTable(limits: Self.limits)
        #expect(table.admit(address: "10.0.0.1") == .admit)
        table.opened(key: 1, socket: 11, address: "10.0.0.1", now: 0)
        table.opened(key: 2, socket: 12, address: "10.0.0.1", now: 0)
        #expect(table.admit(address: "10.0.0.1") == .refuse(.perAddress))
        #expect(table.admit(address: "10.0.0.2") == .admit)
        table.closed(key: 1)
        #expect(table.admit(address: "10.0.0.1") == .admit)
        #expect(table.countsByAddress == ["10.0.0.1": 1])
    }

    @Test func nearTheCapTheLongestWaitingConnectionMakesRoomIdleOnesFirst() {
        var table = ConnectionTable(limits: ConnectionLimits(total: 4, perAddress: nil, reserve: 1))
        table.opened(key: 1, socket: 11, address: "a", now: 0)  // waiting for its first head since 0
        table.opened(key: 2, socket: 12, address: "b", now: 1)
        table.opened(key: 3, socket: 13, address: "c", now: 2)
        // Key 3 served a request and idles on keep-alive: it goes first although it waits least long.
        table.headReceived(key: 3, now: 2)
        table.handling(key: 3)
        table.completed(key: 3, now: 3)
        #expect(table.admit(address: "d") == .admitEvicting(key: 3, socket: 13, address: "c"))
        table.opened(key: 4, socket: 14, address: "d", now: 4)
        #expect(table.admit(address: "e") == .admitEvicting(key: 1, socket: 11, address: "a"))
        // A connection being handled is never evicted.
        table.headReceived(key: 2, now: 5)
        table.handling(key: 2)
        table.headReceived(key: 4, now: 5)
        table.handling(key: 4)
        table.opened(key: 5, socket: 15, address: "e", now: 5)
        table.headReceived(key: 5, now: 5)
        #expect(table.admit(address: "f") == .admit, "the reserve is for new connections when nothing can go")
        table.opened(key: 6, socket: 16, address: "f", now: 5)
        table.headReceived(key: 6, now: 5)
        #expect(table.admit(address: "g") == .refuse(.total))
        // The evicted ones leave when the library reports them closed.
        #expect(table.entries.count == 6)
        table.closed(key: 1)
        table.closed(key: 3)
        #expect(table.entries.count == 4)
        #expect(table.live == 4)
    }

    @Test func headDeadlineCountsFromTheConnectionNotFromTheLastByte() {
        var table = ConnectionTable(limits: Self.limits)
        table.opened(key: 1, socket: 11, address: "a", now: 100)
        #expect(table.expire(now: 109.9).isEmpty)
        let expired = table.expire(now: 110)
        #expect(expired.map(\.socket) == [11])
        #expect(expired.map(\.reason) == [.headTimeout])
        #expect(table.expire(now: 200).isEmpty, "a connection is cut off once")
    }

    @Test func bodyAndKeepAliveDeadlines() {
        var table = ConnectionTable(limits: Self.limits)
        table.opened(key: 1, socket: 11, address: "a", now: 0)
        table.headReceived(key: 1, now: 1)
        #expect(table.expire(now: 30.9).isEmpty)
        #expect(table.expire(now: 31).map(\.reason) == [.bodyTimeout])

        table.opened(key: 2, socket: 12, address: "a", now: 0)
        table.headReceived(key: 2, now: 1)
        table.handling(key: 2)
        #expect(table.expire(now: 1000).isEmpty, "no deadline while the handler runs")
        table.completed(key: 2, now: 1000)
        let idle = table.expire(now: 1015)
        #expect(idle.map(\.socket) == [12])
        #expect(idle.map(\.reason) == [nil], "an idle keep-alive connection running out is no refusal")
    }

    @Test func refusalLogLetsOneLinePerAddressPerMinuteThrough() {
        var throttle = RefusalLogThrottle()
        let decisions = [("a", 0.0), ("a", 59), ("b", 59), ("a", 60)].map { throttle.decide(address: $0, now: $1).log }
        #expect(decisions == [true, false, true, true])
    }

    @Test func refusalLogIsBoundedWhateverTheNumberOfAddresses() {
        var throttle = RefusalLogThrottle()
        let logged = (0..<1000).filter { throttle.decide(address: "2001:db8::\($0)", now: 1).log }.count
        #expect(logged == throttle.maximumLinesPerInterval)
        let next = throttle.decide(address: "fresh", now: 61)
        #expect(next.log)
        #expect(next.suppressedBefore == 1000 - throttle.maximumLinesPerInterval)
        #expect(throttle.decide(address: "fresh-2", now: 62).suppressedBefore == 0, "reported once")
    }

    @Test func anUnknownAddressIsNotCappedAndWaitingConnectionsCloseAtShutdown() {
        var table = ConnectionTable(limits: Self.limits)
        table.opened(key: 1, socket: 11, address: "", now: 0)
        table.opened(key: 2, socket: 12, address: "", now: 0)
        #expect(table.admit(address: "") == .admit)
        table.headReceived(key: 2, now: 1)
        table.handling(key: 2)
        #expect(table.closeWaiting() == [11], "the one being handled finishes")
        #expect(table.live == 1)
    }
}
