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
        public init(verbose: Bool = false, repeatCount: Int = 1) {
            self.verbose = verbose
            self.repeatCount = repeatCount
        }
    }

    public struct Report: Sendable {
        /// What goes to standard output: per-file lines, failure reports, transcripts, the summary.
        public var output: String
        /// Diagnostics of unusable input, for standard error.
        public var errors: String
        public var status: ExitStatus
        public var results: [ScenarioResult]
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    public func run(paths: [String]) -> Report {
        let files: [String]
        do {
            files = try SuiteLoader.files(in: paths)
        } catch {
            return Report(output: "", errors: "passim: \(error)\n", status: .unusable, results: [])
        }
        var errors = ""
        var parsed: [ScenarioFile] = []
        for path in files {
            do {
                parsed.append(try ScenarioParser.parse(fileAt: path))
            } catch {
                errors += error.description + "\n"
            }
        }
        let unusable = files.count - parsed.count
        let runner = ScenarioRunner()
        var out = ""
        var results: [ScenarioResult] = []
        for file in parsed {
            var result = runner.run(file)
            for _ in 1..<max(options.repeatCount, 1) where result.status == .passed {
                if runner.run(file).transcript != result.transcript {
                    result.status = .failed
                    result.failure = ("transcript differs between two runs with the same seed",
                                      SourceLocation(file: file.path, line: 1, column: 1))
                }
            }
            out += result.status == .passed ? "ok   \(file.path)\n" : result.failureReport
            if options.verbose { out += "--- \(file.path): \(file.title)\n" + result.transcript }
            results.append(result)
        }
        let passed = results.filter { $0.status == .passed }.count
        let failed = results.count - passed
        out += "\(passed) passed, \(failed) failed" + (unusable > 0 ? ", \(unusable) unusable" : "") + "\n"
        let status: ExitStatus = unusable > 0 ? .unusable : failed > 0 ? .failed : .passed
        return Report(output: out, errors: errors, status: status, results: results)
    }
}
