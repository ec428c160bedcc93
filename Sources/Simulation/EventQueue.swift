import PassModel

/// Pending simulated events ordered by (time, sequence number): two events at the same instant
/// happen in the order they were scheduled, so a run is a pure function of its inputs.
struct EventQueue<Payload: Sendable>: Sendable {
    struct Entry: Sendable {
        var time: Instant
        var sequence: Int
        var payload: Payload
    }

    private var heap: [Entry] = []
    private var nextSequence = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var nextTime: Instant? { heap.first?.time }

    mutating func schedule(_ payload: Payload, at time: Instant) {
        nextSequence += 1
        heap.append(Entry(time: time, sequence: nextSequence, payload: payload))
        siftUp(heap.count - 1)
    }

    mutating func popFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return first
    }

    /// Removes every event matching `predicate` (a cancelled timer, a closed browser's load).
    mutating func removeAll(where predicate: (Payload) -> Bool) {
        let before = heap.count
        heap.removeAll { predicate($0.payload) }
        if heap.count != before {
            for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        }
    }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }

    private mutating func siftUp(_ i0: Int) {
        var i = i0
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.precedes(heap[i], heap[parent]) else { return }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func siftDown(_ i0: Int) {
        var i = i0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < heap.count, Self.precedes(heap[l], heap[best]) { best = l }
            if r < heap.count, Self.precedes(heap[r], heap[best]) { best = r }
            if best == i { return }
            heap.swapAt(i, best)
            i = best
        }
    }
}
