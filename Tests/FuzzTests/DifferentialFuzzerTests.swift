import Foundation
import Port
import ScenarioSyntax
import Testing
@testable import Fuzz
@testable import Scenario

/// `passim fuzz --port`: a port with a bug is told apart from the reference and the difference comes
/// back as a small scenario that passes on the reference and fails on the port; a faithful port gives
/// no finding.
@Suite(.serialized) struct DifferentialFuzzerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A copy of the Python port with one line changed: authentication tracking never says "cached".
    static func buggyPort() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passim-buggy-port-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: root + "/Fixtures/ports/python", toPath: dir.path)
        let engine = dir.appendingPathComponent("app_engine.py")
        let text = try String(contentsOf: engine, encoding: .utf8)
        let bugged = text.replacingOccurrences(
            of: #"md5_hex(token.guid), "true" if from_store else "false"]"#,
            with: #"md5_hex(token.guid), "false"]"#)
        #expect(bugged != text, "the line to break is still in the port")
        try bugged.write(to: engine, atomically: true, encoding: .utf8)
        return "python3 " + dir.appendingPathComponent("port.py").path
    }

    func fuzz(_ command: String, runs: Int, jobs: Int = 1, expectations: Expectations? = nil)
        -> DifferentialFuzzer.Report
    {
        let pool = PortPool()
        defer { pool.closeAll() }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("passim-diff-\(UUID().uuidString)").path
        var options = DifferentialFuzzer.Options(
            seed: 1, runs: runs, maxSteps: 40, outDir: out,
            port: PortCommand(command: command, pool: pool),
            expectations: expectations)
        options.jobs = jobs
        return DifferentialFuzzer(options: options).run()
    }

    @Test func aPortBugIsFoundAndShrunkIntoAScenarioThatFailsOnlyOnThePort() throws {
        let port = try Self.buggyPort()
        let report = fuzz(port, runs: 160)
        let finding = try #require(
            report.findings.first { $0.difference.contains("TRACKING_AUTHENTICATION") },
            "160 runs did not find the bug (seed 1 first finds it at run 140): \(report.findings.map(\.difference))")
        #expect(finding.shrunkSteps <= 15 && finding.shrunkSteps < finding.steps)
        let file = try ScenarioParser.parse(finding.scenario, path: "finding.scenario")
        #expect(ScenarioRunner().run(file).status == .passed, "the reference passes its own transcript")
        #expect(ScenarioRunner(runtime: .port(PortCommand(command: port))).run(file).status == .failed)

        // `--jobs 3`: the same runs, the same findings in the same order, the same scenarios.
        let parallel = fuzz(port, runs: 160, jobs: 3)
        #expect(parallel.runs == 160 && parallel.skipped == report.skipped)
        #expect(parallel.findings.map(\.run) == report.findings.map(\.run))
        #expect(parallel.findings.map(\.scenario) == report.findings.map(\.scenario))
    }

    @Test func aKnownDifferenceIsNoFinding() throws {
        let known = try Expectations.parse(
            """
            differ value,missing expected sendTrackingData(TRACKING_AUTHENTICATION, _) because the port never reports a cached login
            differ value,extra got sendTrackingData(TRACKING_AUTHENTICATION, _) because the port never reports a cached login
            """, path: "p.expect")
        let report = fuzz(try Self.buggyPort(), runs: 160, expectations: known)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.difference))")
        #expect(report.known >= 1)
    }

    @Test func theFaithfulPortGivesNoFindingOnTheSameRuns() {
        let report = fuzz("python3 " + Self.root + "/Fixtures/ports/python/port.py", runs: 120)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.difference))")
        #expect(report.runs == 120)
    }
}
