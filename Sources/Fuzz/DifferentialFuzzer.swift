import Foundation
import PassModel
import Port
import Scenario
import ScenarioSyntax

/// `passim fuzz --port CMD` (and `--against BIN`): each generated program runs on the reference
/// engine, whose transcript becomes a scenario's `<` lines, and that scenario runs on the port through
/// the driver protocol. The first line where the port's transcript differs is a finding: the program
/// is shrunk while the port still differs from the reference on it, and written as a `.scenario` whose
/// `<` lines are the reference's, a regression test ready for the port's suite.
///
/// The mock comparison (`--against BIN --compare mock`): the scenario runs with this build's engine
/// against the other build's mock (`BIN serve`, `ServedMock`, each world loaded through its admin
/// endpoint), and a difference counts only when this build's own mock, served over the same live
/// machinery (`passim run --live`), passes it: what differs is the other build's mock.
public struct DifferentialFuzzer: Sendable {
    /// What the other build contributes: its engine (driven through the port protocol, this build's
    /// mock serving), its mock (this build's engine), or each in turn.
    public enum Comparison: String, Sendable, CaseIterable {
        case engine, mock, both

        var comparesEngine: Bool { self != .mock }
        var comparesMock: Bool { self != .engine }
    }

    /// How much wall time one program may take against a served mock (`fuzz-mock-run-wall`, LIMITS.md).
    public static let mockRunWall: Duration = .seconds(20)
    /// How much wall time one program may take of a port on the harness network (`fuzz-port-run-wall`,
    /// LIMITS.md), where a suite's scenario has `port-scenario-wall`: a program through a sound port
    /// takes well under a second, and a port that answers each message in time but never lets the
    /// program end must not cost a campaign minutes per program, nor its shrink minutes per try. On
    /// the live network latencies are waited for in real time, and the suite's wall stays.
    public static let portRunWall: Duration = .seconds(20)
    /// How much wall time shrinking one finding may take (`fuzz-shrink-wall`, LIMITS.md), and never
    /// past the campaign's `--time`: a try against a port that stops answering costs `--port-timeout`.
    public static let shrinkWall: Duration = .seconds(60)

    public struct Options: Sendable {
        public var seed: UInt64
        public var runs: Int
        public var firstRun: Int
        public var maxSteps: Int
        public var outDir: String
        public var port: PortCommand
        /// The port sends its own requests (the protocol's live network).
        public var live: Bool
        /// Differences already known (`differ` rules, docs/EXPECTATIONS.md): not findings.
        public var expectations: Expectations?
        /// Stop after this many findings (nil: run every program).
        public var maxFindings: Int?
        /// Stop starting runs once this much wall time has passed (`--time`); `runs` is then the most.
        public var time: Duration?
        /// What is compared; `.mock` and `.both` need `servedMocks`.
        public var compare: Comparison = .engine
        /// The other build's mock, served (the mock comparison): one server per worker, since a
        /// server holds one world at a time.
        public var servedMocks: [ServedMock] = []
        /// Programs compared at a time (`--jobs`). A run against a served mock mostly waits for its
        /// requests' latencies, so more workers than cores still pay.
        public var jobs = 1
        /// The command line's flags that choose the other build, for the replay line of a finding
        /// (`--against 'BIN' --compare mock`); nil: `--port 'COMMAND'`.
        public var againstFlags: String?
        /// The wire both engines speak (`--wire v2`): each program's world says it, and the port is
        /// asked for it in `hello`.
        public var wire: EngineWire = .sdk
        /// The most wall time shrinking one finding may take (the campaign's `--time` ends it sooner).
        public var shrinkTime: Duration = DifferentialFuzzer.shrinkWall
        /// The most wall time one program may take of a port on the harness network.
        public var portWall: Duration = DifferentialFuzzer.portRunWall

        public init(
            seed: UInt64 = 1, runs: Int = 100, firstRun: Int = 0, maxSteps: Int = 30,
            outDir: String = "fuzz-failures", port: PortCommand, live: Bool = false, expectations: Expectations? = nil,
            maxFindings: Int? = nil, time: Duration? = nil
        ) {
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
        /// Found by the mock comparison: the other build's mock differs, not its engine.
        public var inMock = false
        /// The port broke down (a livelock, silence, an exit, …) rather than gave another transcript:
        /// the kind, as the scenario's `# Reason:` line says it; nil for a transcript difference.
        public var breakdown: String?
        /// Shrinking stopped at its wall budget (`fuzz-shrink-wall`, or the campaign's `--time`).
        public var shrinkCut = false
    }

