import Foundation
import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Fuzz
@testable import Scenario

/// Issue 30, item 5: `passim fuzz --wire v2` and `passim fuzz --parity`.
@Suite struct WireFuzzTests {
    /// A v2 world is the SDK world of the same seed (the same draws) with `wire v2` in its header,
    /// and its lines parse to its typed file, wire included: a finding replays on v2.
    @Test func aV2WorldIsTheSameDrawsWithItsWireSaid() throws {
        for seed in UInt64(1)...300 {
            var a = SeededRandom(seed: seed), b = SeededRandom(seed: seed)
            let sdk = FuzzWorld.random(&a, seed: seed), v2 = FuzzWorld.random(&b, seed: seed, wire: .restV2)
            #expect(a.next() == b.next(), "seed \(seed): the draws differ")
            #expect(v2.lines.filter { $0 != "wire v2" } == sdk.lines)
            #expect(v2.lines.contains("wire v2") && v2.file.wire == .restV2)
            let parsed = try StepParser(FuzzProgram(world: v2.lines, steps: []).text, path: FuzzWorld.path).file
            #expect(parsed == v2.file, "seed \(seed)")
        }
    }

    /// A program generated on v2 says so, replays from its text on v2 (requests under /api/v2/), and
    /// never signs a request (v2 knows no signature: the generator draws, and drops, the arguments).
    @Test func aV2ProgramReplaysOnV2AndSignsNothing() throws {
        var v2Requests = 0
        for seed in UInt64(1)...150 {
            let (program, failure, _) = Fuzzer.explore(seed: seed, maxSteps: 40, wire: .restV2)
            #expect(failure == nil, "seed \(seed): \(String(describing: failure))")
            #expect(!program.steps.contains { $0.contains("publicKey:") }, "seed \(seed)")
            let file = try #require(program.parsed())
            #expect(file.wire == .restV2)
            let session = ExplorationSession(file: file)
            for step in file.steps { session.perform(step) }
            #expect(session.result.failure == nil, "seed \(seed)")
            if session.simulator.requestLog.contains(where: { $0.path.hasPrefix(V2Route.prefix) }) { v2Requests += 1 }
            #expect(!session.simulator.requestLog.contains { $0.path.hasPrefix("/config/") }, "seed \(seed)")
        }
        #expect(v2Requests > 80, "a program that never calls setRequestor sends nothing")
    }

    /// `passim fuzz --wire v2`'s campaign runs on v2 and finds nothing on seed 1's first runs.
    @Test func theInvariantFuzzerRunsOnV2() {
        var options = Fuzzer.Options(seed: 1, runs: 60, outDir: NSTemporaryDirectory() + "passim-v2-\(UUID())")
        options.wire = .restV2
        let report = Fuzzer(options: options).run()
        #expect(report.runs == 60 && report.findings.isEmpty, "\(report.findings.map(\.failure))")
    }
}

