import PassModel

/// A dictionary whose entries end at an instant and whose size is capped, the least recently stored
/// entry going first. Which entry goes never depends on hashing: a FIFO of (key, expiry, stamp)
/// records, one per `set`, gives the order; a record whose key was stored again or removed since
/// is stale and skipped. Expiry is checked from the front of the FIFO on every `expire`, so it costs
/// O(1) per request; an entry stuck behind a longer-lived one waits there (bounded by the cap), and
/// lookups check the expiry themselves, so a late removal is never visible.
///
/// A store may also be capped in bytes (`maxBytes`, as `Footprint` counts them): past it the oldest
/// entries go as they do past the count, the newest always staying. A value a request puts into an
/// entry is held to `mock-value-bytes` at the door, but an entry may hold a document (an authZ
/// token keeps its resource as given, an MRSS of up to a megabyte): the byte cap bounds those too.
struct ExpiringStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Slot: Sendable {
        var value: Value
        var expires: Instant
        var stamp: Int
        var bytes: Int
    }

    private struct Record: Sendable {
        var key: Key
        var expires: Instant
        var stamp: Int
    }

    /// An entry stored `.forever` is only ever dropped by the cap.
    static var forever: Instant { Instant(milliseconds: .max) }

    let capacity: Int
    let maxBytes: Int?
    private let footprint: @Sendable (Key, Value) -> Int
    /// The entries' size, as `footprint` counts it (0 for a store without a byte cap).
    private(set) var bytes = 0
    private var slots: [Key: Slot] = [:]
    private var order: [Record] = []
    private var head = 0
    private var nextStamp = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        maxBytes = nil
        footprint = { _, _ in 0 }
    }

    /// A store capped in bytes as well as in count.
    init(capacity: Int, maxBytes: Int?) where Key: Footprint, Value: Footprint {
        self.capacity = max(capacity, 1)
        self.maxBytes = maxBytes
        // 64: the slot, the FIFO record and the dictionary's share, about.
        if maxBytes == nil {
            footprint = { _, _ in 0 }
        } else {
            footprint = { (key: Key, value: Value) -> Int in key.footprint + value.footprint + 64 }
        }
    }

    /// Entries held, live or not yet swept.
    var count: Int { slots.count }

    /// The value, while it lives at `now`.
    func value(_ key: Key, at now: Instant) -> Value? {
        guard let slot = slots[key], now < slot.expires else { return nil }
        return slot.value
    }

    /// Stores `value` until `expires`, as the newest entry; the oldest goes if the store is full.
    mutating func set(_ key: Key, _ value: Value, until expires: Instant) {
        let size = footprint(key, value)
        if let old = slots.updateValue(Slot(value: value, expires: expires, stamp: nextStamp, bytes: size), forKey: key)
        {
            bytes -= old.bytes
        }
        bytes += size
        order.append(Record(key: key, expires: expires, stamp: nextStamp))
        nextStamp += 1
        while slots.count > capacity || (slots.count > 1 && maxBytes.map { bytes > $0 } ?? false),
            let oldest = popFront()
        {
            drop(oldest)
        }
        compact()
    }

    mutating func remove(_ key: Key) { drop(key) }

    /// Order-free: which entries go depends only on the predicate, never on the dictionary's order.
    mutating func removeAll(where shouldRemove: (Key, Value) -> Bool) {
        slots = slots.filter { !shouldRemove($0.key, $0.value.value) }
        bytes = slots.values.reduce(0) { $0 + $1.bytes }
    }

    private mutating func drop(_ key: Key) {
        if let old = slots.removeValue(forKey: key) { bytes -= old.bytes }
    }

    /// Drops the entries at the front of the FIFO that ended by `now`.
    mutating func expire(at now: Instant) {
        while head < order.count, order[head].expires <= now {
            let record = order[head]
            head += 1
            if slots[record.key]?.stamp == record.stamp { drop(record.key) }
        }
        compact()
    }

    /// The key of the oldest live record, taken off the FIFO (stale records on the way are dropped).
    private mutating func popFront() -> Key? {
        while head < order.count {
            let record = order[head]
            head += 1
            if slots[record.key]?.stamp == record.stamp { return record.key }
        }
        return nil
    }

    /// Keeps the FIFO within a constant factor of the live entries; each pass is paid for by as many
    /// `set`s or pops since the last, so the cost per request stays O(1) amortized.
    private mutating func compact() {
        let pending = order.count - head
        if head > 1024, head >= pending {
            order.removeFirst(head)
            head = 0
        }
        if pending > 2 * slots.count + 1024 {
            order = order[head...].filter { slots[$0.key]?.stamp == $0.stamp }
            head = 0
        }
    }
}
