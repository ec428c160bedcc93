import Foundation
import PassModel
import Port
import Scenario
import ScenarioSyntax

/// `passim fuzz --parity`: each generated program runs on both wires of this
/// build's reference engine. The SDK wire's transcript, each `<` line pinned to its instant, becomes a
/// scenario, and that scenario runs on REST API v2 under the expectations file's rules: its callback
/// rules (`equivalent`, `mask`), its parity rules (`parity mask`, `parity timing`) and its known
/// differences (typed `differ` rules, docs/EXPECTATIONS.md). A difference no rule explains is a finding,
/// shrunk while it still differs unexplained, and written twice: the SDK wire's transcript (passes
/// with `passim run`, fails with `--wire v2`) and v2's own (`wire v2` in its header).
///
/// The per-scenario `fail` lines of the file do not apply: a generated program is no suite scenario.
/// What may differ in any program is said once, each with its reason (Scenarios/wire-v2.expect and
/// docs/FUZZING.md, "Parity").
public struct ParityFuzzer: Sendable {
    public struct Options: Sendable {
        public var seed: UInt64
        public var runs: Int?
        public var time: Duration?
        public var jobs: Int
        public var maxSteps: Int
        public var outDir: String
        public var firstRun: Int
        /// The rules of what may differ (`--expect`, by default Scenarios/wire-v2.expect).
        public var expectations: Expectations
        public var maxFindings: Int?
        /// The wire the programs are generated on (`--wire`): the generator reads its flows' state
        /// from that wire's engine, so each wire's own paths get explored. Both wires run every program.
        public var generateOn: EngineWire = .sdk

        public init(
            seed: UInt64 = 1, runs: Int? = nil, time: Duration? = nil, jobs: Int = 1, maxSteps: Int = 40,
            outDir: String = "fuzz-failures", firstRun: Int = 0, expectations: Expectations,
            maxFindings: Int? = nil
        ) {
            self.seed = seed
            self.runs = runs
            self.time = time
            self.jobs = jobs
            self.maxSteps = maxSteps
            self.outDir = outDir
            self.firstRun = firstRun
            self.expectations = expectations
            self.maxFindings = maxFindings
        }
    }

    /// How one program fares on the two wires.
    public enum Outcome: Sendable, Equatable {
        /// The reference fails on the SDK wire itself (the invariant fuzzer's business), or a step
        /// of the program cannot be carried out there: not compared.
        case skipped
        /// The v2 run meets every `<` line of the SDK's, under the callback and parity masks.
        case agrees
        /// It differs as a rule says (the rule's line and reason).
        case explained(line: Int, reason: String)
        /// It differs and no rule says why: the message, and the `<` or step line it failed at.
        case differs(String)
    }

    public struct Finding: Sendable {
        public var run: Int
        public var seed: UInt64
        public var difference: String
        public var steps: Int
        public var shrunkSteps: Int
        /// The SDK wire's transcript of the shrunk program (`parity-SEED.scenario`).
        public var scenario: String
        public var file: String?
        /// v2's own transcript of it (`parity-SEED-v2.scenario`).
        public var v2Scenario: String
        public var v2File: String?
    }

    public struct Report: Sendable {
        public var runs = 0
        public var skipped = 0
        public var agreed = 0
        /// Programs each rule explained, by the rule's reason (line numbers of two merged files could meet).
        public var explained: [String: Int] = [:]
        public var findings: [Finding] = []

        public var explainedCount: Int { explained.values.reduce(0, +) }
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    /// The comparison's rules: the file's, with its parity masks.
    var rules: Expectations { options.expectations.forParity }

    /// `program` with its header saying `wire` (`wire v2`, or no wire line for the SDK's).
    public static func program(_ program: [String], on wire: EngineWire) -> [String] {
        var lines = program.filter { !$0.hasPrefix("wire ") }
        guard wire != .sdk else { return lines }
        let header: Set<Substring> = ["scenario", "format", "tags", "platform", "device", "seed"]
        let end = lines.firstIndex { !header.contains($0.prefix { $0 != " " }) } ?? lines.count
        lines.insert("wire \(wire.rawValue)", at: end)
        return lines
    }

