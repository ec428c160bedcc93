import PassModel

/// The throttle's buckets, one per key (`HTTPHeaders.throttleKey`), bounded in count without ever
/// handing a device its burst back while it is still calling. A plain least-recently-stored cap did:
/// 20,100 calls under other keys pushed a device's spent bucket out, and its next call found a fresh
/// one with a whole burst. Here, at the cap, a new key takes the place of a bucket whose forgetting
/// changes nothing (docs/CONFORMANCE.md, choice 95):
/// - one idle for `V2Limits.throttleIdle` (the least recently used goes first), or else
/// - one whose burst is whole and whose last call is a second behind it: a new bucket gives that
///   device exactly what the old one would (one call a second, the same burst).
/// When every bucket is live and spent, the new key is refused (429) and nothing is kept for it.
///
/// Both candidates are found in O(1) amortized: every call appends a record to `recent` (so its
/// front is the least recently used bucket, and when that one is not idle none is), and a call that
/// leaves the burst whole appends one to `whole` too. A record whose bucket was called again since
/// (another stamp) is stale and skipped, as in `ExpiringStore`.
struct V2BucketTable: Sendable {
    private struct Slot: Sendable {
        var bucket: V2Bucket
        var stamp: Int
    }

    private struct Record: Sendable {
        var key: String
        var at: Instant
        var stamp: Int
    }

    /// Records oldest first, read from `head`; a record whose key holds another stamp is stale.
    private struct Queue: Sendable {
        var records: [Record] = []
        var head = 0

        /// The first record still its bucket's newest, stale ones on the way dropped.
        mutating func front(live slots: [String: Slot]) -> Record? {
            while head < records.count {
                let record = records[head]
                if slots[record.key]?.stamp == record.stamp { return record }
                head += 1
            }
            return nil
        }

        /// Keeps the queue within a constant factor of the buckets held, as `ExpiringStore` does: each
        /// pass is paid for by as many calls since the last, so a call costs O(1) amortized.
        mutating func compact(live slots: [String: Slot]) {
            let pending = records.count - head
            if head > 1024, head >= pending {
                records.removeFirst(head)
                head = 0
            }
            if pending > 2 * slots.count + 1024 {
                records = records[head...].filter { slots[$0.key]?.stamp == $0.stamp }
                head = 0
            }
        }
    }

    let capacity: Int
    private var slots: [String: Slot] = [:]
    /// Every call; its front is the least recently used bucket.
    private var recent = Queue()
    /// The calls that left their bucket's burst whole.
    private var whole = Queue()
    private var nextStamp = 0

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Buckets held.
    var count: Int { slots.count }

    /// Takes a call of `key` at `now`: true when it may go through. False when the key's bucket is
    /// empty, or when the key is new and the table is full of live buckets (nothing is kept then).
    mutating func take(_ key: String, at now: Instant) -> Bool {
        var slot: Slot
        if let existing = slots[key] {
            slot = existing
        } else {
            if slots.count >= capacity, !evictOne(at: now) { return false }
            slot = Slot(bucket: V2Bucket(first: now), stamp: 0)
        }
        let allowed = slot.bucket.take(at: now)
        slot.stamp = nextStamp
        nextStamp += 1
        slots[key] = slot
        recent.records.append(Record(key: key, at: now, stamp: slot.stamp))
        if slot.bucket.burstLeft == V2Bucket.burst {
            whole.records.append(Record(key: key, at: now, stamp: slot.stamp))
        }
        recent.compact(live: slots)
        whole.compact(live: slots)
        return allowed
    }

    /// Forgets the buckets nobody has called for `V2Limits.throttleMemory` (the front of `recent`).
    mutating func expire(at now: Instant) {
        while let oldest = recent.front(live: slots), oldest.at + V2Limits.throttleMemory <= now {
            recent.head += 1
            slots[oldest.key] = nil
        }
        recent.compact(live: slots)
        whole.compact(live: slots)
    }

    /// Frees one place for a new key, or returns false when every bucket is live and spent.
    private mutating func evictOne(at now: Instant) -> Bool {
        if let oldest = recent.front(live: slots), oldest.at + V2Limits.throttleIdle <= now {
            recent.head += 1
            slots[oldest.key] = nil
            return true
        }
        // The oldest whole bucket's call is the longest ago of any whole bucket's: when it is not a
        // second behind, no whole bucket's is.
        if let oldest = whole.front(live: slots), oldest.at + Millis(1000) <= now {
            whole.head += 1
            slots[oldest.key] = nil
            return true
        }
        return false
    }
}