@Suite struct ParityFuzzerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func parity(_ expectations: Expectations, runs: Int, maxFindings: Int? = nil) -> ParityFuzzer.Report {
        let out = NSTemporaryDirectory() + "passim-parity-\(UUID().uuidString)"
        return ParityFuzzer(
            options: .init(seed: 1, runs: runs, outDir: out, expectations: expectations, maxFindings: maxFindings)
        ).run()
    }

    /// A difference planted by leaving out the rule that explains it (v2's login page URL, the
    /// `equivalent` line of wire-v2.expect) is found and shrunk into a scenario of the SDK wire's
    /// transcript that passes on the SDK's wire and fails on v2, and v2's own transcript beside it.
    @Test func aPlantedDifferenceIsFoundAndShrunk() throws {
        let planted = try Expectations.parse("parity timing instants may move\n", path: "planted.expect")
        let report = parity(planted, runs: 40, maxFindings: 1)
        let finding = try #require(report.findings.first, "40 runs found no login")
        #expect(finding.shrunkSteps < finding.steps && finding.shrunkSteps <= 8, "\(finding.scenario)")
        let sdk = try ScenarioParser.parse(finding.scenario, path: "parity.scenario")
        #expect(sdk.wire == .sdk)
        #expect(ScenarioRunner().run(sdk).status == .passed, "the SDK wire passes its own transcript")
        var onV2 = sdk
        onV2.wire = .restV2
        #expect(ScenarioRunner().run(onV2).status == .failed)
        let v2 = try ScenarioParser.parse(finding.v2Scenario, path: "parity-v2.scenario")
        #expect(v2.wire == .restV2)
        #expect(ScenarioRunner().run(v2).status == .passed, "v2 passes its own transcript: \(finding.v2Scenario)")
    }

    /// The same runs with the difference's rule given: nothing found; a `differ … when` rule counts
    /// only in programs whose text matches.
    @Test func aRuleExplainsWhatItSays() throws {
        let all = try Expectations.parse("differ /./ every difference\n", path: "all.expect")
        let report = parity(all, runs: 40)
        #expect(report.findings.isEmpty && report.explainedCount > 0 && report.runs == 40)
        let never = try Expectations.parse("differ /./ when /no program says this/ never\n", path: "never.expect")
        #expect(!parity(never, runs: 40, maxFindings: 1).findings.isEmpty)
    }

    /// The timing rule: the same callbacks at other instants are explained, not found.
    @Test func theTimingRuleComparesAgainUnpinned() throws {
        var base = try Expectations.load(Self.root + "/Scenarios/wire-v2.expect")
        base.parityTimings = []  // the suite's file has the rule: this test adds it back
        base.timing = nil  // and its suite `timing` absorbs differences of two round trips first
        let without = parity(base, runs: 60)
        let with = parity(base.merged(with: try Expectations.parse("parity timing round trips\n", path: "t")), runs: 60)
        #expect(with.explainedCount > 0)
        #expect(with.findings.count < without.findings.count)
    }

    /// Every program a ten-minute campaign once found unexplained (Fixtures/parity/findings.txt) is
    /// explained by a rule of the suite's expectations file: a rule narrowed by a later edit shows here,
    /// not in the next campaign.
    @Test func everyPastFindingIsExplained() throws {
        let rules = try Expectations.load(Self.root + "/Scenarios/wire-v2.expect")
        let fuzzer = ParityFuzzer(options: .init(outDir: NSTemporaryDirectory(), expectations: rules))
        let text = try String(contentsOfFile: Self.root + "/Fixtures/parity/findings.txt", encoding: .utf8)
        let seeds = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            UInt64($0.split(separator: " ").first ?? "")
        }
        #expect(seeds.count >= 14)
        for seed in seeds {
            let (program, failure, _) = Fuzzer.explore(seed: seed, maxSteps: 40, wire: .sdk)
            #expect(failure == nil, "seed \(seed): \(String(describing: failure))")
            let outcome = fuzzer.outcome(program)
            guard case .explained = outcome else {
                Issue.record("seed \(seed): \(outcome) (the generator moved? refresh the list from a campaign)")
                continue
            }
        }
    }

    /// The header of a program moves between wires: `wire v2` after the header lines, none on the SDK's.
    @Test func aProgramIsWrittenForEitherWire() {
        let world = ["scenario \"x\"", "tags fuzz", "seed 3", "platform tvos", "app second", "sp s1 \"https://s1\""]
        let v2 = ParityFuzzer.program(world, on: .restV2)
        #expect(
            v2 == [
                "scenario \"x\"", "tags fuzz", "seed 3", "platform tvos", "wire v2", "app second",
                "sp s1 \"https://s1\"",
            ])
        #expect(ParityFuzzer.program(v2, on: .sdk) == world)
    }
}

/// The expectations file's parity directives.
@Suite struct ParityExpectationsTests {
    @Test func parityDirectivesParse() throws {
        let e = try Expectations.parse(
            """
            parity mask /"(true|false)"/ the cached flag
            parity timing round trips
            differ /got setToken/ when /app second/ two apps
            differ /a\\/b/ a slash
            """, path: "p.expect")
        #expect(e.parityMasks.count == 1 && e.masks.isEmpty)
        #expect(e.parityTimings.map(\.reason) == ["round trips"])
        #expect(e.differences.count == 2)
        let when = e.differences[0]
        #expect(when.matches("expected x, got setToken(1)", program: "app second\n> x"))
        #expect(!when.matches("expected x, got setToken(1)", program: "> x"))
        #expect(!when.matches("expected x, got setToken(1)", program: nil))
        // A port's differential fuzzer knows no program: a `when` rule does not apply there.
        #expect(e.knownDifference("got setToken") == nil)
        #expect(e.knownDifference("x a/b y")?.reason == "a slash")
        // The parity masks come first in the parity fuzzer's rules, never in a suite run's.
        #expect(e.forParity.masks.count == 1)
        #expect(e.forParity.equivalent(expected: "f(\"true\")", actual: "f(\"false\")"))
        #expect(!e.equivalent(expected: "f(\"true\")", actual: "f(\"false\")"))
    }

    @Test func badParityLinesSayWhere() {
        for (text, message) in [
            ("parity mask the flag", "parity mask needs a /regex/"),
            ("parity timing", "parity timing needs a reason"),
            ("parity nope x", "parity takes mask"),
            ("differ /x/ when nope", "when needs a /regex/"),
            ("differ /x/ when /y/", "differ needs a reason"),
        ] {
            do {
                _ = try Expectations.parse("\n" + text + "\n", path: "bad.expect")
                Issue.record("\(text) parsed")
            } catch {
                #expect(
                    error.message.hasPrefix("bad.expect:2: ") && error.message.contains(message), "\(error.message)")
            }
        }
    }

    /// The file `passim fuzz --parity` reads by default parses, with its parity rules; merging a
    /// second file keeps every rule of both.
    @Test func theDefaultFileParses() throws {
        let a = try Expectations.load(ParityFuzzerTests.root + "/Scenarios/wire-v2.expect")
        #expect(a.parityTimings.count == 1 && a.parityMasks.count >= 4)
        let merged = a.merged(with: a)
        #expect(merged.parityMasks.count == 2 * a.parityMasks.count && merged.rules.count == 2 * a.rules.count)
    }
}