    static func onWire(_ p: FuzzProgram, _ wire: EngineWire) -> FuzzProgram {
        FuzzProgram(world: program(p.world, on: wire), steps: p.steps)
    }

    /// The SDK wire's transcript of `program` as a scenario (`< … at T` with `pinned`), or nil when
    /// the reference itself fails on it or a step cannot be carried out.
    static func reference(_ program: FuzzProgram, pinned: Bool) -> (text: String, lines: [String])? {
        let sdk = onWire(program, .sdk)
        guard let explored = sdk.explore(pinsTimes: pinned), explored.failure == nil, explored.inapplicable == nil
        else { return nil }
        return ((sdk.world + [""] + explored.lines).joined(separator: "\n") + "\n", explored.lines)
    }

    /// How v2 parted from the SDK wire's transcript: the runner's message with the line it failed at
    /// (for people), and the same as data (what a `differ` rule reads; nil for a failure of another kind).
    struct Difference {
        var message: String
        var mismatch: Mismatch?
    }

    /// The SDK's transcript run on v2: nil when it passes.
    func difference(
        _ reference: (text: String, lines: [String]), program: FuzzProgram, reorderingLanes: Bool = true
    ) -> Difference? {
        let v2World = ParityFuzzer.program(program.world, on: .restV2)
        let text = (v2World + [""] + reference.lines).joined(separator: "\n") + "\n"
        guard let file = try? ScenarioParser.parse(text, path: "parity.scenario") else {
            return Difference(message: "the SDK wire's transcript does not parse on v2")
        }
        var runner = ScenarioRunner(runtime: .simulated, expectations: rules)
        runner.reordersLanes = reorderingLanes
        let result = runner.run(file)
        guard result.status != .passed, let failure = result.failure else { return nil }
        let index = failure.location.line - 1
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let at = lines.indices.contains(index) ? String(lines[index]) : ""
        return Difference(message: failure.message + "\n  at: " + at, mismatch: result.mismatch)
    }

    /// How `program` fares on both wires. A program the file's rules do not make agree is explained
    /// by its first difference; when the `timing` rule let a line take its callback before another
    /// lane's (`ScenarioRunner.reordersLanes`), that difference comes later than where the two wires
    /// first part, which is what the `differ` rules name: so the program is also compared without the
    /// reordering, and either first difference a rule explains explains it.
    func outcome(_ program: FuzzProgram) -> Outcome { compared(program).outcome }

    /// How `program` fares, app by app when it has several (`lanes(of:)`): the first lane that differs
    /// unexplained, else the first a rule explains, with the lane's program (what a finding shrinks).
    func compared(_ program: FuzzProgram) -> (outcome: Outcome, lane: FuzzProgram) {
        let lanes = ParityFuzzer.lanes(of: program)
        guard lanes.count > 1 else { return (laneOutcome(program), program) }
        let outcomes = lanes.map { ($0, laneOutcome($0)) }
        if let differing = outcomes.first(where: { if case .differs = $0.1 { true } else { false } }) {
            return (differing.1, differing.0)
        }
        if let explained = outcomes.first(where: { if case .explained = $0.1 { true } else { false } }) {
            return (explained.1, explained.0)
        }
        return (outcomes.contains { $0.1 == .agrees } ? .agrees : .skipped, program)
    }

