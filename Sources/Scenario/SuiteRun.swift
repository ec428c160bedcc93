import Foundation
import Harness
import ScenarioSyntax

/// `passim run`: parse every file, run what parses, and report. Kept out of the executable so that
/// tests exercise exactly what users run.
public struct SuiteRun {
    /// Exit statuses of SCENARIO-FORMAT.md.
    public enum ExitStatus: Int32, Sendable {
        case passed = 0
        case failed = 1
        case unusable = 2
    }

    public struct Options: Sendable {
        public var verbose = false
        public var repeatCount = 1
        /// `--tag`: a scenario runs when it has any of these (none given: every scenario runs).
        public var tags: [String] = []
        public var shard: Shard?
        /// Threads; each scenario builds its own Simulator, and output is ordered as with one job.
        public var jobs = 1
        /// `passim run --live`: every scenario over loopback HTTP to its own live server; `--port`: a port.
        public var runtime: ScenarioRunner.Runtime = .simulated
        /// `--expect FILE`: the port's expected failures and skips.
        public var expectations: Runtime.Expectations?
        /// ANSI colours in the human output.
        public var color = false
        /// `--allow-empty`: a folder holding no scenario is not an error.
        public var allowEmpty = false
        /// Called after each file with (files done, files in all), from any thread.
        public var progress: (@Sendable (Int, Int) -> Void)?

        public init(verbose: Bool = false, repeatCount: Int = 1, tags: [String] = [], shard: Shard? = nil,
                    jobs: Int = 1, color: Bool = false) {
            self.verbose = verbose
            self.repeatCount = repeatCount
            self.tags = tags
            self.shard = shard
            self.jobs = jobs
            self.color = color
        }
    }

    /// What became of one file, in the order files were found.
    public enum Outcome: Sendable {
        case ran(ScenarioResult)
        /// The file could not be used: the diagnostic (`file:line:column: message`, line, caret).
        case unusable(path: String, diagnostic: String)
        /// Left out by `--tag`.
        case skipped(path: String)
        /// Left out by a `skip` rule of the port's expectations file.
        case excluded(path: String, reason: String)
    }

    public struct Report: Sendable {
        /// What goes to standard output: per-file lines, failure reports, transcripts, the summary.
        public var output: String
        /// Diagnostics of unusable input, for standard error.
        public var errors: String
        public var status: ExitStatus
        public var results: [ScenarioResult]
        public var outcomes: [Outcome] = []

        public var passed: Int { results.filter { $0.verdict == .passed }.count }
        public var failed: Int { results.filter(\.isFailure).count }
        public var unimplemented: Int { results.filter { $0.verdict == .unimplemented }.count }
        public var expectedFailures: Int { results.filter { $0.verdict == .expectedFailure }.count }
        public var unexpectedPasses: Int { results.filter { $0.verdict == .unexpectedPass }.count }
        public var excluded: Int { outcomes.filter { if case .excluded = $0 { return true } else { return false } }.count }
        public var unusable: Int { outcomes.filter { if case .unusable = $0 { return true } else { return false } }.count }
        public var skipped: Int { outcomes.filter { if case .skipped = $0 { return true } else { return false } }.count }
        /// Steps run in all (every repetition counted), for throughput figures.
        public var steps = 0
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    public func run(paths: [String]) -> Report {
        var files: [String]
        do {
            files = try SuiteLoader.files(in: paths, allowEmpty: options.allowEmpty)
        } catch {
            return Report(output: "", errors: "passim: \(error)\n", status: .unusable, results: [])
        }
        if let shard = options.shard { files = shard.select(files) }
        let options = self.options
        let counter = ProgressCounter(total: files.count, report: options.progress)
        let ran = parallelMap(files, jobs: options.jobs) { path -> (Outcome, Int) in
            defer { counter.tick() }
            return SuiteRun.runOne(path, options: options)
        }
        var report = Report(output: "", errors: "", status: .passed, results: [], outcomes: ran.map(\.0))
        report.steps = ran.map(\.1).reduce(0, +)
        let paint = Paint(enabled: options.color)
        for outcome in report.outcomes {
            switch outcome {
            case .ran(let result):
                report.results.append(result)
                switch result.verdict {
                case .passed: report.output += paint.green("ok") + "   \(result.path)\n"
                case .failed: report.output += paint.failureReport(result.failureReport)
                case .unimplemented:
                    report.output += paint.red("UNIMPLEMENTED") + " \(result.path): \(result.failure?.message ?? "")\n"
                case .expectedFailure: report.output += "XFAIL \(result.path) (\(result.expectedToFail ?? ""))\n"
                case .unexpectedPass:
                    report.output += paint.red("UNEXPECTED PASS") + " \(result.path): the expectations file says it fails (\(result.expectedToFail ?? "")); remove that line\n"
                }
                if options.verbose { report.output += "--- \(result.path): \(result.title)\n" + result.transcript }
            case .unusable(_, let diagnostic):
                report.errors += diagnostic + "\n"
            case .skipped:
                break
            case .excluded(let path, let reason):
                report.output += "SKIP \(path) (\(reason))\n"
            }
        }
        if let expectations = options.expectations {
            for rule in expectations.unused(among: files) {
                report.errors += "passim: warning: \(expectations.path):\(rule.line): \(rule.kind.rawValue) \(rule.pattern) matches no scenario of this run\n"
            }
        }
        report.status = report.unusable > 0 ? .unusable : report.failed > 0 ? .failed : .passed
        report.output += paint.summary(report)
        return report
    }

