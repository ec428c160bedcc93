import Port
import Scenario
import ScenarioSyntax

/// `passim fuzz --port CMD` (and `--against BIN`): each generated program runs on the reference
/// engine, whose transcript becomes a scenario's `<` lines, and that scenario runs on the port through
/// the driver protocol. The first line where the port's transcript differs is a finding: the program
/// is shrunk while the port still differs from the reference on it, and written as a `.scenario` whose
/// `<` lines are the reference's, a regression test ready for the port's suite.
public struct DifferentialFuzzer: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64
        public var runs: Int
        public var firstRun: Int
        public var maxSteps: Int
        public var outDir: String
        public var port: PortCommand
        /// The port sends its own requests (the protocol's live network).
        public var live: Bool
        /// Differences already known (`differ /regex/ reason` lines): not findings.
        public var expectations: Expectations?
        /// Stop after this many findings (nil: run every program).
        public var maxFindings: Int?
        /// Stop starting runs once this much wall time has passed (`--time`); `runs` is then the most.
        public var time: Duration?

        public init(seed: UInt64 = 1, runs: Int = 100, firstRun: Int = 0, maxSteps: Int = 30,
                    outDir: String = "fuzz-failures", port: PortCommand, live: Bool = false, expectations: Expectations? = nil,
                    maxFindings: Int? = nil, time: Duration? = nil) {
            self.time = time
            self.expectations = expectations
            self.maxFindings = maxFindings
            self.seed = seed
            self.runs = runs
            self.firstRun = firstRun
            self.maxSteps = maxSteps
            self.outDir = outDir
            self.port = port
            self.live = live
        }
    }

    /// Where the port first differed from the reference, shrunk.
    public struct Finding: Sendable {
        public var run: Int
        public var seed: UInt64
        /// The failing step's message as the runner gave it (the first difference).
        public var difference: String
        public var steps: Int
        public var shrunkSteps: Int
        /// The regression scenario: the reference's transcript of the shrunk program.
        public var scenario: String
        public var file: String?
    }

    public struct Report: Sendable {
        public var runs: Int
        /// Programs on which the port differed as the expectations file says it does.
        public var known = 0
        /// Programs the reference itself failed (an invariant), or the port left unimplemented: not compared.
        public var skipped: Int
        public var findings: [Finding]
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    var runtime: ScenarioRunner.Runtime {
        ScenarioRunner.Runtime(network: options.live ? .live : .simulated, port: options.port)
    }

    /// The reference's transcript of `program` as a runnable scenario, or nil when the reference
    /// itself fails on it (that is the ordinary fuzzer's business) or it does not parse.
    static func referenceScenario(_ program: FuzzProgram) -> ScenarioFile? {
        guard let explored = program.explore(), explored.failure == nil, explored.inapplicable == nil else { return nil }
        let text = (program.world + [""] + explored.lines).joined(separator: "\n") + "\n"
        return try? ScenarioParser.parse(text, path: "differential.scenario")
    }

    /// How the port differs on `program` in a way not already known: nil when it agrees, cannot be
    /// compared, or differs only as the expectations file says.
    func difference(_ program: FuzzProgram) -> String? {
        guard let file = DifferentialFuzzer.referenceScenario(program) else { return nil }
        let result = ScenarioRunner(runtime: runtime).run(file)
        guard result.status == .failed, let failure = result.failure,
              options.expectations?.knownDifference(failure.message) == nil else { return nil }
        return failure.message
    }

    public func run(progress: (String) -> Void = { _ in }) -> Report {
        var report = Report(runs: 0, skipped: 0, findings: [])
        // Wall time only decides when to stop starting runs; each run is the same for the same seed.
        let deadline = options.time.map { ContinuousClock.now + $0 }
        var i = options.firstRun
        while report.runs < options.runs {
            if let deadline, ContinuousClock.now >= deadline { break }
            defer { i += 1 }
            let seed = Fuzzer.runSeed(options.seed, i)
            let (program, failure, _) = Fuzzer.explore(seed: seed, maxSteps: options.maxSteps)
            report.runs += 1
            guard failure == nil, let file = DifferentialFuzzer.referenceScenario(program) else {
                report.skipped += 1
                continue
            }
            let result = ScenarioRunner(runtime: runtime).run(file)
            if result.status == .unimplemented { report.skipped += 1 }
            guard result.status == .failed, let first = result.failure else { continue }
            if let known = options.expectations?.knownDifference(first.message) {
                report.known += 1
                progress("run \(i) (seed \(seed)): a known difference (\(known.reason))")
                continue
            }
            progress("run \(i) (seed \(seed)): the port differs: \(first.message)")
            report.findings.append(finding(run: i, seed: seed, program: program, difference: first.message))
            if let most = options.maxFindings, report.findings.count >= most { break }
        }
        return report
    }

    /// Shrinks while the port still differs, then writes the reference's transcript as a scenario.
    func finding(run: Int, seed: UInt64, program: FuzzProgram, difference first: String) -> Finding {
        var shrinker = Shrinker { self.difference($0) != nil }
        let small = shrinker.shrink(program)
        let final = difference(small) ?? first
        let reference = DifferentialFuzzer.referenceScenario(small)
        let body = reference.map { $0.steps.map(\.text) } ?? small.steps
        var againFlag = options.live ? " --live" : ""
        againFlag += " --port '\(options.port.command.replacingOccurrences(of: "'", with: "'\\''"))'"
        var lines = [
            "# Differential fuzz: the port differs from the reference: \(final.split(separator: "\n").first ?? "")",
            "# Found by: passim fuzz\(againFlag) --seed \(seed) --runs 1 (shrunk from \(program.steps.count) to \(small.steps.count) steps)",
            "# The `<` lines are the reference engine's; replay: passim run\(againFlag) FILE",
        ]
        lines += small.world.map { $0.hasPrefix("scenario ") ? "scenario \"differential fuzz: seed \(seed)\"" : $0 }
        lines.append("")
        lines += body
        let text = lines.joined(separator: "\n") + "\n"
        let path = Fuzzer.writeCase(text, named: "differential-\(seed).scenario", in: options.outDir)
        return Finding(run: run, seed: seed, difference: final, steps: program.steps.count, shrunkSteps: small.steps.count,
                       scenario: text, file: path)
    }
}
