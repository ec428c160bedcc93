import Foundation
import PassModel
import Port
import Testing
@testable import Scenario

/// `passim run --port` against ports that would hang it (Fixtures/ports/hang): one that spins for ever
/// after its hello, one that spins on a given call, one that livelocks only in some scenarios. Each
/// scenario ends at `--port-timeout` (or at the livelock rule) with a message naming what was owed and
/// quoting the port's standard error; the run ends within the bound each test states, and no process
/// group of a port outlives it.
@Suite struct PortHangRunTests {
    static let classicLogin = packageRoot + "/Scenarios/authn/classic-login.scenario"
    static let tvosPolls = packageRoot + "/Scenarios/tvos/poll-every-ten-seconds.scenario"
    /// A scenario without `getAuthentication`.
    static let startup = packageRoot + "/Scenarios/startup/cookbook-b-startup.scenario"

    struct Outcome {
        var report: SuiteRun.Report
        var seconds: Double
        /// Live processes left in the ports' process groups once the run has ended.
        var leftover: [pid_t]
        var groups: Int

        func failure(_ path: String) -> String {
            report.results.first { $0.path == path }?.failure?.message ?? "(passed)"
        }
    }

    /// Runs `paths` through the hang port in `mode`, as `passim run --port-timeout 500ms` does.
    func run(_ mode: String, _ paths: [String]) -> Outcome {
        let groupsFile = FileManager.default.temporaryDirectory.appendingPathComponent("passim-hang-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: groupsFile) }
        let command =
            "PASSIM_HANG_PGID_FILE=\(groupsFile) python3 \(packageRoot)/Fixtures/ports/hang/port.py \(mode)"
        let pool = PortPool()
        var options = SuiteRun.Options()
        options.runtime = ScenarioRunner.Runtime(port: PortCommand(command: command, timeout: Millis(500), pool: pool))
        let started = ContinuousClock.now
        let report = SuiteRun(options: options).run(paths: paths)
        pool.closeAll()
        let took = (ContinuousClock.now - started).components
        let groups = ((try? String(contentsOfFile: groupsFile, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { pid_t($0) }
        return Outcome(
            report: report, seconds: Double(took.seconds) + Double(took.attoseconds) / 1e18,
            leftover: groups.flatMap(Self.members(ofGroup:)), groups: groups.count)
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

    /// Bound: 60 s (per scenario a deaf kept process's hello and a call, 500 ms each, and a Python
    /// start: a few seconds when the machine is idle, Python starting slowly on a loaded one).
    @Test func aPortSpinningAfterItsHelloFailsEachScenarioAtTheTimeout() {
        let outcome = run("spin-after-hello", [Self.classicLogin, Self.startup])
        #expect(outcome.report.results.count == 2 && outcome.report.results.allSatisfy { $0.status == .failed })
        for path in [Self.classicLogin, Self.startup] {
            let failure = outcome.failure(path)
            // The first call: classic-login's `setRequestor`, the startup cookbook's `init`.
            #expect(
                failure.contains(
                    #"app: port: the port did not answer within 500ms (--port-timeout): no idle in answer to {"type":"call","app":"app","call":""#
                ), "\(failure)")
            #expect(failure.contains("; its processes were killed\nport stderr:\nspinning: after hello"), "\(failure)")
        }
        #expect(outcome.groups >= 2 && outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 60, "\(outcome.seconds) s")
    }

    /// Bound: 60 s.
    @Test func aPortSpinningOnOneCallFailsOnlyTheScenariosThatMakeIt() {
        let outcome = run("spin-on getAuthentication", [Self.classicLogin, Self.startup])
        let failure = outcome.failure(Self.classicLogin)
        #expect(
            failure.contains(
                #"the port did not answer within 500ms (--port-timeout): no idle in answer to {"type":"call","app":"app","call":"getAuthentication""#
            ), "\(failure)")
        #expect(failure.contains("port stderr:\nspinning: asked getAuthentication"), "\(failure)")
        #expect(outcome.failure(Self.startup) == "(passed)")
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 60, "\(outcome.seconds) s")
    }

    /// The livelock is the harness's to see (each answer comes at once): only a scenario with the call
    /// and a timer firing after it livelocks, and it ends at the re-arm rule. Bound: 60 s.
    @Test func aPortThatLivelocksOnlyInSomeScenariosFailsThoseAsALivelock() {
        let outcome = run("livelock-after getAuthentication", [Self.classicLogin, Self.tvosPolls, Self.startup])
        #expect(
            outcome.failure(Self.tvosPolls).hasPrefix(
                "livelock: a timer re-armed at the instant it fired, more than 100 times at "),
            "\(outcome.failure(Self.tvosPolls))")
        #expect(outcome.failure(Self.classicLogin) == "(passed)", "a login fires no timer")
        #expect(outcome.failure(Self.startup) == "(passed)")
        #expect(outcome.leftover.isEmpty, "left alive: \(outcome.leftover)")
        #expect(outcome.seconds < 60, "\(outcome.seconds) s")
    }
}