    public struct Report: Sendable {
        public var runs: Int
        /// Programs on which the port differed as the expectations file says it does.
        public var known = 0
        /// Programs the reference itself failed (an invariant), or the port left unimplemented: not compared.
        public var skipped: Int
        public var findings: [Finding]
        /// Findings claimed, each by the worker shrinking it: `--max-findings` counts these, so no
        /// worker starts a shrink (up to `fuzz-shrink-wall`) for a finding the campaign will not keep.
        var claimedFindings = 0
    }

    public let options: Options
    public init(options: Options) { self.options = options }

    var runtime: ScenarioRunner.Runtime { runtime(wall: nil) }

    /// The port's runtime, each program's wall at most `wall` (a shrink's time left): on the harness
    /// network `fuzz-port-run-wall`, on the live one the suite's.
    func runtime(wall: Duration?) -> ScenarioRunner.Runtime {
        var port = options.port
        if !options.live {
            port.wall = options.portWall
            port.wallLimit = "fuzz-port-run-wall"
        }
        if let wall, wall < port.wall { port.wall = wall }
        return ScenarioRunner.Runtime(network: options.live ? .live : .simulated, port: port)
    }

    /// Where a difference was found: the other build's engine or its mock.
    enum Side: Sendable { case engine, mock }

    /// What one comparison gave: the first difference's message, or nil when the other side agrees.
    struct Compared {
        var failure: String?
        /// The port said it does not implement a step: not compared.
        var unimplemented = false
        /// The difference as data (what a `differ` rule reads); nil for a failure of another kind.
        var mismatch: Mismatch?

        /// What kind of difference `failure` is.
        var kind: FindingKind? { failure.map { FindingKind(failure: $0, hasMismatch: mismatch != nil) } }
    }

    /// How `file` fares on `side`; `worker` chooses the served mock; `wall` shortens a program's wall
    /// time against a port (a shrink's time left).
    func compared(_ reference: Reference, on side: Side, worker: Int = 0, wall: Duration? = nil) -> Compared {
        switch side {
        case .engine:
            let result = ScenarioRunner(runtime: runtime(wall: wall)).run(reference.file)
            if result.status == .unimplemented { return Compared(unimplemented: true) }
            guard result.status == .failed else { return Compared() }
            return Compared(failure: result.failure?.message, mismatch: result.mismatch)
        case .mock:
            guard !options.servedMocks.isEmpty else { return Compared() }
            return mockCompared(reference, against: options.servedMocks[worker % options.servedMocks.count])
        }
    }

    /// `file` with this build's engine against the other build's served mock. A failure stands only
    /// when this build's own mock, over the same live machinery, passes: otherwise it is a matter of
    /// the live runtime, not of the other mock, and no difference.
    func mockCompared(_ reference: Reference, against served: ServedMock) -> Compared {
        // The served runtimes read the world's text from the file (`passim run --live --server`
        // loads what the file says): the reference goes to disk first, in the server's folder.
        guard let path = served.write(reference.text), let file = try? ScenarioParser.parse(reference.text, path: path)
        else {
            return Compared(failure: "the program could not be written for the served mock")
        }
        guard served.ensureRunning() else {
            return Compared(failure: "the other build's mock (\(served.binary) serve) exited and did not start again")
        }
        let budget = DifferentialFuzzer.mockRunWall
        let started = ContinuousClock.now
        let other = ScenarioRunner(
            runtime: .init(
                network: .server(adminURL: served.adminURL, adminToken: served.adminToken),
                wallBudget: budget)
        ).run(file)
        let took = ContinuousClock.now - started
        guard other.status == .failed, let failure = other.failure?.message else { return Compared() }
        let own = ScenarioRunner(runtime: .init(network: .live, wallBudget: budget)).run(file)
        guard own.status == .passed else { return Compared() }
        if !served.isRunning {
            return Compared(failure: "the other build's mock exited (crashed?) on this program: \(failure)")
        }
        if took >= budget {
            return Compared(
                failure: "the other build's mock took more than \(budget) of wall time on this program "
                    + "(limit: fuzz-mock-run-wall): \(failure)")
        }
        return Compared(failure: failure, mismatch: other.mismatch)
    }

    /// The reference's transcript of a program as a runnable scenario, and its text.
    struct Reference {
        var text: String
        var file: ScenarioFile
    }

