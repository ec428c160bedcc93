import Harness
import ScenarioSyntax
import Simulation

/// One line of a transcript: what a step says, as written (expected) or as it happened (actual).
public struct TranscriptLine: Hashable, Sendable {
    public var line: Int
    public var text: String
}

/// The outcome of running one scenario.
public struct ScenarioResult: Sendable {
    public enum Status: String, Sendable {
        case passed, failed
        /// The port said it does not implement what a step asked (`passim run --port`).
        case unimplemented
    }

    /// How the run is judged once a port's expectations file is read.
    public enum Verdict: String, Sendable {
        case passed, failed, unimplemented
        /// Failed (or unimplemented) as the expectations file says.
        case expectedFailure
        /// Passed although the expectations file says it fails: the line is stale.
        case unexpectedPass
    }

    public var path: String
    public var title: String
    public var status: Status
    /// Steps run (a failing step included).
    public var steps: Int
    /// The file's step lines.
    public var expected: [TranscriptLine]
    /// What happened, step by step; a callback nobody expected is listed where it was found.
    public var actual: [TranscriptLine]
    /// Why it failed, where.
    public var failure: (message: String, location: SourceLocation)?
    /// The failure as data, when the run parted from a `<` line or could not carry a user step out
    /// (what an expectations file's `differ` rules read); nil for other failures.
    public var mismatch: ScenarioRunner.Runtime.Mismatch?
    /// Everything the simulation did (calls, callbacks, HTTP exchanges, user actions), in order.
    public var trace: [TraceEvent] = []
    /// The `passim run` options that select the runtime it ran in (`--live`, `--port '…'`), for the replay line.
    public var runtimeFlags = ""
    /// The reason of the expectations file's `fail` rule for this scenario, if one matches.
    public var expectedToFail: String?
    /// The lines exchanged with a port (`passim run --port-log`): `0ms > {…}` the harness's, `0ms < {…}`
    /// the port's; empty without a port or unless its command keeps them.
    public var portConversation: [String] = []
    /// How many messages the port was sent after `hello`: 0 when the scenario never asked it anything
    /// (its steps were all the harness's own); nil without a port.
    public var portAsked: Int?
    /// Why the failure came, when the file's steps say otherwise than the author meant (`SameInstant`:
    /// calls written together ran at once), with what to write; printed under the table.
    public var hint: String?

    public var verdict: Verdict {
        switch (status, expectedToFail) {
        case (.passed, nil): return .passed
        case (.passed, _?): return .unexpectedPass
        case (_, _?): return .expectedFailure
        case (.failed, nil): return .failed
        case (.unimplemented, nil): return .unimplemented
        }
    }

    /// Counts against the run (exit status 1).
    public var isFailure: Bool { [.failed, .unimplemented, .unexpectedPass].contains(verdict) }

    /// The actual transcript as text: the bytes that must be identical across runs.
    public var transcript: String { actual.map { $0.text + "\n" }.joined() }
}

extension ScenarioResult {
    /// The widest a cell of the failure report's table is (both columns, so the two fit in 120
    /// columns beside the marks): a longer line is cut to it, its last character an ellipsis.
    public static let cellWidth = 56

    /// The failure report of SCENARIO-FORMAT.md: file and line, the expected and actual transcripts
    /// side by side with the first difference marked, and the command that replays it. Both columns are
    /// cut at `cellWidth`, each cut line ending in `…` (`passim run -v`: `failureReport(whole: true)`).
    public var failureReport: String { failureReport(whole: false) }

    /// `whole`: every line as it is, the expected column as wide as its longest line (`passim run -v`).
    public func failureReport(whole: Bool) -> String {
        guard let failure else { return "" }
        var out = "FAIL \(failure.location): \(failure.message)\n"
        let count = max(expected.count, actual.count)
        let longest = whole ? expected.map(\.text.count).max() ?? 0 : (expected + actual).map(\.text.count).max() ?? 0
        let width = whole ? max(longest, 8) : min(max(longest, 8), ScenarioResult.cellWidth)
        var cut = false
        func cell(_ text: String) -> String {
            guard !whole, text.count > width else { return text }
            cut = true
            return String(text.prefix(width - 1)) + "…"
        }
        // The first difference is the failing step (a matching pattern line differs in text, not in meaning).
        let firstDiff = actual.indices.last
        out += "    " + "expected".padding(width) + " | actual\n"
        for i in 0..<count {
            let e = i < expected.count ? expected[i].text : ""
            let a = i < actual.count ? actual[i].text : ""
            let mark = i == firstDiff ? ">>> " : "    "
            out += mark + cell(e).padding(width) + " | " + cell(a) + "\n"
        }
        if cut { out += "(lines cut at \(width) characters: passim run -v prints them whole)\n" }
        if let hint { out += "hint: \(hint)\n" }
        out += "replay: passim run \(runtimeFlags)\(path)\n"
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
