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
        /// Warn of expectation rules no scenario of the run matched: off when the file is the suite's
        /// default, whose rules cover the whole suite, not the part a run picked.
        public var warnsUnusedExpectations = true
        /// ANSI colours in the human output.
        public var color = false
        /// `--allow-empty`: a folder holding no scenario is not an error.
        public var allowEmpty = false
        /// Called after each file with (files done, files in all), from any thread.
        public var progress: (@Sendable (Int, Int) -> Void)?
        /// `-q`: a character per scenario (`.` passed, `F` failed, …), the failure reports after them.
        public var quiet = false
        /// `-k`: only scenarios whose path or title the filter selects (any of them).
        public var names: [NameFilter] = []
        /// `-x`: no scenario starts after the first failure.
        public var failFast = false
        /// `--durations N`: list the N slowest scenarios (0: every one) before the summary.
        public var durations: Int?
        /// `--port-log FILE|DIR`: every line exchanged with the port, with virtual times; in FILE each
        /// scenario's under a `# PATH` line, in the files' order; in DIR (an existing folder, or a path
        /// ending in `/`) one file per scenario (`SuiteRun.portLogName`). Needs `runtime.port?.log`.
        public var portLog: String?
        /// Takes the report's text piece by piece, each as soon as its scenario and every earlier
        /// file have ended (in the files' order: the bytes are those of `output`). nil: only `output`.
        public var stream: (@Sendable (String) -> Void)?

        public init(
            verbose: Bool = false, repeatCount: Int = 1, tags: [String] = [], shard: Shard? = nil,
            jobs: Int = 1, color: Bool = false
        ) {
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
        /// Left out by `--tag` or `-k`.
        case skipped(path: String)
        /// Not started: `--fail-fast` stopped the run before it.
        case notRun(path: String)
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
        public var excluded: Int {
            outcomes.filter { if case .excluded = $0 { return true } else { return false } }.count
        }
        public var unusable: Int {
            outcomes.filter { if case .unusable = $0 { return true } else { return false } }.count
        }
        public var skipped: Int {
            outcomes.filter { if case .skipped = $0 { return true } else { return false } }.count
        }
        public var notRun: Int { outcomes.filter { if case .notRun = $0 { return true } else { return false } }.count }
        /// Wall time of each file that ran, in the files' order (for `--durations`; never in `output`
        /// unless asked, since it differs from run to run).
        public var durations: [(path: String, seconds: Double)] = []
        /// What selected scenarios (`--tag`, `-k`), for the summary.
        public var selectedBy: String = ""
        /// Steps run in all (every repetition counted), for throughput figures.
        public var steps = 0
        /// `--port-log` could not be written (the message is in `errors`).
        public var portLogFailed = false

        /// With a port: the scenarios it took part in (it was sent a message after `hello`) and those
        /// that never asked it anything (steps the harness carries out itself: `http`, `seen`, `lint`).
        public var portCounts: (tookPart: Int, neverAsked: Int)? {
            let asked = results.compactMap(\.portAsked)
            guard !asked.isEmpty else { return nil }
            let tookPart = asked.filter { $0 > 0 }.count
            return (tookPart, asked.count - tookPart)
        }
    }

    /// Writes each result's conversation with the port (`Options.portLog`); a message when it cannot.
    static func writePortLog(_ results: [ScenarioResult], to target: String) -> String? {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory)
        do {
            if target.hasSuffix("/") || (exists && isDirectory.boolValue) {
                for result in results {
                    let url = URL(fileURLWithPath: target).appendingPathComponent(portLogName(result.path))
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(result.portConversation.map { $0 + "\n" }.joined().utf8).write(to: url, options: .atomic)
                }
            } else {
                let text = results.map { "# \($0.path)\n" + $0.portConversation.map { $0 + "\n" }.joined() }.joined()
                try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic)
            }
        } catch {
            return "cannot write the port log to \(target): \(error.localizedDescription)"
        }
        return nil
    }

    /// The file of a scenario in a `--port-log` folder: its path, relative to the current folder when
    /// under it, with `.log` for `.scenario` (`Scenarios/authn/classic-login.log`).
    static func portLogName(_ path: String) -> String {
        var relative = path
        let here = FileManager.default.currentDirectoryPath + "/"
        if relative.hasPrefix(here) { relative = String(relative.dropFirst(here.count)) }
        let parts = relative.split(separator: "/").filter { $0 != "." && $0 != ".." }
        relative = parts.joined(separator: "/")
        if relative.hasSuffix(".scenario") { relative = String(relative.dropLast(".scenario".count)) }
        return relative + ".log"
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
        // A tag or -k that selects nothing is a mistake in the command, not an empty success; judged
        // over every file given (before --shard), so a shard without a match is not one.
        if let problem = SuiteRun.selectionProblem(files: files, tags: options.tags, names: options.names) {
            return Report(output: "", errors: "passim: \(problem)\n", status: .unusable, results: [])
        }
        if let shard = options.shard { files = shard.select(files) }
        // One set-up mistake is one message, before any scenario runs; not needed when the
        // expectations file skips every file.
        do throws(HarnessError) {
            if files.contains(where: { self.options.expectations?.rule(for: $0)?.kind != .skip }) {
                try self.options.runtime.preflight()
            }
        } catch {
            return Report(output: "", errors: "passim: \(error.message)\n", status: .unusable, results: [])
        }
        let options = self.options
        let counter = ProgressCounter(total: files.count, report: options.progress)
        let paint = Paint(enabled: options.color)
        let stream = options.stream.map { OrderedStream(count: files.count, emit: $0) }
        let stop = StopFlag()
        let ran = parallelMap(Array(files.enumerated()), jobs: options.jobs) { item -> (Outcome, Int, Double) in
            defer { counter.tick() }
            let (index, path) = item
            guard !(options.failFast && stop.raised) else {
                stream?.finished(index, "")
                return (.notRun(path: path), 0, 0)
            }
            let start = ContinuousClock.now
            let (outcome, steps) = SuiteRun.runOne(path, options: options)
            let elapsed = ContinuousClock.now - start
            if outcome.isFailure { stop.raise() }
            stream?.finished(index, SuiteRun.line(for: outcome, options: options, paint: paint))
            return (outcome, steps, elapsed / .seconds(1))
        }
        var report = Report(output: "", errors: "", status: .passed, results: [], outcomes: ran.map(\.0))
        report.steps = ran.map(\.1).reduce(0, +)
        report.selectedBy = [options.tags.isEmpty ? nil : "--tag", options.names.isEmpty ? nil : "-k"]
            .compactMap { $0 }.joined(separator: " and ")
        for (outcome, _, seconds) in ran {
            report.output += SuiteRun.line(for: outcome, options: options, paint: paint)
            switch outcome {
            case .ran(let result):
                report.results.append(result)
                report.durations.append((result.path, seconds))
            case .unusable(_, let diagnostic):
                report.errors += diagnostic + "\n"
            case .skipped, .notRun, .excluded:
                break
            }
        }
        if let portLog = options.portLog, let problem = SuiteRun.writePortLog(report.results, to: portLog) {
            report.errors += "passim: \(problem)\n"
            report.portLogFailed = true
        }
        if let expectations = options.expectations, options.warnsUnusedExpectations {
            for rule in expectations.unused(among: files) {
                report.errors +=
                    "passim: warning: \(expectations.path):\(rule.line): \(rule.kind.rawValue) \(rule.pattern) matches no scenario of this run\n"
            }
        }
        report.status =
            report.unusable > 0 || report.portLogFailed ? .unusable : report.failed > 0 ? .failed : .passed
        let trailer = SuiteRun.trailer(report, options: options, paint: paint)
        report.output += trailer
        options.stream?(trailer)
        return report
    }

    /// What the text report says of one file as it ends: a line (or, failing, the side-by-side
    /// report); with `-q` a single character, the reports coming in the trailer.
    static func line(for outcome: Outcome, options: Options, paint: Paint) -> String {
        switch outcome {
        case .ran(let result):
            if options.quiet {
                switch result.verdict {
                case .passed: return "."
                case .failed: return paint.red("F")
                case .unimplemented: return paint.red("U")
                case .expectedFailure: return "x"
                case .unexpectedPass: return paint.red("X")
                }
            }
            var text: String
            switch result.verdict {
            case .passed: text = paint.green("ok") + "   \(result.path)\n"
            case .failed: text = paint.failureReport(result.failureReport(whole: options.verbose))
            case .unimplemented:
                text = paint.red("UNIMPLEMENTED") + " \(result.path): \(result.failure?.message ?? "")\n"
            case .expectedFailure: text = "XFAIL \(result.path) (\(result.expectedToFail ?? ""))\n"
            case .unexpectedPass:
                text =
                    paint.red("UNEXPECTED PASS")
                    + " \(result.path): the expectations file says it fails (\(result.expectedToFail ?? "")); remove that line\n"
            }
            if options.verbose { text += "--- \(result.path): \(result.title)\n" + result.transcript }
            return text
        case .unusable:
            return options.quiet ? paint.red("E") : ""
        case .skipped, .notRun:
            return ""
        case .excluded(let path, let reason):
            return options.quiet ? "s" : "SKIP \(path) (\(reason))\n"
        }
    }

    /// After the last file: with `-q`, the end of the dots' line and the failure reports; the
    /// slowest scenarios with `--durations`; the summary.
    static func trailer(_ report: Report, options: Options, paint: Paint) -> String {
        var text = ""
        if options.quiet {
            if report.outcomes.contains(where: { !SuiteRun.line(for: $0, options: options, paint: paint).isEmpty }) {
                text += "\n"
            }
            for result in report.results where result.isFailure || (options.verbose && result.verdict == .passed) {
                var quietless = options
                quietless.quiet = false
                text += SuiteRun.line(for: .ran(result), options: quietless, paint: paint)
            }
        }
        if let n = options.durations {
            let slowest = report.durations.enumerated().sorted { a, b in
                a.element.seconds != b.element.seconds ? a.element.seconds > b.element.seconds : a.offset < b.offset
            }.map(\.element)
            let shown = n == 0 ? slowest : Array(slowest.prefix(n))
            text += "slowest \(shown.count) of \(report.durations.count) scenarios (wall time):\n"
            for d in shown { text += String(format: "%8.3fs  ", d.seconds) + d.path + "\n" }
        }
        return text + paint.summary(report)
    }

    /// Why `--tag`/`-k` select nothing among `files` (all of them, before sharding), or nil.
    static func selectionProblem(files: [String], tags: [String], names: [NameFilter]) -> String? {
        guard !tags.isEmpty || !names.isEmpty else { return nil }
        var known = Set<String>()
        var named = Set<Int>()
        var usable = 0
        for path in files {
            guard let file = try? ScenarioParser.parse(fileAt: path) else { continue }
            usable += 1
            known.formUnion(file.tags)
            for (i, filter) in names.enumerated() where filter.selects(path: path, title: file.title) {
                named.insert(i)
            }
        }
        guard usable > 0 else { return nil }  // nothing parses: the run reports why, file by file
        let unknown = tags.filter { !known.contains($0) }
        if let tag = unknown.first {
            let all = known.sorted()
            let hint = Suggestion.hint(for: tag, among: all)
            return "unknown tag '\(tag)'\(hint): no scenario here has it; the tags are \(all.joined(separator: ", "))"
        }
        if let i = names.indices.first(where: { !named.contains($0) }) {
            return
                "-k '\(names[i].text)' selects no scenario (it is matched, case-insensitively, against paths and titles)"
        }
        return nil
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
        if !options.names.isEmpty, !options.names.contains(where: { $0.selects(path: path, title: file.title) }) {
            return (.skipped(path: path), 0)
        }
        let rule = options.expectations?.rule(for: path)
        if let rule, rule.kind == .skip { return (.excluded(path: path, reason: rule.reason), 0) }
        let runner = ScenarioRunner(runtime: options.runtime, expectations: options.expectations)
        var result = runner.run(file)
        result.expectedToFail = rule?.reason
        if result.verdict == .failed, let failure = result.failure {
            result.hint =
                file.isDraft
                ? "the file has no `<` line yet: `passim record \(path)` writes what each step brings, each step "
                    + "made once the answers to the one before came (docs/RUNNING.md, \"Recording\")"
                : SameInstant.hint(
                    file, failedAt: failure.location, trace: result.trace, runtime: options.runtime,
                    mismatch: result.mismatch)
        }
        var steps = result.steps
        for _ in 1..<max(options.repeatCount, 1) where result.status == .passed {
            let again = runner.run(file)
            steps += again.steps
            if again.transcript != result.transcript {
                result.status = .failed
                result.failure = (
                    "transcript differs between two runs with the same seed",
                    SourceLocation(file: file.path, line: 1, column: 1)
                )
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
            + (skipped > 0 ? ", \(skipped) not selected" + (selectedBy.isEmpty ? "" : " by \(selectedBy)") : "")
            + (notRun > 0 ? ", \(notRun) not run (--fail-fast)" : "")
            + (portCounts.map { " (the port took part in \($0.tookPart); \($0.neverAsked) never asked it anything)" }
                ?? "")
    }
}

extension SuiteRun.Outcome {
    /// What stops a `--fail-fast` run: a failing verdict, or a file that cannot be used.
    var isFailure: Bool {
        switch self {
        case .ran(let result): return result.isFailure
        case .unusable: return true
        case .skipped, .notRun, .excluded: return false
        }
    }
}

/// Raised once, read by every worker: `--fail-fast`'s "stop starting scenarios".
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var raised: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func raise() { lock.lock(); value = true; lock.unlock() }
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
