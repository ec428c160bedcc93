import Foundation

/// Maps `items` on `jobs` threads; the results come back in the order of `items`, so output never
/// depends on which thread finished first. Each item's work must own all its state (a scenario run
/// builds its own Simulator), which `@Sendable` enforces.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @escaping @Sendable (T) -> R) -> [R] {
    let workers = min(max(jobs, 1), items.count)
    if workers <= 1 { return items.map(body) }
    let box = ResultBox<R>(count: items.count)
    onThreads(workers) { _ in
        while let index = box.claim() {
            box.store(body(items[index]), at: index)
        }
    }
    return box.results()
}

/// Runs `body(0)` … `body(count - 1)` each on its own thread and returns when all have. Unlike
/// `DispatchQueue.concurrentPerform`, which runs no more bodies at once than there are cores, every
/// body starts at once: workers that mostly wait (on a served mock's latencies) can outnumber the cores.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    if count <= 1 {
        body(0)
        return
    }
    let done = DispatchSemaphore(value: 0)
    for worker in 0..<count {
        let thread = Thread {
            body(worker)
            done.signal()
        }
        // Scenario runs recurse a little (value printing, XML); give them room like the main thread.
        thread.stackSize = 8 << 20
        thread.start()
    }
    for _ in 0..<count { done.wait() }
}

/// The shared state of `parallelMap`: the next index to claim and the result slots, under a lock.
private final class ResultBox<R>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [R?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ value: R, at index: Int) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func results() -> [R] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
