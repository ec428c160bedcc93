import PassModel
import Testing
@testable import MockPass

/// `MockPass.storeOccupancy` (`GET /admin/stores`): a store past its cap reads as full at its cap.
@Suite struct StoreOccupancyTests {
    @Test func aStoreAtItsCapReadsFull() throws {
        var limits = MockLimits.simulated
        limits.loginSessions = 3
        var mock = MockPass(world: sampleWorld(), seed: 1, limits: limits)
        let empty = Dictionary(uniqueKeysWithValues: mock.storeOccupancy.map { ($0.store, $0) })
        #expect(
            empty["login-sessions"]
                == StoreOccupancy(
                    store: "login-sessions", limit: "mock-login-sessions", count: 0, capacity: 3, bytes: 0,
                    maxBytes: 32 << 20))
        #expect(empty.values.allSatisfy { $0.count == 0 && !$0.full })
        for _ in 0..<5 {
            var b = Browser(mock)
            #expect(b.get(loginURL()).status == 200)
            mock = b.mock
        }
        let after = Dictionary(uniqueKeysWithValues: mock.storeOccupancy.map { ($0.store, $0) })
        let sessions = try #require(after["login-sessions"])
        #expect(sessions.count == 3 && sessions.full)
        #expect(try #require(sessions.bytes) > 0)
        #expect(after["v2-sessions"]?.full == false)
        // A simulated run's log has no cap: never full.
        #expect(after["request-log"]?.full == false)
    }

    /// A store capped in bytes before its count reads full too.
    @Test func aStoreAtItsByteCapReadsFull() {
        let o = StoreOccupancy(store: "s", limit: "l", count: 10, capacity: 20_000, bytes: 60_000, maxBytes: 65_536)
        #expect(o.full)
        #expect(
            !StoreOccupancy(store: "s", limit: "l", count: 10, capacity: 20_000, bytes: 1_000, maxBytes: 65_536).full)
    }
}
