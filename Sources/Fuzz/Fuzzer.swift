import Foundation
import PassModel
import Scenario
import ScenarioSyntax
import Simulation

/// `passim fuzz`: random worlds and random flows in the simulated runtime, with the invariants of
/// BEHAVIOR.md, determinism and liveness as the oracle; failures shrunk and written as `.scenario` files.
public struct Fuzzer: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64
        public var runs: Int?
        /// Wall-clock budget instead of a run count (the fuzzer may read the real clock; the
        /// simulations it drives never do).
        public var time: Duration?
        public var jobs: Int
        public var maxSteps: Int
        public var outDir: String
        /// The number of the first run (`--seed-range A..B` starts at A): run `i` has the seed
        /// `runSeed(seed, i)` whatever the range, so shards of one campaign never repeat a run.
        public var firstRun: Int
        /// One run in this many goes through bytes (`goesThroughBytes`); 1: every run does.
        public var bytesSample: UInt64
        /// The wire the engines speak (`--wire v2`): every world says it, so a finding replays on it.
        public var wire: EngineWire = .sdk
        /// Called after each run, from any worker: (runs done, steps run, findings), for a progress line.
        public var onRun: (@Sendable (_ runs: Int, _ steps: Int, _ findings: Int) -> Void)?

        public init(
            seed: UInt64 = 1, runs: Int? = nil, time: Duration? = nil, jobs: Int = 1, maxSteps: Int = 40,
            outDir: String = "fuzz-failures", firstRun: Int = 0, bytesSample: UInt64 = Fuzzer.bytesSample
        ) {
            self.seed = seed
            self.bytesSample = max(1, bytesSample)
            self.firstRun = firstRun
            self.runs = runs
            self.time = time
            self.jobs = jobs
            self.maxSteps = maxSteps
            self.outDir = outDir
        }
    }

    /// A failing run, shrunk.
    public struct Finding: Sendable {
        public var run: Int
        public var seed: UInt64
        public var failure: ExploratoryRunner.Failure
        public var steps: Int
        public var shrunkSteps: Int
        /// The `.scenario` text written for it.
        public var scenario: String
        public var file: String?
    }

    public struct Report: Sendable {
        public var runs: Int
        public var steps: Int
        public var findings: [Finding]
        /// Every input the runs' engines were given, the determinism re-runs' included (not the
        /// shrinking's): the throughput figure is engine inputs per CPU-second.
        public var engineInputs = 0
        /// CPU seconds spent shrinking and writing findings (their workers' thread time): the
        /// throughput figure leaves it out, or a campaign with findings looks slower than its runs are.
        public var shrinkingCPU = 0.0
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    /// The seed of run `i`: run 0 uses the given seed itself, so `--seed S --runs 1` replays any run.
    public static func runSeed(_ base: UInt64, _ i: Int) -> UInt64 {
        guard i > 0 else { return base }
        var r = SeededRandom(seed: base ^ (UInt64(i) &* 0x9E37_79B9_7F4A_7C15))
        return r.next() >> 1
    }

    /// `--seed-range A..B`: runs A through B, both included.
    public static func runRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b,
            b < Int.max / 2
        else { return nil }
        return a...b
    }

    /// One run in `determinismSample` runs the same program a second time from scratch, to check that
    /// it gives the same transcript: the check doubled the cost of every run, and a nondeterminism
    /// shows in any run where it can, so a seeded sample finds it too (a finding is always re-run).
    public static let determinismSample: UInt64 = 8

    /// Most runs hand the mock's answers to the engine and the browser as values (no XML or HTML
    /// parsed back that the same process just wrote); one in `bytesSample`, chosen from the run's
    /// seed, goes through bytes and libxml2 as over a real wire, which keeps the wire formats honest.
    /// The transcript is the same either way (FuzzTests checks it), so the choice changes no finding.
    public static let bytesSample: UInt64 = 16

    /// Whether run `seed` reads every answer from its bytes.
    public static func goesThroughBytes(_ seed: UInt64, sample: UInt64 = bytesSample) -> Bool {
        var r = SeededRandom(seed: seed ^ 0x6A09_E667_F3BC_C908)
        return r.next() % max(1, sample) == 0
    }

    /// Whether run `seed` re-runs its program for determinism.
    static func checksDeterminism(_ seed: UInt64) -> Bool {
        var r = SeededRandom(seed: seed ^ 0xD1B5_4A32_D192_ED03)
        return r.next() % determinismSample == 0
    }

    /// Explores one run; returns its program, its result and how many steps ran.
    /// `fastNetwork`: latencies of at most 10 ms (`FuzzWorld.fastNetwork`).
    /// `v2Edges`: worlds with what only REST API v2 has (`FuzzWorld.addRESTv2Edges`; default on v2, off
    /// for `--parity`, which runs each world on both wires).
    static func explore(
        seed: UInt64, maxSteps: Int, fastNetwork: Bool = false, wire: EngineWire = .sdk, v2Edges: Bool? = nil
    ) -> (
        FuzzProgram, ExploratoryRunner.Failure?, Int
    ) {
        let (run, failure, steps, _) = exploreCounting(
            seed: seed, maxSteps: maxSteps, typed: !goesThroughBytes(seed),
            fastNetwork: fastNetwork, wire: wire, v2Edges: v2Edges)
        return (run.program, failure, steps)
    }

    /// Explores one run: its typed steps, its result, how many steps ran, and how many inputs its
    /// engines were given (the determinism re-run's included). Nothing is rendered as text here.
    /// `typed`: the mock's answers reach the engine as values (`FuzzRun.typedResponses`).
    static func exploreCounting(
        seed: UInt64, maxSteps: Int, typed: Bool,
        fastNetwork: Bool = false, wire: EngineWire = .sdk, v2Edges: Bool? = nil
    ) -> (FuzzRun, ExploratoryRunner.Failure?, Int, Int) {
        var rng = SeededRandom(seed: seed)
        let world = FuzzWorld.random(
            &rng, seed: seed, fastNetwork: fastNetwork, wire: wire, v2Edges: v2Edges ?? (wire == .restV2))
        // The world is made typed along with its lines, and the steps are typed: nothing is parsed.
        var run = FuzzRun(world: world.lines, file: world.file, typedResponses: typed)
        // Nothing reads the simulation's trace here (the generator reads its state, the oracle sees
        // every input as it happens): it is not kept.
        let session = ExplorationSession(file: run.file, writesLines: false, typedResponses: typed, keepsTrace: false)
        var generator = StepGenerator(world: world)
        // The session's simulation, for the generator to read (the session keeps it for its life).
        let sim = session.simulator
        let count = 1 + Int(rng.next() % UInt64(max(maxSteps, 1)))
        var diverged = false
        if let statement = world.softwareStatement {
            // The app registers with the world's software statement (the first app; a second app
            // that does not is refused where the statement is required).
            let initialize = StepText.call(nil, .initialize, [StepText.arg("softwareStatement", .string(statement))])
            session.perform(StepText.located(initialize))
            run.steps.append(initialize)
        }
        for _ in 0..<count {
            let step = generator.next(&rng, sim)
            session.perform(StepText.located(step))
            if session.stopped {
                // The step could not be carried out, after time may have run inside it: the
                // program (without it) is what counts from here on.
                diverged = true
                break
            }
            run.steps.append(step)
            if session.failed { break }
        }
        var inputs = session.result.engineInputs
        let first = diverged ? run.explore() : session.finish(checkLiveness: true)
        inputs = diverged ? inputs + first.engineInputs : first.engineInputs
        // Determinism: the same program from scratch gives the same transcript.
        if first.failure != nil || checksDeterminism(seed) {
            let second = run.explore()
            inputs += second.engineInputs
            if first.events != second.events {
                return (
                    run, .nondeterminism("two runs of the same program gave different transcripts"), run.steps.count,
                    inputs
                )
            }
        }
        return (run, first.failure, run.steps.count, inputs)
    }

    /// Runs the fuzzer; `progress` receives one line per finding (and may print progress).
    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) -> Report {
        let results = CampaignTally(Tally())
        let deadline = options.time.map { ContinuousClock.now + $0 }
        let total = options.runs ?? (deadline == nil ? 100 : Int.max)
        let jobs = max(1, options.jobs)
        CrashReport.install()
        let work: @Sendable (Int) -> Void = { worker in
            while true {
                let claimed = results.claim()
                if claimed >= total { return }
                if let deadline, ContinuousClock.now >= deadline { return }
                let i = options.firstRun + claimed
                let seed = Fuzzer.runSeed(options.seed, i)
                CrashReport.running(seed, worker: worker)
                let typed = !Fuzzer.goesThroughBytes(seed, sample: options.bytesSample)
                let (run, failure, steps, inputs) = Fuzzer.exploreCounting(
                    seed: seed, maxSteps: options.maxSteps, typed: typed, wire: options.wire)
                results.update {
                    $0.steps += steps
                    $0.inputs += inputs
                }
                defer {
                    let (done, steps, found) = results.update { t in
                        t.finished += 1
                        return (t.finished, t.steps, t.findings.count)
                    }
                    options.onRun?(done, steps, found)
                }
                guard let failure else { continue }
                progress("run \(i) (seed \(seed)) failed: \(failure)")
                // Only now is the run written as text: to shrink it and write it out.
                let before = Fuzzer.threadCPUSeconds()
                let found = finding(run: i, seed: seed, program: run.program, failure: failure)
                let shrinking = Fuzzer.threadCPUSeconds() - before
                results.update {
                    $0.findings.append(found)
                    $0.shrinking += shrinking
                }
            }
        }
        onThreads(jobs, work)
        let tally = results.report
        return Report(
            runs: min(results.claimed, total), steps: tally.steps, findings: tally.findings.sorted { $0.run < $1.run },
            engineInputs: tally.inputs, shrinkingCPU: tally.shrinking)
    }

    /// The calling thread's CPU time, in seconds (what one worker spent, whatever the others do).
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The progress line: `1234/5000 runs, 2,345 steps/s, 0 findings, 3m12s left`.
    public static func progressLine(
        runs: Int, of total: Int?, steps: Int, findings: Int, elapsed: Duration,
        budget: Duration?
    ) -> String {
        let seconds = elapsed / .seconds(1)
        let rate = seconds > 0 ? Int((Double(steps) / seconds).rounded()) : 0
        var text =
            "\(runs)" + (total.map { "/\($0)" } ?? "") + " runs, \(rate) steps/s, \(findings) "
            + (findings == 1 ? "finding" : "findings")
        var left: Double?
        if let budget {
            left = max(0, budget / .seconds(1) - seconds)
        } else if let total, runs > 0 {
            left = seconds / Double(runs) * Double(max(0, total - runs))
        }
        if let left {
            let s = Int(left.rounded())
            text += ", " + (s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s") + " left"
        }
        return text
    }

    /// Shrinks a failing program and writes it as a `.scenario` with its recorded transcript.
    func finding(run: Int, seed: UInt64, program: FuzzProgram, failure: ExploratoryRunner.Failure) -> Finding {
        var shrinker = Shrinker(key: failure.key)
        let small = shrinker.shrink(program)
        let recorded = small.explore()
        let final = recorded?.failure ?? failure
        var lines = [
            "# Fuzz: \(final)",
            "# Found by: passim fuzz --seed \(seed) --runs 1\(Fuzzer.wireFlag(options.wire)) (shrunk from \(program.steps.count) to \(small.steps.count) steps)",
            "# Replay: passim fuzz --replay FILE" + (final.key.hasPrefix("invariant") ? " (or passim run FILE)" : ""),
            "# Once fixed, record it (passim record) and move it to Scenarios/regressions/.",
        ]
        lines += small.world
        lines.append("")
        lines += recorded?.lines ?? small.steps
        let text = lines.joined(separator: "\n") + "\n"
        let path = Fuzzer.writeCase(
            text,
            named:
                "fuzz-\(seed)-\(options.wire == .sdk ? "" : "v2-")\(final.key.replacingOccurrences(of: " ", with: "-")).scenario",
            in: options.outDir)
        return Finding(
            run: run, seed: seed, failure: final, steps: program.steps.count, shrunkSteps: small.steps.count,
            scenario: text, file: path)
    }

    /// ` --wire v2` for a replay line on v2; "" on the SDK's wire (the default).
    public static func wireFlag(_ wire: EngineWire) -> String { wire == .sdk ? "" : " --wire \(wire.rawValue)" }

    /// Writes a found case into `dir` (made if missing); its path, or nil when it cannot be written.
    static func writeCase(_ text: String, named name: String, in dir: String) -> String? {
        let folder = URL(fileURLWithPath: dir)
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
            return nil
        }
        let file = folder.appendingPathComponent(name)
        return FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8)) ? file.path : nil
    }

    /// `passim fuzz --replay FILE`: explores a written case again (liveness included).
    public static func replay(_ file: ScenarioFile) -> ExploratoryRunner.Result {
        ExploratoryRunner().run(file)
    }
}

/// What the workers tally besides the run numbers they claim: the steps run, the findings.
private struct Tally: Sendable {
    var steps = 0
    var inputs = 0
    /// Runs ended (their findings shrunk).
    var finished = 0
    var findings: [Fuzzer.Finding] = []
    var shrinking = 0.0
}
