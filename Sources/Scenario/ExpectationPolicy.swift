import PassModel
import ScenarioSyntax

/// A `<` step as the runner met it: the step, its app (index and name as written), its pattern and
/// its pinned time.
struct Expectation {
    var step: Located<Step>
    var app: Int
    var name: String?
    var pattern: CallSyntax
    var pinned: Millis?
}

/// What a run does with the file's `<` lines: `Checking` holds the engine to them (`passim run`),
/// `RecordingSession` writes them from what the engine does (`passim record`). The runner performs
/// every other step the same way under either, and asks the policy at each point where they differ.
protocol ExpectationPolicy {
    /// Before a `>` step of app `app`: what its queue still holds.
    mutating func beforeCall(app: Int, name: String?, _ step: Located<Step>, _ run: inout RunState) throws(StepError)
    /// How far past the next callback a `<` step may look for its own, taking it before callbacks of
    /// other flows (`RunState.bringForward`); nil: it takes the next one.
    func reorderWindow(_ run: RunState) -> Millis?
    /// A `<` step found its app's engine idle, time run out.
    mutating func nothingCame(_ expectation: Expectation, _ run: inout RunState) throws(StepError)
    /// A `<` step took `callback`, which was delivered `delivered` after the scenario's start.
    mutating func took(_ callback: Callback, delivered: Millis, _ expectation: Expectation, _ run: inout RunState)
        throws(StepError)
    /// After every step, before the invariants are read.
    mutating func after(_ step: Located<Step>, _ run: inout RunState)
    /// At the end of the file, once time has run until nothing is pending: what the queues still hold.
    mutating func finish(at location: SourceLocation, _ run: inout RunState) throws(StepError)
}

extension Expectation {
    /// Where this line parted from the run, as data (`Mismatch`).
    func mismatch(_ kind: ScenarioRunner.Runtime.Mismatch.Kind, _ run: RunState, actual: Callback? = nil)
        -> ScenarioRunner.Runtime.Mismatch
    {
        ScenarioRunner.Runtime.Mismatch(
            kind: kind, expected: .init(pattern, bindings: run.bindings), actual: actual, app: app, step: step.value)
    }

    /// The transcript's text for `callback` taken here; with `at`, when it came, so a wrong time
    /// shows in the side-by-side diff.
    func line(_ callback: Callback, delivered: Millis) -> String {
        RunState.prefix(name, "<") + callback.description + (pinned == nil ? "" : " at \(delivered)")
    }
}

/// `passim run`: every `<` line must match what comes, when it comes, and nothing may be left over.
struct Checking: ExpectationPolicy {
    /// `ScenarioRunner.reordersLanes`.
    var reordersLanes = true

    func beforeCall(app: Int, name: String?, _ step: Located<Step>, _ run: inout RunState) throws(StepError) {
        try run.requireEmptyQueue(app, name, step)
    }

    /// The expectations file's `timing N`: N of the world's longest round trips.
    func reorderWindow(_ run: RunState) -> Millis? {
        guard reordersLanes else { return nil }
        return run.expectations?.timing.map { Millis(Int64($0.roundTrips) * run.file.longestRoundTrip.value) }
    }

    func nothingCame(_ e: Expectation, _ run: inout RunState) throws(StepError) {
        run.record(e.step, RunState.prefix(e.name, "<") + "(nothing: engine idle)")
        throw StepError(
            message: "engine idle, expected \(e.pattern)", location: e.step.location,
            mismatch: e.mismatch(.missing, run))
    }

    func took(_ callback: Callback, delivered: Millis, _ e: Expectation, _ run: inout RunState) throws(StepError) {
        let line = e.line(callback, delivered: delivered)
        // The actual transcript shows the delivered values, so two runs compare byte for byte.
        run.record(e.step, line)
        guard run.accepts(e.pattern, callback, of: e.app, binding: true) else {
            throw StepError(
                message: "expected \(e.pattern), got \(callback)", location: e.step.location,
                mismatch: e.mismatch(.value, run, actual: callback))
        }
        run.lastTaken[e.app] = callback.description
        if let pinned = e.pinned, pinned != delivered, !run.withinTiming(delivered, of: pinned) {
            throw StepError(
                message: "\(callback.description) was delivered at \(delivered), the line pins it at \(pinned)"
                    + " (`passim record --fresh` rewrites a pinned time)", location: e.step.location,
                mismatch: e.mismatch(.instant, run, actual: callback))
        }
    }

    func after(_ step: Located<Step>, _ run: inout RunState) {}

    func finish(at location: SourceLocation, _ run: inout RunState) throws(StepError) {
        for (i, name) in run.simulator.appNames.enumerated() {
            if let extra = run.simulator.pendingCallbacks(app: i).first {
                let appName: String? = i == 0 ? nil : name
                run.actual.append(
                    TranscriptLine(line: location.line, text: RunState.prefix(appName, "<") + extra.description))
                throw StepError(
                    message: "callback left at the end: \(extra)", location: location,
                    mismatch: ScenarioRunner.Runtime.Mismatch(kind: .extra, actual: extra, app: i))
            }
        }
    }
}
