import MockPass
import PassModel
import ScenarioSyntax
import Simulation

extension ScenarioFile {
    /// A file with no `<` line at all: `passim record` writes it as an app that waits for each step's
    /// answers before its next step would run it (`Recorder`).
    var isDraft: Bool { !steps.contains { if case .expect = $0.value { return true } else { return false } } }
}

/// What a recording run decides about the file's `<` lines, step by step (see `Recorder`).
struct RecordingSession {
    /// A new `<` line: what the file will say, and the callback's canonical text for the transcript.
    struct NewLine {
        var text: String
        var canonical: String
    }

    /// Rewrite a `<` line even when its pattern still matches what came.
    let fresh: Bool
    /// The file has no `<` line at all (a draft): after each `>` and `user` step time runs until the
    /// engine awaits no HTTP answer, unless a `clock` line follows (see `Recorder`).
    let runsTimeAfterCalls: Bool
    /// Steps after which time runs until the engine awaits no answer, whatever the file says: how
    /// `SameInstant` proves that calls written together failed for being made at once.
    var waitsAfter: Set<Int> = []
    var writer: PatternWriter
    /// Per step index: the new text of a `<` step, or nil when it is removed. A step not listed
    /// is kept byte for byte.
    private(set) var replaced: [Int: String?] = [:]
    /// Per step index: new `<` lines that go right after that step's line (-1: before the first step).
    private(set) var inserted: [Int: [NewLine]] = [:]
    /// Per app: for each callback waiting in its queue, the step during which it was delivered.
    private var deliveredAt: [[Int]]
    /// Per app: the last step whose `<` line took one of its callbacks.
    private var lastTaken: [Int]

    init(file: ScenarioFile, fresh: Bool) {
        self.fresh = fresh
        runsTimeAfterCalls = file.isDraft
        writer = PatternWriter(file: file)
        deliveredAt = Array(repeating: [], count: file.appNames.count)
        lastTaken = Array(repeating: -1, count: file.appNames.count)
    }

    mutating func remove(step: Int) { replaced[step] = .some(nil) }
    mutating func replace(step: Int, with text: String) { replaced[step] = .some(text) }

    /// Any change to write at all.
    var isEmpty: Bool { replaced.isEmpty && inserted.isEmpty }

    /// Queue lengths seen after a step: what is new was delivered during `step`.
    mutating func noteQueues(_ counts: [Int], step: Int) {
        for (app, count) in counts.enumerated() where app < deliveredAt.count {
            while deliveredAt[app].count < count { deliveredAt[app].append(step) }
        }
    }

    /// A `<` line of `app` took the head of its queue.
    mutating func took(app: Int, at step: Int) {
        if !deliveredAt[app].isEmpty { deliveredAt[app].removeFirst() }
        lastTaken[app] = step
    }

    /// A callback no `<` line took, written after the step it was delivered in, but never before
    /// the app's last `<` line: there it replays without running time, and queue order is kept.
    mutating func insertUntaken(app: Int, _ line: NewLine, currentStep: Int) {
        let delivered = deliveredAt[app].isEmpty ? currentStep : deliveredAt[app].removeFirst()
        // What the end of the file let come goes after the last step.
        inserted[min(max(delivered, lastTaken[app]), currentStep), default: []].append(line)
    }
}

/// `passim record`: the recording side of a run, where callbacks go instead of being checked.
extension RecordingSession: ExpectationPolicy {
    /// A recording writes what comes, in the order it comes.
    func reorderWindow(_ run: RunState) -> Millis? { nil }

    /// Callbacks of the app that no `<` line took become new `<` lines before its `>` step.
    mutating func beforeCall(app: Int, name: String?, _ step: Located<Step>, _ run: inout RunState) {
        writeUntaken(app: app, &run)
    }

    /// A `<` line that found nothing is removed.
    mutating func nothingCame(_ e: Expectation, _ run: inout RunState) {
        remove(step: run.stepIndex)
    }