    /// The reference's transcript of `program`, or nil when the reference itself fails on it (that
    /// is the ordinary fuzzer's business) or it does not parse. Each `<` line is pinned to the instant
    /// its callback came (`at T`): the other side must give the same callbacks at the same simulated
    /// times, so a timeout, a poll or an expiry that moves is a difference even when what comes
    /// afterwards is the same (a `<` without `at` lets time run until its callback comes). Each step's
    /// requests follow its `<` lines as `seen … with` lines (`RequestTranscript`, choice 72): a port
    /// that sends a wrong request differs even where the mock answers it the same.
    static func reference(_ program: FuzzProgram) -> Reference? {
        guard let parsed = program.parsed() else { return nil }
        let explored = RequestTranscript.explore(parsed)
        guard explored.failure == nil, explored.inapplicable == nil else { return nil }
        let text = (program.world + [""] + explored.lines).joined(separator: "\n") + "\n"
        return (try? ScenarioParser.parse(text, path: "differential.scenario")).map { Reference(text: text, file: $0) }
    }

    static func referenceScenario(_ program: FuzzProgram) -> ScenarioFile? { reference(program)?.file }

    /// How the port differs on `program` in a way not already known: nil when it agrees, cannot be
    /// compared, or differs only as the expectations file says.
    func difference(_ program: FuzzProgram, on side: Side = .engine, worker: Int = 0) -> String? {
        differing(program, on: side, worker: worker)?.failure
    }

    /// `difference`, with its kind; `wall` as for `compared`.
    func differing(_ program: FuzzProgram, on side: Side = .engine, worker: Int = 0, wall: Duration? = nil) -> (
        failure: String, kind: FindingKind
    )? {
        guard let reference = DifferentialFuzzer.reference(program) else { return nil }
        let compared = compared(reference, on: side, worker: worker, wall: wall)
        guard let failure = compared.failure, let kind = compared.kind, known(compared, in: reference) == nil else {
            return nil
        }
        return (failure, kind)
    }

    /// The expectations file's `differ` rule that explains how `compared` differs, if any.
    func known(_ compared: Compared, in reference: Reference) -> DifferenceRule? {
        guard let mismatch = compared.mismatch else { return nil }
        return options.expectations?.knownDifference(mismatch, in: ProgramSummary(reference.file))
    }

    public func run(progress: @escaping @Sendable (String) -> Void = { _ in }) -> Report {
        let shared = DifferentialResults(Report(runs: 0, skipped: 0, findings: []))
        // Wall time only decides when to stop starting runs; each run is the same for the same seed.
        let deadline = options.time.map { ContinuousClock.now + $0 }
        let work: @Sendable (Int) -> Void = { worker in
            while true {
                if let most = options.maxFindings, shared.claimedFindingCount >= most { return }
                let claimed = shared.claim()
                if claimed >= options.runs { return }
                if let deadline, ContinuousClock.now >= deadline { return }
                let i = options.firstRun + claimed
                self.runOne(i, worker: worker, into: shared, deadline: deadline, progress: progress)
            }
        }
        onThreads(max(1, options.jobs), work)
        var report = shared.report
        report.findings.sort { $0.run < $1.run }
        return report
    }

    /// Run `i` of the campaign: its program, compared on each side, a finding shrunk on `worker`'s mock.
    private func runOne(
        _ i: Int, worker: Int, into shared: DifferentialResults, deadline: ContinuousClock.Instant?,
        progress: @Sendable (String) -> Void
    ) {
        let seed = Fuzzer.runSeed(options.seed, i)
        // Against a served mock latencies are waited for: the worlds' are capped (FuzzWorld.fastNetwork).
        let (program, failure, _) = Fuzzer.explore(
            seed: seed, maxSteps: options.maxSteps,
            fastNetwork: options.compare.comparesMock, wire: options.wire)
        guard failure == nil, let reference = DifferentialFuzzer.reference(program) else {
            shared.count(skipped: true)
            return
        }
        let sides: [Side] =
            (options.compare.comparesEngine ? [.engine] : []) + (options.compare.comparesMock ? [.mock] : [])
        var skipped = false, known = false
        defer { shared.count(skipped: skipped, known: known) }
        for side in sides {
            let result = compared(reference, on: side, worker: worker)
            if result.unimplemented { skipped = true }
            guard let first = result.failure else { continue }
            if let rule = self.known(result, in: reference) {
                known = true
                progress("run \(i) (seed \(seed)): a known difference (\(rule.reason))")
                return
            }
            let who = side == .engine ? "the port" : "the other build's mock"
            progress("run \(i) (seed \(seed)): \(who) differs: \(first)")
            guard shared.claimFinding(most: options.maxFindings) else {
                progress("run \(i): not shrunk, --max-findings was reached meanwhile")
                return
            }
            let kind = result.kind ?? .transcript
            if kind != .transcript {
                progress("run \(i): shrinking, at most \(options.shrinkTime.components.seconds) s of wall time")
            }
            shared.add(
                finding(
                    run: i, seed: seed, program: program, difference: first, kind: kind, on: side, worker: worker,
                    campaignDeadline: deadline))
            return
        }
    }

