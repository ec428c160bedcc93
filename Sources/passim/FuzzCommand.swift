import ArgumentParser
import Foundation
import Fuzz
import PassModel
import Port
import Scenario
import ScenarioSyntax

struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Explore random worlds and flows; shrink failures into .scenario files.",
        discussion: """
            The oracle: the invariants of BEHAVIOR.md after every step, no hang or unbounded growth, the same
            transcript twice, and every flow ended once faults heal and time passes. With --port or
            --against, a port that differs from the reference, stops answering within --port-timeout,
            exits or livelocks is a finding, shrunk within 60 s of wall time (and --time). Exit status 0
            when nothing failed, 1 when something did (the files are in --out), 2 for bad input.
            """)

    @Option(help: "The seed of run 0; run i derives its own. `--seed S --runs 1` replays a reported run.")
    var seed: UInt64 = 1

    @Option(help: "How many runs (default 100 unless --time is given).")
    var runs: Int?

    @Option(
        name: .customLong("seed-range"),
        help:
            "Runs A through B of the campaign of --seed (e.g. 0..9999): shards given disjoint ranges never repeat a run."
    )
    var seedRange: String?

    @Option(help: "Run for this long instead (e.g. 30s, 5m); with --port or --against too (--runs is then the most).")
    var time: String?

    @Option(
        help:
            "Parallel workers. With --against --compare mock each has its own served mock; such runs mostly wait for latencies, so more workers than cores still pay."
    )
    var jobs: Int = 1

    @Option(
        help: ArgumentHelp(
            "One run in N reads the mock's answers from their bytes (libxml2), the others get them as values; 1: every run.",
            valueName: "N"))
    var bytesEvery: UInt64 = Fuzzer.bytesSample

    @Option(help: "At most this many steps per run.")
    var steps: Int = 40

    @Option(help: "Where failing cases are written.")
    var out: String = "fuzz-failures"

    @Option(help: "Explore one written case again and report its failure.")
    var replay: String?

    @OptionGroup var port: PortCommandOption

    @Option(help: "Differential against another build of passim: the same as --port 'BIN shim'.")
    var against: String?

    @Option(
        help: ArgumentHelp(
            "With --against: what of the other build is compared. engine: its engine (through `BIN shim`) against this build's mock; mock: this build's engine against its mock (`BIN serve` on loopback, each world loaded through its admin endpoint), a difference counting only when this build's own served mock agrees with the reference; both: each in turn. With mock, worlds' latencies are capped at 10 ms.",
            valueName: "engine|mock|both"))
    var compare: String?

    @OptionGroup var live: LiveOption

    @Option(
        name: .customLong("max-findings"),
        help:
            "With --port or --against: end the campaign once this many differences are found (no further program run or shrunk)."
    )
    var maxFindings: Int?

    @OptionGroup var expectOption: ExpectOption

    @OptionGroup var wireOption: WireOption

    @Flag(
        help:
            "Parity: run each program on both wires of this build's engine; a callback that differs beyond the expectations file's rules is a finding, shrunk to a scenario (both wires' transcripts)."
    )
    var parity = false

    func validate() throws {
        if let runs, runs < 1 { throw ValidationError("--runs takes a number of at least 1") }
        if runs != nil && time != nil { throw ValidationError("give --runs or --time, not both") }
        if let seedRange {
            guard Fuzzer.runRange(seedRange) != nil else {
                throw ValidationError("--seed-range takes two run numbers A..B with 0 <= A <= B, e.g. 0..9999")
            }
            if runs != nil || time != nil {
                throw ValidationError("--seed-range gives the runs; leave out --runs and --time")
            }
        }
        if let time, Millis(text: time) == nil { throw ValidationError("--time takes a duration such as 30s or 5m") }
        guard jobs >= 1 else { throw ValidationError("--jobs takes a number of at least 1") }
        guard steps >= 1 else { throw ValidationError("--steps takes a number of at least 1") }
        guard bytesEvery >= 1 else { throw ValidationError("--bytes-every takes a number of at least 1") }
        if port.command != nil && against != nil { throw ValidationError("give --port or --against, not both") }
        if live.isOn && port.command == nil && against == nil {
            throw ValidationError("--live needs --port or --against")
        }
        if !expect.isEmpty && port.command == nil && against == nil && !parity {
            throw ValidationError("--expect needs --port, --against or --parity")
        }
        if parity {
            if port.command != nil || against != nil {
                throw ValidationError("--parity compares this build's two wires: drop --port/--against")
            }
            if replay != nil { throw ValidationError("--parity takes --runs, --time or --seed-range, not --replay") }
        }
        if let maxFindings, maxFindings < 1 { throw ValidationError("--max-findings takes a number of at least 1") }
        if let compare {
            guard against != nil else { throw ValidationError("--compare goes with --against") }
            guard DifferentialFuzzer.Comparison(rawValue: compare) != nil else {
                throw ValidationError("--compare takes engine, mock or both")
            }
            if live.isOn, compare != "engine" {
                throw ValidationError("--live compares engines only: drop it or use --compare engine")
            }
        }
        if (port.command != nil || against != nil) && replay != nil {
            throw ValidationError("a differential run takes --runs, --time or --seed-range, not --replay")
        }
    }

    func run() throws {
        if let replay {
            let file: ScenarioFile
            do {
                file = try ScenarioParser.parse(fileAt: replay)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(2)
            }
            let result = Fuzzer.replay(file)
            print(result.lines.joined(separator: "\n"))
            if let failure = result.failure {
                print("FAIL \(replay): \(failure)")
                throw ExitCode(1)
            }
            if let inapplicable = result.inapplicable { print("stopped: \(inapplicable)") }
            print("ok   \(replay): no failure")
            return
        }
        if parity {
            try parityRun()
            return
        }
        let againstShim = against.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "' shim" }
        if let command = port.command ?? againstShim {
            try differential(command)
            return
        }
        let budget = time.flatMap { Millis(text: $0) }.map { Duration.milliseconds($0.value) }
        let range = seedRange.flatMap(Fuzzer.runRange)
        var options = Fuzzer.Options(
            seed: seed, runs: range.map(\.count) ?? runs, time: budget, jobs: jobs,
            maxSteps: steps, outDir: out, firstRun: range?.lowerBound ?? 0, bytesSample: bytesEvery)
        options.wire = wire
        // On a terminal a campaign says how it goes: runs, steps/s, findings, time left.
        let line = Terminal.isTTY(STDERR_FILENO) ? ProgressLine() : nil
        if let line {
            let total = options.runs ?? (budget == nil ? 100 : nil)
            options.onRun = { done, steps, findings in
                line.show(
                    Fuzzer.progressLine(
                        runs: done, of: total, steps: steps, findings: findings,
                        elapsed: line.elapsed, budget: budget))
            }
        }
        let fuzzer = Fuzzer(options: options)
        let (cpuBefore, wallBefore) = (FuzzCommand.cpuSeconds(), ContinuousClock.now)
        let report = fuzzer.run { text in
            let write = { FileHandle.standardError.write(Data((text + "\n").utf8)) }
            if let line { line.interrupt(write) } else { write() }
        }
        line?.finish()
        let cpu = FuzzCommand.cpuSeconds() - cpuBefore
        let wall = (ContinuousClock.now - wallBefore) / .seconds(1)
        for f in report.findings {
            print("FAIL run \(f.run) seed \(f.seed): \(f.failure)")
            print("  shrunk from \(f.steps) to \(f.shrunkSteps) steps: \(f.file ?? "(could not write the file)")")
            print("  replay: passim fuzz --seed \(f.seed) --runs 1\(Fuzzer.wireFlag(wire))")
        }
        let ran =
            (range.map { " (runs \($0.lowerBound)..\($0.lowerBound + report.runs - 1) of seed \(seed)" }
                ?? " (seed \(seed)") + (wire == .sdk ? ")" : ", wire v2)")
        print(
            "\(report.runs) runs\(ran), \(report.steps) steps, \(report.findings.count) failing, \(report.engineInputs) engine inputs"
        )
        // The rates read the real clocks, so they go to stderr: stdout stays the same for the same seed.
        FileHandle.standardError.write(Data((FuzzCommand.rates(report, cpu: cpu, wall: wall) + "\n").utf8))
        if !report.findings.isEmpty { throw ExitCode(1) }
    }

    /// `engine inputs/s` and `steps/s` per CPU-second (per core, whatever `--jobs`) and per wall second.
    /// Shrinking findings is left out of the CPU figure (its seconds are said), not of the wall one.
    static func rates(_ report: Fuzzer.Report, cpu total: Double, wall: Double) -> String {
        func rate(_ n: Int, _ seconds: Double) -> String {
            seconds > 0 ? String(Int((Double(n) / seconds).rounded())) : "-"
        }
        let cpu = max(0, total - report.shrinkingCPU)
        let shrinking =
            report.findings.isEmpty ? "" : ", shrinking's \(String(format: "%.2f", report.shrinkingCPU)) s left out"
        return
            "\(rate(report.engineInputs, cpu)) engine inputs/s and \(rate(report.steps, cpu)) steps/s per CPU-second "
            + "(\(String(format: "%.2f", cpu)) s CPU\(shrinking)); \(rate(report.engineInputs, wall)) engine inputs/s wall (\(String(format: "%.2f", wall)) s)"
    }

    /// The expectations files, merged in order (nil when none is given); a bad one is exit 2.
    static func load(_ paths: [String]) throws -> Expectations? {
        var merged: Expectations?
        for path in paths {
            do {
                let e = try Expectations.load(path)
                merged = merged.map { $0.merged(with: e) } ?? e
            } catch {
                FileHandle.standardError.write(Data("\(error.message)\n".utf8))
                throw ExitCode(2)
            }
        }
        return merged
    }

    /// What `--parity` compares with when no `--expect` is given: the v2 expectations file, and the
    /// parity rules proposed for it (while they are not in it yet), each where it exists.
    static let parityDefaults = [ExpectOption.wireV2]

    /// `--parity`: each program on both wires of this build.
    func parityRun() throws {
        let paths =
            expect.isEmpty ? FuzzCommand.parityDefaults.filter { FileManager.default.fileExists(atPath: $0) } : expect
        guard let expectations = try FuzzCommand.load(paths) else {
            FileHandle.standardError.write(
                Data("passim fuzz --parity: no expectations file (give --expect Scenarios/wire-v2.expect)\n".utf8))
            throw ExitCode(2)
        }
        let range = seedRange.flatMap(Fuzzer.runRange)
        let budget = time.flatMap { Millis(text: $0) }.map { Duration.milliseconds($0.value) }
        var options = ParityFuzzer.Options(
            seed: seed, runs: range.map(\.count) ?? runs, time: budget, jobs: jobs, maxSteps: steps, outDir: out,
            firstRun: range?.lowerBound ?? 0, expectations: expectations, maxFindings: maxFindings)
        options.generateOn = wire
        let (cpuBefore, wallBefore) = (FuzzCommand.cpuSeconds(), ContinuousClock.now)
        let report = ParityFuzzer(options: options).run { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        let cpu = FuzzCommand.cpuSeconds() - cpuBefore
        let wall = (ContinuousClock.now - wallBefore) / .seconds(1)
        for f in report.findings {
            print("DIFF run \(f.run) seed \(f.seed): \(f.difference.split(separator: "\n").first ?? "")")
            print(
                "  shrunk from \(f.steps) to \(f.shrunkSteps) steps: \(f.file ?? "(could not write the file)"), \(f.v2File ?? "")"
            )
        }
        // Most explained first; ties in the reasons' order, so the same seed prints the same lines.
        for (reason, count) in report.explained.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            print("  \(count) explained: \(reason)")
        }
        let ran =
            range.map { "runs \($0.lowerBound)..\($0.lowerBound + report.runs - 1) of seed \(seed)" } ?? "seed \(seed)"
        print(
            "\(report.runs) runs (\(ran), generated on \(wire.rawValue)): \(report.agreed) agree, \(report.explainedCount) differ as a rule says, \(report.skipped) not compared, \(report.findings.count) differing"
        )
        FileHandle.standardError.write(
            Data("\(String(format: "%.2f", cpu)) s CPU, \(String(format: "%.2f", wall)) s wall\n".utf8))
        if !report.findings.isEmpty { throw ExitCode(1) }
    }

    /// The expectations files given (fuzz reads them all, merged in order).
    var expect: [String] { expectOption.files }

    /// The wire given, else the SDK's.
    var wire: EngineWire { wireOption.value ?? .sdk }

    /// The process's CPU time (user and system, every thread), in seconds.
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// `--port`/`--against`: where the port's transcript differs from the reference's.
    func differential(_ command: String) throws {
        let range = seedRange.flatMap(Fuzzer.runRange)
        let expectations = try FuzzCommand.load(expect)
        let pool = PortPool()
        defer { pool.closeAll() }
        let comparison = compare.flatMap(DifferentialFuzzer.Comparison.init(rawValue:)) ?? .engine
        // The mock comparison's servers, one per worker: started before any run; a set-up mistake is
        // said once (exit 2).
        var served: [ServedMock] = []
        defer { for s in served { s.stop() } }
        if comparison != .engine, let against {
            do {
                for _ in 0..<jobs {
                    let s = try ServedMock(binary: against)
                    served.append(s)
                    try ScenarioRunner.Runtime(network: .server(adminURL: s.adminURL, adminToken: s.adminToken))
                        .preflight()
                }
                ServedMock.stopOnSignals(served)
            } catch {
                FileHandle.standardError.write(Data("passim fuzz: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        let budget = time.flatMap { Millis(text: $0) }.map { Duration.milliseconds($0.value) }
        let portCommand = PortCommand(
            command: command, timeout: port.timeout, constants: expectations?.constants ?? ConstantMap(), pool: pool)
        // A port that cannot start or answer its hello is one message before any run (exit 2), not a
        // finding on every program.
        if comparison != .mock {
            do {
                try ScenarioRunner.Runtime(port: portCommand).preflight()
            } catch {
                FileHandle.standardError.write(Data("passim fuzz: \(error.message)\n".utf8))
                throw ExitCode(2)
            }
        }
        var options = DifferentialFuzzer.Options(
            seed: seed, runs: range.map(\.count) ?? runs ?? (budget == nil ? 100 : Int.max),
            firstRun: range?.lowerBound ?? 0, maxSteps: steps,
            outDir: out,
            port: portCommand,
            live: live.isOn, expectations: expectations, maxFindings: maxFindings, time: budget)
        options.compare = comparison
        options.wire = wire
        options.servedMocks = served
        options.jobs = jobs
        if let against {
            options.againstFlags =
                "--against '\(against.replacingOccurrences(of: "'", with: "'\\''"))'"
                + (comparison == .engine ? "" : " --compare \(comparison.rawValue)")
        }
        let fuzzer = DifferentialFuzzer(options: options)
        let report = fuzzer.run { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        for f in report.findings {
            print(
                "DIFF\(f.inMock ? " (mock)" : "") run \(f.run) seed \(f.seed): \(f.difference.split(separator: "\n").first ?? "")"
            )
            print(
                "  shrunk from \(f.steps) to \(f.shrunkSteps) steps\(f.shrinkCut ? " (stopped at its time budget)" : ""): \(f.file ?? "(could not write the file)")"
            )
            if let breakdown = f.breakdown { print("  reason: \(breakdown)") }
        }
        let ran =
            range.map { "runs \($0.lowerBound)..\($0.lowerBound + report.runs - 1) of seed \(seed)" } ?? "seed \(seed)"
        print(
            "\(report.runs) runs (\(ran); \(report.skipped) not compared, \(report.known) known differences), \(report.findings.count) differing"
        )
        if !report.findings.isEmpty { throw ExitCode(1) }
    }
}