    /// A `<` line took `callback`: keep the line when its pattern matches (and the recording is not
    /// fresh), else write the callback there. Matching first also binds the file's own `$names`, so a
    /// later `> handleExternalURL($url)` still has its value.
    /// A line's `at T` is kept as written (a pinned time is behaviour, not output); only a fresh
    /// recording writes the time the callback came (SCENARIO-FORMAT.md, Semantics).
    mutating func took(_ callback: Callback, delivered: Millis, _ e: Expectation, _ run: inout RunState) {
        took(app: e.app, at: run.stepIndex)
        let matched = Matcher.match(e.pattern, callback, bindings: &run.bindings)
        if !matched || fresh {
            var text = RunState.prefix(e.name, "<") + writer.text(for: callback, bindings: run.bindings)
            if let pinned = e.pinned { text += " at \(fresh ? delivered : pinned)" }
            if text != e.step.text { replace(step: run.stepIndex, with: text) }
        }
        run.record(e.step, e.line(callback, delivered: delivered))
    }

    /// After each step: the rule for files without `<` lines, then which callbacks arrived during the step.
    mutating func after(_ step: Located<Step>, _ run: inout RunState) {
        switch step.value {
        case .call, .userLogin, .userBack, .userPick, .userPickOther, .userCancel, .userEnterCode,
            .userAuthenticate:
            // In a draft the app waits for what it asked before its next step, unless a `clock` line
            // right after says how much time passes there (`clock +0ms`: none, the next step comes at
            // the same instant).
            if waitsAfter.contains(run.stepIndex)
                || (runsTimeAfterCalls && !RecordingSession.nextStepIsAClock(run))
            {
                RecordingSession.runUntilAnswered(run)
            }
        case .expect, .browserAt, .clock, .net, .seen, .lint, .http:
            break
        }
        noteDeliveries(run)
    }

    /// Whatever is left at the end is written after the step it came in.
    mutating func finish(at location: SourceLocation, _ run: inout RunState) {
        noteDeliveries(run)
        for i in run.simulator.appNames.indices { writeUntaken(app: i, &run) }
    }

    /// Notes which callbacks arrived during the current step.
    mutating func noteDeliveries(_ run: RunState) {
        let sim = run.simulator
        noteQueues(sim.appNames.indices.map { sim.pendingCallbacks(app: $0).count }, step: run.stepIndex)
    }

    /// Callbacks of `app` that no `<` line took (found before its `>` step or at the end) become new `<` lines.
    mutating func writeUntaken(app i: Int, _ run: inout RunState) {
        let name: String? = i == 0 ? nil : run.simulator.appNames[i]
        while let callback = run.simulator.popCallback(app: i) {
            let text = RunState.prefix(name, "<") + writer.text(for: callback, bindings: run.bindings)
            insertUntaken(
                app: i, .init(text: text, canonical: RunState.prefix(name, "<") + callback.description),
                currentStep: run.stepIndex - 1)
        }
    }

    /// The step after the current one is a `clock` line: it says itself how much time passes.
    static func nextStepIsAClock(_ run: RunState) -> Bool {
        let next = run.stepIndex + 1
        guard next < run.file.steps.count, case .clock = run.file.steps[next].value else { return false }
        return true
    }

    /// The rule for a file without `<` lines: after a call or a user step, time runs until none of
    /// the engines' HTTP requests awaits its answer (a request to a silent host never gets one and is
    /// not waited for). What came is written after the step it came in.
    static func runUntilAnswered(_ run: RunState) {
        let sim = run.simulator
        // Per host: requests the engines sent since the call that still await their answer.
        var awaiting: [LoggedRequest.Host: Int] = [:]
        // From the step's first event: the requests it sent count too.
        var scanned = run.stepTraceStart
        var budget = ScenarioRunner.maxEvents
        func settled() -> Bool {
            let trace = sim.trace
            while scanned < trace.count {
                switch trace[scanned].kind {
                case .request(.engine, _, _, let host?) where sim.network.links[host]?.mode != .silent:
                    awaiting[host, default: 0] += 1
                case .response(.engine, _, _, let host?):
                    if let n = awaiting[host], n > 0 { awaiting[host] = n - 1 }
                default: break
                }
                scanned += 1
            }
            budget -= 1
            return budget <= 0 || awaiting.values.allSatisfy { $0 == 0 }
        }
        sim.run(until: settled)
    }
}
