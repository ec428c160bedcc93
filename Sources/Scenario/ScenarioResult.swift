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
    /// Everything the simulation did (calls, callbacks, HTTP exchanges, user actions), in order.
    public var trace: [TraceEvent] = []

    /// The actual transcript as text: the bytes that must be identical across runs.
    public var transcript: String { actual.map { $0.text + "\n" }.joined() }
}

extension ScenarioResult {
    /// The failure report of SCENARIO-FORMAT.md: file and line, the expected and actual transcripts
    /// side by side with the first difference marked, and the command that replays it.
    public var failureReport: String {
        guard let failure else { return "" }
        var out = "FAIL \(failure.location): \(failure.message)\n"
        let count = max(expected.count, actual.count)
        let width = min(max(expected.map(\.text.count).max() ?? 0, 8), 70)
        // The first difference is the failing step (a matching pattern line differs in text, not in meaning).
        let firstDiff = actual.indices.last
        out += "    " + "expected".padding(width) + " | actual\n"
        for i in 0..<count {
            let e = i < expected.count ? expected[i].text : ""
            let a = i < actual.count ? actual[i].text : ""
            let mark = i == firstDiff ? ">>> " : "    "
            out += mark + String(e.prefix(width)).padding(width) + " | " + a + "\n"
        }
        out += "replay: passim run \(path)\n"
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
