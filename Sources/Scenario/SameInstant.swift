import PassModel
import ScenarioSyntax
import Simulation

/// Steps written together run at the same instant (SCENARIO-FORMAT.md, Semantics): a `>` step right
/// after another is made before any answer to the first has come. When a run fails for that reason
/// (a selection before its picker, a login with no page to fill), the failure says so and shows the
/// lines that let the answers come first (docs/CONFORMANCE.md, choice 111).
///
/// The cause is proven, not guessed: the calls that ran at the failing step's instant are found in
/// the run's trace, and the file is recorded again with time let run after each of them but the last
/// (`RecordingSession.waitsAfter`). Only when that run gets past the failing step is the hint given,
/// with what came in each wait as the `<` lines to add (in a file without `<` lines, the `clock`
/// lines that held time still).
enum SameInstant {
    /// The hint for a run of `file` that failed at `location`, its trace `trace`; nil when the calls
    /// at that instant were not written together or letting time run between them does not help.
    static func hint(
        _ file: ScenarioFile, failedAt location: SourceLocation, trace: [TraceEvent], runtime: ScenarioRunner.Runtime,
        mismatch: ScenarioRunner.Runtime.Mismatch?
    ) -> String? {
        // Only a simulated run is compared with the simulated probe: a port or a live network may fail
        // for its own reasons where the reference passes the file as written.
        guard runtime.port == nil, runtime.network == .simulated, mismatch?.kind != .instant,
            let failing = file.steps.lastIndex(where: { $0.location.line <= location.line })
        else { return nil }
        let group = calls(file, upTo: failing, trace: trace)
        guard group.count >= 2 else { return nil }
        // The recording again, time let run after each call of the group but the last.
        var probe = RecordingSession(file: file, fresh: false)
        probe.waitsAfter = Set(group.dropLast())
        let result = ScenarioRunner(runtime: runtime).run(file, &probe)
        if let failure = result.failure, failure.location.line <= location.line { return nil }
        // A `<` line that took another callback (or one left at the end): the instant is the cause only
        // if that callback never comes once time runs between the calls (a race the file means, its
        // line wrong, gets the same callback either way).
        if let actual = mismatch?.actual, mismatch?.kind != .extra || mismatch?.step == nil {
            let app = file.appNames.indices.contains(mismatch?.app ?? 0) ? file.appNames[mismatch?.app ?? 0] : ""
            let delivered = result.trace.contains { event in
                if case .callback(app, actual) = event.kind { true } else { false }
            }
            if delivered { return nil }
        }
        let lines = group.map { "\(file.steps[$0].location.line)" }
        let written = lines.dropLast().joined(separator: ", ") + " and " + (lines.last ?? "")
        var text = "lines \(written) ran at the same instant (\(instant(of: group.last ?? 0, file, trace))): "
        text += "steps written together happen at once, each before any answer to the one before came"
        if !file.isDraft {
            var additions: [String] = []
            for index in group.dropLast() {
                let new = probe.inserted[index] ?? []
                guard !new.isEmpty else { continue }
                additions.append(
                    "after line \(file.steps[index].location.line): " + new.map(\.text).joined(separator: "\n    "))
            }
            guard !additions.isEmpty else { return nil }
            text += ". A `<` line is where time runs; to let the answers come first, add\n    "
            return text + additions.joined(separator: "\n    ")
        }
        // A file without `<` lines waits after each step, unless a `clock` line holds time.
        let clocks = group.dropLast().compactMap { index -> Int? in
            let next = index + 1
            guard next < file.steps.count, case .clock = file.steps[next].value else { return nil }
            return file.steps[next].location.line
        }
        guard !clocks.isEmpty else { return nil }
        let numbers = clocks.map(String.init)
        let named =
            numbers.count == 1
            ? "line \(numbers[0])"
            : "lines " + numbers.dropLast().joined(separator: ", ") + " and " + numbers[numbers.count - 1]
        return text + ". A `clock` line right after a call says how much time passes there: remove \(named) "
            + "to let the answers come first"
    }

    /// The `>` steps up to `failing` (indexes into `file.steps`) that ran at the instant of the last
    /// of them, in order, the failing step included when it is a call that could not be made.
    static func calls(_ file: ScenarioFile, upTo failing: Int, trace: [TraceEvent]) -> [Int] {
        let steps = file.steps[...failing].indices.filter {
            if case .call = file.steps[$0].value { true } else { false }
        }
        let times = trace.compactMap { event -> Instant? in if case .call = event.kind { event.time } else { nil } }
        guard let last = times.last ?? trace.last?.time else { return [] }
        // A failing call made no call event (its app's queue was not empty): it came at the last one's instant.
        var timed = zip(steps, times).map { (step: $0, time: $1) }
        if steps.count == times.count + 1, let step = steps.last { timed.append((step, last)) }
        guard let instant = timed.last?.time else { return [] }
        var group: [Int] = []
        for call in timed.reversed() {
            guard call.time == instant else { break }
            group.insert(call.step, at: 0)
        }
        return group
    }

    /// The instant of the call at step `index`, as the transcript writes times (`40ms`).
    static func instant(of index: Int, _ file: ScenarioFile, _ trace: [TraceEvent]) -> String {
        let calls = trace.filter { if case .call = $0.kind { true } else { false } }
        let position = file.steps[...index].filter { if case .call = $0.value { true } else { false } }.count - 1
        let time = position < calls.count ? calls[position].time : (calls.last?.time ?? .simulationStart)
        return "\(time - .simulationStart)"
    }
}
