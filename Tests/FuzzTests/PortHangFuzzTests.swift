import Foundation
import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Fuzz
@testable import Scenario

/// `passim fuzz --port` against ports that would hang it (Fixtures/ports/hang): a port that spins after
/// its hello, one that spins on a call, one that livelocks only on some programs, one whose programs
/// never end. Each is a finding like any other difference: shrunk through programs of its own kind
/// within the shrink's budget, written as a scenario with its reason, the campaign ending at
/// `--max-findings`; and no process group of a port outlives the campaign.
@Suite struct PortHangFuzzTests {
    struct Outcome {
        var report: DifferentialFuzzer.Report
        var seconds: Double
        var leftover: [pid_t]
        var groups: Int
        var command: String
    }

    static let root = DifferentialFuzzerTests.root

    /// `passim fuzz --port 'python3 Fixtures/ports/hang/port.py MODE' --port-timeout 300ms --seed 1
    /// --runs 200 --max-findings 1`, the options changed by `adjust`. The shrink has 120 s, twice the
    /// command's, so that a loaded machine (each try starts a Python process) still shrinks in full.
    func fuzz(_ mode: String, adjust: (inout DifferentialFuzzer.Options) -> Void = { _ in }) -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("passim-hang-\(UUID())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let groupsFile = scratch.appendingPathComponent("groups").path
        let command = "python3 \(Self.root)/Fixtures/ports/hang/port.py \(mode)"
        let pool = PortPool()
        var options = DifferentialFuzzer.Options(
            seed: 1, runs: 200, maxSteps: 40, outDir: scratch.appendingPathComponent("out").path,
            port: PortCommand(
                command: "PASSIM_HANG_PGID_FILE=\(groupsFile) " + command, timeout: Millis(300), pool: pool),
            maxFindings: 1)
        options.shrinkTime = .seconds(120)
        adjust(&options)
        let started = ContinuousClock.now
        let report = DifferentialFuzzer(options: options).run()
        pool.closeAll()
        let took = (ContinuousClock.now - started).components
        let groups = ((try? String(contentsOfFile: groupsFile, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { pid_t($0) }
        return Outcome(
            report: report, seconds: Double(took.seconds) + Double(took.attoseconds) / 1e18,
            leftover: groups.flatMap(Self.members(ofGroup:)), groups: groups.count, command: command)
    }

    /// Live processes (zombies left out) whose process group is `group`.
    static func members(ofGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
        }
    }

    /// The finding replays: the reference passes its scenario, the port fails it the same way.
    func replays(_ finding: DifferentialFuzzer.Finding, on command: String, failingWith kind: FindingKind) throws {
        let file = try ScenarioParser.parse(finding.scenario, path: "finding.scenario")
        #expect(ScenarioRunner().run(file).status == .passed, "the reference passes its own transcript")
        let pool = PortPool()
        defer { pool.closeAll() }
        let port = ScenarioRunner.Runtime(port: PortCommand(command: command, timeout: Millis(300), pool: pool))
        let replayed = ScenarioRunner(runtime: port).run(file)
        #expect(replayed.status == .failed)
        #expect(FindingKind(failure: replayed.failure?.message ?? "", hasMismatch: replayed.mismatch != nil) == kind)
    }

    /// Every program times out at its first call: run 0 is the finding, shrunk to a single call (an
    /// empty program sends the port nothing after its hello, and passes). Bound: 150 s (the shrink's
    /// budget and the campaign; some 10 s on an idle machine).
    @Test func aPortSpinningAfterItsHelloIsAFindingShrunkToOneCall() throws {
        let outcome = fuzz("spin-after-hello")
        let finding = try #require(outcome.report.findings.first, "no finding")
        #expect(outcome.report.findings.count == 1 && outcome.report.runs == 1, "--max-findings 1 ends the campaign")
        #expect(finding.difference.contains("did not answer within 300ms (--port-timeout): no idle in answer to"))
        #expect(finding.breakdown == FindingKind.silent.reason)
        #expect(
            finding.scenario.contains("\n# Reason: the port stopped answering: it said nothing within --port-timeout"))
        #expect(finding.shrunkSteps == 1 && !finding.shrinkCut, "\(finding.shrunkSteps) steps")
        #expect(finding.file != nil)
        try replays(finding, on: outcome.command, failingWith: .silent)
        #expect(outcome.groups > 2 && outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 150, "\(outcome.seconds) s")
    }

    /// Only programs that ask `getAuthentication` time out; the shrink keeps that call. Bound: 150 s.
    @Test func aPortSpinningOnOneCallIsShrunkToThatCall() throws {
        let outcome = fuzz("spin-on getAuthentication")
        let finding = try #require(outcome.report.findings.first, "no finding")
        #expect(
            finding.difference.contains(#"no idle in answer to {"type":"call","app":"app","call":"getAuthentication""#))
        #expect(finding.breakdown == FindingKind.silent.reason)
        #expect(finding.shrunkSteps < finding.steps && finding.shrunkSteps <= 3, "\(finding.shrunkSteps) steps")
        #expect(finding.scenario.contains("> getAuthentication("))
        try replays(finding, on: outcome.command, failingWith: .silent)
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 150, "\(outcome.seconds) s")
    }

    /// The port livelocks only on programs that ask `getAuthentication` and then let a timer fire, so
    /// the shrink meets programs of both kinds (livelocking, and passing) and keeps only those that
    /// livelock: the call and what fires a timer stay. Each livelocking try ends at the re-arm rule.
    /// Bound: 150 s (some 5 s on an idle machine).
    @Test func aPortLivelockingOnSomeProgramsIsShrunkThroughBothKinds() throws {
        let outcome = fuzz("livelock-after getAuthentication")
        let finding = try #require(outcome.report.findings.first, "no finding")
        #expect(
            finding.difference.hasPrefix("livelock: a timer re-armed at the instant it fired"), "\(finding.difference)")
        #expect(finding.breakdown == FindingKind.livelock.reason)
        #expect(finding.scenario.contains("\n# Reason: a livelock"))
        #expect(finding.shrunkSteps < finding.steps, "\(finding.steps) to \(finding.shrunkSteps) steps")
        #expect(finding.scenario.contains("> getAuthentication("))
        #expect(!finding.shrinkCut)
        try replays(finding, on: outcome.command, failingWith: .livelock)
        // Without the call the same program passes: the shrink met that kind and refused it.
        let without = finding.scenario.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("> getAuthentication(") }.joined(separator: "\n")
        if let file = try? ScenarioParser.parse(without, path: "without.scenario") {
            let pool = PortPool()
            defer { pool.closeAll() }
            let port = ScenarioRunner.Runtime(port: PortCommand(command: outcome.command, pool: pool))
            let result = ScenarioRunner(runtime: port).run(file)
            #expect(!(result.failure?.message.hasPrefix("livelock:") ?? false), "\(result.failure?.message ?? "")")
        }
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 150, "\(outcome.seconds) s")
    }

    /// A port whose programs never end (a timer re-armed 1 ms later: 2,000,000 events, each a round
    /// trip) is stopped at the program's wall, and each shrink try at what is left of the shrink's
    /// budget. Here a 2 s wall and a 10 s budget. Bound: 60 s (some 15 s on an idle machine).
    @Test func aProgramThatNeverEndsIsStoppedAtItsWallAndShrunkWithinTheBudget() throws {
        let outcome = fuzz("drift-after getAuthentication") { options in
            options.portWall = .seconds(2)
            options.shrinkTime = .seconds(10)
        }
        let finding = try #require(outcome.report.findings.first, "no finding")
        #expect(
            finding.difference.contains(
                "the port has taken more than 2 s of wall time on this scenario (limit: fuzz-port-run-wall)"),
            "\(finding.difference)")
        #expect(finding.breakdown == FindingKind.slow.reason)
        #expect(finding.shrunkSteps <= finding.steps)
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 60, "\(outcome.seconds) s")
    }

    /// The campaign's `--time` bounds the shrink too: a finding made near its end is written less
    /// shrunk, and says so. Bound: 30 s (a 3 s campaign, one program past it at most, the writing).
    @Test func theCampaignsTimeEndsTheShrink() throws {
        let outcome = fuzz("spin-after-hello") { options in
            options.time = .seconds(3)
            options.runs = Int.max
            options.port.timeout = Millis(1_000)
        }
        let finding = try #require(outcome.report.findings.first, "no finding")
        #expect(finding.shrinkCut && finding.shrunkSteps > 1, "\(finding.shrunkSteps) steps")
        #expect(finding.scenario.contains("\n# Shrinking stopped at its wall-time budget"))
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 30, "\(outcome.seconds) s")
    }
}
