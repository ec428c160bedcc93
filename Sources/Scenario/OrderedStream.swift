import Foundation

/// Hands each scenario's report line to `emit` as soon as it and every file before it have ended, so
/// results appear while the run goes on (also with `--jobs` and `--live`) and the bytes written are
/// still those of a run with one job: the order is the files', never the threads'.
final class OrderedStream: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String?]
    private var next = 0
    private let emit: @Sendable (String) -> Void

    init(count: Int, emit: @escaping @Sendable (String) -> Void) {
        slots = Array(repeating: nil, count: count)
        self.emit = emit
    }

    /// File `index` ended with `text` (possibly empty).
    func finished(_ index: Int, _ text: String) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = text
        while next < slots.count, let ready = slots[next] {
            if !ready.isEmpty { emit(ready) }
            slots[next] = ""
            next += 1
        }
    }
}