    /// Shrinks while the port still differs the same way (its `kind`), within `options.shrinkTime`
    /// and the campaign's deadline, then writes the reference's transcript as a scenario.
    func finding(
        run: Int, seed: UInt64, program: FuzzProgram, difference first: String, kind: FindingKind = .transcript,
        on side: Side = .engine, worker: Int = 0, campaignDeadline: ContinuousClock.Instant? = nil
    ) -> Finding {
        // A served mock that stalled or crashed is not shrunk: each try could cost the whole wall
        // budget again (or a restart), and the program as found already says what happened.
        let stalled = first.contains("(limit: fuzz-mock-run-wall)") || first.contains("exited (crashed?)")
        let deadline = min(ContinuousClock.now + options.shrinkTime, campaignDeadline ?? .now + options.shrinkTime)
        // Each failing try's message, so the finding says the shrunk program's own without running it again.
        var failures: [FuzzProgram: String] = [program: first]
        var shrinker = Shrinker(
            stillFails: { candidate in
                // No try outlasts the budget: a port's program gets at most the time left.
                let left = deadline - ContinuousClock.now
                guard left > .zero,
                    let found = self.differing(candidate, on: side, worker: worker, wall: left), found.kind == kind
                else { return false }
                failures[candidate] = found.failure
                return true
            }, deadline: deadline)
        let small = stalled ? program : shrinker.shrink(program)
        let final = failures[small] ?? first
        let reference = DifferentialFuzzer.referenceScenario(small)
        let body = reference.map { $0.steps.map(\.text) } ?? small.steps
        var againFlag = options.live ? " --live" : ""
        againFlag += " --port '\(options.port.command.replacingOccurrences(of: "'", with: "'\\''"))'"
        let fuzzFlags = (options.againstFlags.map { " " + $0 } ?? againFlag) + Fuzzer.wireFlag(options.wire)
        var lines: [String]
        switch side {
        case .engine:
            lines = [
                "# Differential fuzz: the port differs from the reference: \(final.split(separator: "\n").first ?? "")"
            ]
            if let reason = kind.reason { lines.append("# Reason: \(reason)") }
            lines += [
                "# Found by: passim fuzz\(fuzzFlags) --seed \(seed) --runs 1 (shrunk from \(program.steps.count) to \(small.steps.count) steps)",
                "# The `<` lines are the reference engine's; replay: passim run\(againFlag) FILE",
            ]
        case .mock:
            let served = options.servedMocks.first
            let binary = served?.binary ?? "BIN"
            let listen = served?.listenPortFlag ?? "--listen-port"
            lines = [
                "# Differential fuzz: the other build's mock differs from this one's: \(final.split(separator: "\n").first ?? "")",
                "# Found by: passim fuzz\(fuzzFlags) --seed \(seed) --runs 1 (shrunk from \(program.steps.count) to \(small.steps.count) steps)",
                "# The `<` lines are this build's (engine and mock); replay against the other mock: start `\(binary) serve --adobe \(listen) 0`,",
                "# then PASSIM_ADMIN_TOKEN=TOKEN passim run --live --server ADMIN-URL FILE",
            ]
        }
        if shrinker.cut {
            lines.append(
                "# Shrinking stopped at its wall-time budget (fuzz-shrink-wall, or the campaign's --time): "
                    + "the program is smaller, maybe not the smallest")
        }
        lines += small.world.map { $0.hasPrefix("scenario ") ? "scenario \"differential fuzz: seed \(seed)\"" : $0 }
        lines.append("")
        lines += body
        let text = lines.joined(separator: "\n") + "\n"
        let path = Fuzzer.writeCase(text, named: "differential-\(seed).scenario", in: options.outDir)
        return Finding(
            run: run, seed: seed, difference: final, steps: program.steps.count, shrunkSteps: small.steps.count,
            scenario: text, file: path, inMock: side == .mock, breakdown: kind.reason, shrinkCut: shrinker.cut)
    }
}

/// What the differential workers share.
typealias DifferentialResults = CampaignTally<DifferentialFuzzer.Report>

extension CampaignTally where Report == DifferentialFuzzer.Report {
    var claimedFindingCount: Int { report.claimedFindings }

    /// Claims a place for one more finding; false once `most` are claimed.
    func claimFinding(most: Int?) -> Bool {
        update { state in
            if let most, state.claimedFindings >= most { return false }
            state.claimedFindings += 1
            return true
        }
    }

    func count(skipped: Bool, known: Bool = false) {
        update { state in
            state.runs += 1
            if skipped { state.skipped += 1 }
            if known { state.known += 1 }
        }
    }

    func add(_ finding: DifferentialFuzzer.Finding) { update { $0.findings.append(finding) } }
}
