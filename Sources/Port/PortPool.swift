import Foundation

/// Port processes kept between scenarios (driver protocol 1.1, docs/PORTING.md "Reset"). A port whose
/// `ready` says `"reset": true` is not ended with its scenario: its process waits here, and the next
/// scenario of the run takes it and says `hello` again instead of starting a process. Each scenario
/// holds its process alone, so with `--jobs N` the pool never holds more than N.
///
/// Only a process left in a known state comes back: after a scenario whose port failed (an error,
/// a timeout, an exit, a line after its `idle`) the process is ended, and the next scenario starts a
/// fresh one, so a broken port never poisons the scenario after it.
public final class PortPool: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var idle: [PortProcess] = []
    private var started = 0

    public init() {}

    /// A kept process, or nil when none waits.
    func take() -> PortProcess? { lock.withLock { idle.popLast() } }

    func give(_ process: PortProcess) { lock.withLock { idle.append(process) } }

    /// Counts a process started for this run (for reports and tests).
    func countStart() { lock.withLock { started += 1 } }

    /// Port processes started so far in this run.
    public var processesStarted: Int { lock.withLock { started } }

    /// Ends every kept process (the end of a run).
    public func closeAll() {
        let all = lock.withLock { () -> [PortProcess] in
            defer { idle = [] }
            return idle
        }
        for process in all { process.close() }
    }

    deinit { closeAll() }
}