    /// Parses and runs one file (`--repeat` times); the steps it ran.
    static func runOne(_ path: String, options: Options) -> (Outcome, Int) {
        let file: ScenarioFile
        do {
            file = try ScenarioParser.parse(fileAt: path)
        } catch {
            return (.unusable(path: path, diagnostic: error.description), 0)
        }
        if !options.tags.isEmpty, !file.tags.contains(where: options.tags.contains) {
            return (.skipped(path: path), 0)
        }
        let rule = options.expectations?.rule(for: path)
        if let rule, rule.kind == .skip { return (.excluded(path: path, reason: rule.reason), 0) }
        let runner = ScenarioRunner(runtime: options.runtime)
        var result = runner.run(file)
        result.expectedToFail = rule?.reason
        var steps = result.steps
        for _ in 1..<max(options.repeatCount, 1) where result.status == .passed {
            let again = runner.run(file)
            steps += again.steps
            if again.transcript != result.transcript {
                result.status = .failed
                result.failure = ("transcript differs between two runs with the same seed",
                                  SourceLocation(file: file.path, line: 1, column: 1))
            }
        }
        return (.ran(result), steps)
    }
}

extension SuiteRun.Report {
    /// `3 passed, 1 failed[, 2 unusable][, 5 not selected by --tag]`; with a port, also how many
    /// were unimplemented, expected failures, unexpected passes and skipped by the expectations file.
    public var summary: String {
        "\(passed) passed, \(failed) failed" + (unusable > 0 ? ", \(unusable) unusable" : "")
            + (unimplemented > 0 ? " (\(unimplemented) unimplemented)" : "")
            + (unexpectedPasses > 0 ? " (\(unexpectedPasses) unexpected passes)" : "")
            + (expectedFailures > 0 ? ", \(expectedFailures) expected failures" : "")
            + (excluded > 0 ? ", \(excluded) skipped" : "")
            + (skipped > 0 ? ", \(skipped) not selected by --tag" : "")
    }
}

/// ANSI colours for the human report: only when asked (a terminal, NO_COLOR unset).
struct Paint {
    var enabled: Bool

    func wrap(_ s: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m" + s + "\u{1B}[0m" : s }
    func green(_ s: String) -> String { wrap(s, "32") }
    func red(_ s: String) -> String { wrap(s, "31") }

    func failureReport(_ report: String) -> String {
        guard enabled, report.hasPrefix("FAIL ") else { return report }
        return red("FAIL") + report.dropFirst(4)
    }

    func summary(_ report: SuiteRun.Report) -> String {
        let text = report.summary
        return (report.status == .passed ? green(text) : red(text)) + "\n"
    }
}

/// Counts finished files across threads for the progress line.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    let total: Int
    let report: (@Sendable (Int, Int) -> Void)?

    init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    func tick() {
        guard let report else { return }
        lock.lock()
        done += 1
        report(done, total)
        lock.unlock()
    }
}