    /// A program of several apps as one program per app: the world, that app's calls and lines, and
    /// the steps of no app (user, clock, net). Where apps meet, the wires differ by design: v2 has no
    /// shared store, a profile belongs to one SP and device (rest-api-v2.md 1.3, profiles). Each app
    /// alone is compared where they agree, so a two-app program is not explained as a whole.
    static func lanes(of program: FuzzProgram) -> [FuzzProgram] {
        guard let file = program.parsed(), !file.apps.isEmpty else { return [program] }
        let firstStepLine = program.world.count + 2  // the world, then a blank line
        return file.appNames.map { name in
            var kept: [String] = []
            for step in file.steps {
                switch step.value {
                case .call(let app, _), .expect(let app, _, _):
                    guard (app ?? ScenarioFile.firstAppName) == name else { continue }
                default: break
                }
                let index = step.location.line - firstStepLine
                if program.steps.indices.contains(index) { kept.append(program.steps[index]) }
            }
            return FuzzProgram(world: program.world, steps: kept)
        }
    }

    /// How one app's program fares.
    func laneOutcome(_ program: FuzzProgram) -> Outcome {
        let reordered = outcome(program, reorderingLanes: true)
        guard case .differs = reordered, rules.timing != nil else { return reordered }
        if case .explained(let line, let reason) = outcome(program, reorderingLanes: false) {
            return .explained(line: line, reason: reason)
        }
        return reordered
    }

    func outcome(_ program: FuzzProgram, reorderingLanes: Bool) -> Outcome {
        guard let pinned = ParityFuzzer.reference(program, pinned: true) else { return .skipped }
        guard var difference = difference(pinned, program: program, reorderingLanes: reorderingLanes) else {
            return .agrees
        }
        if difference.mismatch?.kind == .instant, let timing = rules.parityTimings.first {
            // The same callbacks, in the same order, at other instants: compared again unpinned.
            guard let unpinned = ParityFuzzer.reference(program, pinned: false) else { return .skipped }
            guard let other = self.difference(unpinned, program: program, reorderingLanes: reorderingLanes) else {
                return .explained(line: timing.line, reason: timing.reason)
            }
            difference = other
        }
        if let mismatch = difference.mismatch,
            let summary = ParityFuzzer.onWire(program, .sdk).parsed().map(ProgramSummary.init),
            let known = rules.knownDifference(mismatch, in: summary)
        {
            return .explained(line: known.line, reason: known.reason)
        }
        return .differs(difference.message)
    }

    /// Runs the campaign; `progress` gets one line per finding.
    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) -> Report {
        let shared = ParityResults(Report())
        let deadline = options.time.map { ContinuousClock.now + $0 }
        let total = options.runs ?? (deadline == nil ? 100 : Int.max)
        CrashReport.install()
        let work: @Sendable (Int) -> Void = { worker in
            while true {
                if let most = options.maxFindings, shared.findingCount >= most { return }
                let claimed = shared.claim()
                if claimed >= total { return }
                if let deadline, ContinuousClock.now >= deadline { return }
                let i = options.firstRun + claimed
                let seed = Fuzzer.runSeed(options.seed, i)
                CrashReport.running(seed, worker: worker)
                let (program, failure, _) = Fuzzer.explore(
                    seed: seed, maxSteps: options.maxSteps, wire: options.generateOn, v2Edges: false)
                let (outcome, lane) = failure == nil ? self.compared(program) : (.skipped, program)
                shared.add(outcome)
                guard case .differs(let difference) = outcome else { continue }
                progress("run \(i) (seed \(seed)): v2 differs: \(difference.split(separator: "\n").first ?? "")")
                shared.add(finding(run: i, seed: seed, program: lane, difference: difference))
            }
        }
        onThreads(max(1, options.jobs), work)
        var report = shared.report
        report.findings.sort { $0.run < $1.run }
        return report
    }

