import PassModel
import Testing
@testable import Simulation

@Suite struct EventQueueTests {
    @Test func ordersByTimeThenSequence() {
        var q = EventQueue<String>()
        let t0 = Instant.simulationStart
        q.schedule("late", at: t0 + Millis(50))
        q.schedule("first-at-10", at: t0 + Millis(10))
        q.schedule("second-at-10", at: t0 + Millis(10))
        q.schedule("early", at: t0)
        q.schedule("third-at-10", at: t0 + Millis(10))
        var out: [String] = []
        while let e = q.popFirst() { out.append(e.payload) }
        #expect(out == ["early", "first-at-10", "second-at-10", "third-at-10", "late"])
    }

    @Test func removalKeepsOrder() {
        var q = EventQueue<Int>()
        for i in 0..<200 { q.schedule(i, at: Instant.simulationStart + Millis(Int64((i * 37) % 50))) }
        q.removeAll { $0 % 3 == 0 }
        var last: (Instant, Int)?
        var n = 0
        while let e = q.popFirst() {
            #expect(e.payload % 3 != 0)
            if let (t, p) = last { #expect(t < e.time || (t == e.time && p < e.payload)) }
            last = (e.time, e.payload)
            n += 1
        }
        #expect(n == 200 - 67)
    }
}
