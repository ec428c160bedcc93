import Foundation
import ScenarioSyntax

/// `passim record`: runs a scenario and rewrites its `<` lines from what the engine does.
///
/// - An existing `<` line is where time runs, as in `passim run`. It is kept byte for byte when its
///   pattern matches the callback that comes there (unless `fresh`); otherwise that callback is
///   written there (`PatternWriter` says how volatile values are written).
/// - Callbacks that no `<` line took, found before a `>` step of their app or at the end, become new
///   `<` lines (`NAME<` for a second app) right after the step they arrived in, but never above that
///   app's last `<` line: there they replay already queued, so time runs exactly where it ran.
/// - A `<` line that found nothing (the engine went idle) is removed.
/// - A file with no `<` line at all (a draft): the app waits for what it asked before each next step.
///   After each `>` and `user` step time runs until none of the engine's HTTP requests awaits its
///   answer, or nothing is pending, and what came is written after that step; unless a `clock +D`
///   line comes right after the step, which says itself how much time passes there (`clock +0ms`:
///   none, the next step comes at the same instant, as two `>` steps written together do in a file
///   with `<` lines). ("Until a callback comes" is not enough: on tvOS the selection tracking comes at
///   once and the registration code a round trip later, and `user enter-code` needs the code.)
/// Comments, blank lines, world and every other step stay byte for byte. The recorded text is run
/// before it is returned: a recording that would not pass is an error, never a file.
public struct Recorder: Sendable {
    public var fresh: Bool

    public init(fresh: Bool = false) {
        self.fresh = fresh
    }

    public struct Recording: Sendable {
        public var path: String
        public var original: String
        /// The file's new text (equal to `original` when nothing changed).
        public var text: String
        public var changed: Bool { text != original }
        /// The recording run: its transcript is what the new text says.
        public var result: ScenarioResult
        /// The new text run as `passim run` runs it.
        public var replay: ScenarioResult
        /// The recording only adds `<` lines or only removes some; every other one stays as written
        /// (what `passim run --update missing` writes).
        public var onlyAddsOrRemoves: Bool
    }

    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The file cannot be read or parsed (exit status 2).
        case unusable(String)
        /// A step other than `<` failed, or the recorded text does not pass (exit status 1).
        case failed(String)

        public var description: String {
            switch self {
            case .unusable(let m), .failed(let m): return m
            }
        }
    }

    public func record(fileAt path: String) throws(Failure) -> Recording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unusable("\(path):1:1: cannot read file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unusable("\(path):1:1: cannot read file: not valid UTF-8")
        }
        return try record(text: text, path: path)
    }

    public func record(text: String, path: String) throws(Failure) -> Recording {
        let file: ScenarioFile
        do {
            file = try ScenarioParser.parse(text, path: path)
        } catch {
            throw .unusable(error.description)
        }
        let runner = ScenarioRunner()
        var session = RecordingSession(file: file, fresh: fresh)
        var result = runner.run(file, &session)
        if let failure = result.failure {
            let hint = SameInstant.hint(
                file, failedAt: failure.location, trace: result.trace, runtime: .simulated, mismatch: result.mismatch)
            throw .failed(
                "cannot record \(failure.location): \(failure.message)" + (hint.map { "\nhint: " + $0 } ?? ""))
        }
        result.actual = session.transcript(file, actual: result.actual)
        let newText = session.isEmpty ? text : ScenarioRewriter.rewrite(text, file: file, session: session)
        let newFile: ScenarioFile
        do {
            newFile = try ScenarioParser.parse(newText, path: path)
        } catch {
            throw .failed("the recorded text of \(path) does not parse (a bug of passim record):\n\(error.description)")
        }
        let replay = runner.run(newFile)
        if replay.status != .passed {
            throw .failed("the recorded text of \(path) does not pass, so it was not written:\n" + replay.failureReport)
        }
        let before = Recorder.expectationTexts(file)
        let after = Recorder.expectationTexts(newFile)
        let onlyAddsOrRemoves = Recorder.isSubsequence(before, of: after) || Recorder.isSubsequence(after, of: before)
        return Recording(
            path: path, original: text, text: newText, result: result, replay: replay,
            onlyAddsOrRemoves: onlyAddsOrRemoves)
    }

    static func expectationTexts(_ file: ScenarioFile) -> [String] {
        file.steps.compactMap { if case .expect = $0.value { return $0.text } else { return nil } }
    }

    static func isSubsequence(_ a: [String], of b: [String]) -> Bool {
        var j = 0
        for x in a {
            while j < b.count, b[j] != x { j += 1 }
            guard j < b.count else { return false }
            j += 1
        }
        return true
    }
}

extension RecordingSession {
    /// The recording run's transcript as the new file will run it: each step's line where it stays,
    /// new `<` lines where they are inserted.
    func transcript(_ file: ScenarioFile, actual: [TranscriptLine]) -> [TranscriptLine] {
        var byLine: [Int: [TranscriptLine]] = [:]
        for line in actual { byLine[line.line, default: []].append(line) }
        var out: [TranscriptLine] = []
        for line in inserted[-1] ?? [] { out.append(TranscriptLine(line: 0, text: line.canonical)) }
        for (index, step) in file.steps.enumerated() {
            out += byLine[step.location.line] ?? []
            for line in inserted[index] ?? [] { out.append(TranscriptLine(line: 0, text: line.canonical)) }
        }
        return out
    }
}