    /// Shrinks while v2 still differs unexplained, and writes both wires' transcripts.
    func finding(run: Int, seed: UInt64, program: FuzzProgram, difference first: String) -> Finding {
        var shrinker = Shrinker {
            if case .differs = self.outcome($0) { return true }
            return false
        }
        let small = shrinker.shrink(ParityFuzzer.onWire(program, .sdk))
        let final: String
        if case .differs(let d) = outcome(small) { final = d } else { final = first }
        let summary = final.split(separator: "\n").first.map(String.init) ?? final
        let wireFlag = options.generateOn == .sdk ? "" : " --wire \(options.generateOn.rawValue)"
        let found =
            "# Found by: passim fuzz --parity\(wireFlag) --seed \(seed) --runs 1 (shrunk from \(program.steps.count) to \(small.steps.count) steps)"
        func title(_ lines: [String], _ suffix: String) -> [String] {
            lines.map { $0.hasPrefix("scenario ") ? "scenario \"parity fuzz: seed \(seed)\(suffix)\"" : $0 }
        }
        let sdk = ParityFuzzer.reference(small, pinned: true)
        var lines = [
            "# Parity fuzz: on REST API v2 the app sees what no rule of the expectations file explains: \(summary)",
            found,
            "# The `<` lines are the SDK wire's: passim run FILE passes; passim run --wire v2 --expect Scenarios/wire-v2.expect FILE",
            "# shows the difference. parity-\(seed)-v2.scenario holds v2's own transcript.",
        ]
        lines += title(small.world, "")
        lines.append("")
        lines += sdk?.lines ?? small.steps
        let text = lines.joined(separator: "\n") + "\n"
        let v2Text = ParityFuzzer.v2Transcript(small, found: found, seed: seed)
        return Finding(
            run: run, seed: seed, difference: final, steps: program.steps.count, shrunkSteps: small.steps.count,
            scenario: text, file: Fuzzer.writeCase(text, named: "parity-\(seed).scenario", in: options.outDir),
            v2Scenario: v2Text,
            v2File: Fuzzer.writeCase(v2Text, named: "parity-\(seed)-v2.scenario", in: options.outDir))
    }
}

extension ParityFuzzer {
    /// v2's own transcript of `program`, as a scenario: the SDK wire's `<` lines (unpinned) recorded
    /// again on v2 (`passim record --fresh`), so time runs where it ran on the SDK's wire and a diff
    /// of the two files shows the difference line by line. Where that recording cannot be made (a
    /// user step that v2's flow does not allow then), v2's own exploration, up to the step it
    /// could not carry out, said in a comment.
    static func v2Transcript(_ program: FuzzProgram, found: String, seed: UInt64) -> String {
        let world = ParityFuzzer.program(program.world, on: .restV2).map {
            $0.hasPrefix("scenario ") ? "scenario \"parity fuzz: seed \(seed) (v2)\"" : $0
        }
        let header = [
            "# Parity fuzz: v2's transcript of parity-\(seed).scenario (the SDK wire's); a diff of the two shows the difference.",
            found,
        ]
        if let sdk = reference(program, pinned: false) {
            let text = (header + world + [""] + sdk.lines).joined(separator: "\n") + "\n"
            if let recorded = try? Recorder(fresh: true).record(text: text, path: "parity-v2.scenario") {
                return recorded.text
            }
        }
        let explored = FuzzProgram(world: world, steps: program.steps).explore(pinsTimes: true)
        var lines = header
        if let stop = explored?.inapplicable { lines.append("# v2's exploration stopped: \(stop)") }
        lines += world + [""] + (explored?.lines ?? program.steps)
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What the parity workers share.
typealias ParityResults = CampaignTally<ParityFuzzer.Report>

extension CampaignTally where Report == ParityFuzzer.Report {
    var findingCount: Int { report.findings.count }

    func add(_ outcome: ParityFuzzer.Outcome) {
        update { state in
            state.runs += 1
            switch outcome {
            case .skipped: state.skipped += 1
            case .agrees: state.agreed += 1
            case .explained(_, let reason):
                state.explained[reason, default: 0] += 1
            case .differs: break
            }
        }
    }

    func add(_ finding: ParityFuzzer.Finding) { update { $0.findings.append(finding) } }
}
