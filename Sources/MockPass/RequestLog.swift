import PassModel

/// The requests the mock received, oldest first, bounded by `MockLimits.logEntries` and `logBytes`
/// (the oldest dropped first). Each entry has a sequence number, 1 for the first request ever
/// logged, that stays the same however many are dropped before it, so a reader can page through.
public struct RequestLog: Sendable {
    public let maxEntries: Int?
    public let maxBytes: Int?
    /// Dropped entries stay in `entries` (before `head`) until compacting them pays off.
    private var entries: [LoggedRequest] = []
    private var sizes: [Int] = []
    private var head = 0
    /// How many requests were dropped, oldest first; the sequence of the first entry kept is `dropped + 1`.
    public private(set) var dropped = 0
    /// The size of the entries kept, as `LoggedRequest.size` counts it.
    public private(set) var bytes = 0

    public init(maxEntries: Int? = nil, maxBytes: Int? = nil) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    public var count: Int { entries.count - head }

    /// Every entry kept, oldest first.
    public var all: [LoggedRequest] { head == 0 ? entries : Array(entries[head...]) }

    /// Up to `limit` entries with a sequence number greater than `after` (from the oldest kept when
    /// `after` is older), and the sequence number of the last one given (`after` when none was).
    public func page(after: Int, limit: Int) -> (entries: [LoggedRequest], last: Int) {
        // Compared before adding, so no `after` a client sends can overflow.
        let skip = max(after, dropped) - dropped
        guard skip < count, limit > 0 else { return ([], max(after, dropped)) }
        let first = head + skip
        let end = first + min(limit, entries.count - first)
        return (Array(entries[first..<end]), dropped + (end - head))
    }

    /// Records the answer to the newest entry (see `LoggedRequest.record`).
    mutating func recordAnswer(_ response: HTTPResponse) {
        guard count > 0 else { return }
        entries[entries.count - 1].record(response)
    }

    mutating func append(_ entry: LoggedRequest) {
        let size = entry.size
        entries.append(entry)
        sizes.append(size)
        bytes += size
        // The newest entry always stays, even alone over the byte cap (its values are truncated).
        while count > 1, (maxEntries.map { count > $0 } ?? false) || (maxBytes.map { bytes > $0 } ?? false) {
            bytes -= sizes[head]
            // Its values are let go now, not when the array is compacted.
            entries[head].parameters = []
            entries[head].headers = []
            head += 1
            dropped += 1
        }
        if head > 1024, head >= count {
            entries.removeFirst(head)
            sizes.removeFirst(head)
            head = 0
        }
    }
}
