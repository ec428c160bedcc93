import Foundation
import PassModel
import Port
import ScenarioSyntax
import Simulation
import Testing
@testable import Fuzz
@testable import Scenario

/// The fuzzers' output is a function of the seed, and making a run cheaper must not change it: a
/// fixed range of runs, on each wire, and a short parity campaign, each summed up as text and
/// compared with Fixtures/fuzz-golden/, which the code before any such change wrote. Each run's
/// line carries its program, its counts, its failure and a digest of everything the run showed:
/// the `<` lines with the instants they came at, the simulator's trace and the mock's request log.
/// A line that differs names the run to look at. `PASSIM_WRITE_GOLDEN=1 swift test --filter
/// FuzzGoldenTests` writes the files again, for a change that means to alter what a run does.
@Suite struct FuzzGoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let folder = root + "/Fixtures/fuzz-golden"

    /// FNV-1a, 64 bits: a stable digest (Swift's `Hasher` is seeded per process).
    static func digest(_ text: String) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return String(h, radix: 16)
    }

    /// A trace event as text, field by field (a `Call` by its canonical text).
    static func text(_ event: TraceEvent) -> String {
        let at = "\(event.time - .simulationStart) "
        switch event.kind {
        case .call(let app, let call): return at + "call \(app) \(call)"
        case .callback(let app, let callback): return at + "callback \(app) \(callback)"
        case .request(let from, let method, let url, let host):
            return at + "request \(from) \(method) \(url) \(String(describing: host))"
        case .response(let to, let status, let failure, let host):
            return at + "response \(to) \(status) \(String(describing: failure)) \(String(describing: host))"
        case .user(let action): return at + "user \(action)"
        }
    }

    /// Everything one run showed, replayed from its typed steps with `<` lines pinned to their instants.
    static func transcript(_ run: FuzzRun) -> String {
        let session = ExplorationSession(
            file: run.file, writesLines: true, typedResponses: run.typedResponses, pinsTimes: true)
        for step in run.steps {
            session.perform(StepText.located(step))
            if session.failed || session.stopped { break }
        }
        let result = session.failed || session.stopped ? session.result : session.finish(checkLiveness: true)
        var out = result.lines
        out.append(
            "failure \(String(describing: result.failure)) inapplicable \(String(describing: result.inapplicable))")
        out.append("steps \(result.stepsRun) inputs \(result.engineInputs)")
        out += session.simulator.trace.map { text($0) }
        out += session.simulator.requestLog.map { "\($0)" }
        return out.joined(separator: "\n")
    }

    /// One line per run of campaign `seed`: runs `0..<runs`, as `passim fuzz --seed S [--wire v2]` runs them.
    static func invariantLines(seed: UInt64, runs: Int, wire: EngineWire) -> [String] {
        (0..<runs).map { i in
            let runSeed = Fuzzer.runSeed(seed, i)
            let typed = !Fuzzer.goesThroughBytes(runSeed)
            let (run, failure, steps, inputs) = Fuzzer.exploreCounting(
                seed: runSeed, maxSteps: 40, typed: typed, wire: wire)
            return
                "run \(i) seed \(runSeed) \(typed ? "typed" : "bytes") steps \(steps) inputs \(inputs) "
                + "failure \(failure.map(\.description) ?? "none") program \(digest(run.program.text)) "
                + "transcript \(digest(transcript(run)))"
        }
    }

    /// A parity campaign's counts and what explained its differences, rule by rule (sorted: the
    /// report keeps them in a dictionary).
    static func parityLines(seed: UInt64, runs: Int) throws -> [String] {
        let expectations = try Expectations.load(root + "/Scenarios/wire-v2.expect")
        let out = NSTemporaryDirectory() + "passim-golden-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let report = ParityFuzzer(options: .init(seed: seed, runs: runs, outDir: out, expectations: expectations))
            .run()
        var lines = ["runs \(report.runs) skipped \(report.skipped) agreed \(report.agreed)"]
        lines += report.explained.sorted { $0.key < $1.key }.map { "explained \($0.value) \($0.key)" }
        lines += report.findings.map { "finding run \($0.run) seed \($0.seed) \($0.difference) \(digest($0.scenario))" }
        return lines
    }

    /// Compares `lines` with the golden file `name`, or writes it when asked to.
    static func check(_ lines: [String], against name: String) throws {
        let path = folder + "/" + name
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["PASSIM_WRITE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == golden.count, "\(name): \(lines.count) lines, golden \(golden.count)")
        for (line, expected) in zip(lines, golden) where line != expected {
            Issue.record("\(name) differs:\n  now    \(line)\n  golden \(expected)")
        }
    }

    @Test func theInvariantFuzzerRunsWhatItRanBefore() throws {
        try Self.check(Self.invariantLines(seed: 7, runs: 160, wire: .sdk), against: "invariant-seed7.txt")
    }

    @Test func theInvariantFuzzerRunsWhatItRanBeforeOnV2() throws {
        try Self.check(Self.invariantLines(seed: 11, runs: 60, wire: .restV2), against: "invariant-v2-seed11.txt")
    }

    @Test func theParityFuzzerFindsWhatItFoundBefore() throws {
        try Self.check(try Self.parityLines(seed: 23, runs: 40), against: "parity-seed23.txt")
    }
}
