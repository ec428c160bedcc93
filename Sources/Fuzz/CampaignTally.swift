import Foundation

/// What the workers of a campaign share: the next run to claim and the report, under one lock.
final class CampaignTally<Report: Sendable>: @unchecked Sendable {
    // @unchecked: `next` and `state` are read and written under `lock`.
    private let lock = NSLock()
    private var next = 0
    private var state: Report

    init(_ report: Report) { state = report }

    /// The next number (0, 1, 2, …): each is handed out once, whichever thread asks.
    func claim() -> Int {
        lock.withLock {
            next += 1
            return next - 1
        }
    }

    /// How many numbers `claim` has handed out.
    var claimed: Int { lock.withLock { next } }

    var report: Report { lock.withLock { state } }

    @discardableResult
    func update<T>(_ change: (inout Report) -> T) -> T { lock.withLock { change(&state) } }
}
