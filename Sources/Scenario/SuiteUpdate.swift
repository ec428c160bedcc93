import Foundation
import ScenarioSyntax

/// `passim record` and `passim run --update`: which files to record, and writing them.
public enum SuiteUpdate {
    /// `--update missing|failed|all`.
    public enum Mode: String, CaseIterable, Sendable {
        /// Failing files whose recording only adds `<` lines or only removes some (a callback was
        /// missing or extra); every other `<` line stays as written.
        case missing
        /// Every failing file.
        case failed
        /// Every file that parses.
        case all
    }

    /// Why nothing may be written, or nil: recordings are made on a developer's machine and
    /// reviewed, never produced by CI to make a failing build pass.
    public static func refusal(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard environment["CI"] != nil else { return nil }
        return "passim: not writing scenario files: the CI environment variable is set "
            + "(record on a developer machine, review the diff, commit it)"
    }

    public struct Outcome: Sendable {
        /// Files rewritten.
        public var written: [String] = []
        /// One line per file considered: recorded, unchanged or left as is.
        public var log = ""
        /// Why files could not be written or recorded (diagnostics, failure reports), for standard error.
        public var errors = ""
        /// Files that could not be recorded (a non-`<` step failed, or the recording would not pass).
        public var failures = 0
        /// Files that could not be read or parsed.
        public var unusable = 0
    }

    /// Records `paths` and writes those that changed (and, for `.missing`, qualify).
    public static func record(_ paths: [String], mode: Mode = .all, recorder: Recorder = Recorder()) -> Outcome {
        var outcome = Outcome()
        for path in paths {
            do {
                let recording = try recorder.record(fileAt: path)
                guard recording.changed else {
                    outcome.log += "unchanged \(path)\n"
                    continue
                }
                if mode == .missing, !recording.onlyAddsOrRemoves {
                    outcome.log +=
                        "left as is \(path): more than missing or extra callbacks changed (use --update failed)\n"
                    continue
                }
                do {
                    try Data(recording.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    outcome.written.append(path)
                    outcome.log += "recorded \(path)\n"
                } catch {
                    outcome.failures += 1
                    outcome.errors += "passim: cannot write \(path): \(error.localizedDescription)\n"
                }
            } catch {
                switch error {
                case .unusable: outcome.unusable += 1
                case .failed: outcome.failures += 1
                }
                outcome.errors += error.description + "\n"
            }
        }
        return outcome
    }

    /// The files of a run that `mode` asks to record, in run order.
    public static func candidates(_ report: SuiteRun.Report, mode: Mode) -> [String] {
        report.results.filter { mode == .all || $0.status == .failed }.map(\.path)
    }
}
