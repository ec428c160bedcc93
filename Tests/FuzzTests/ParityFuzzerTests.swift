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

    /// The suite's rules with the login page's `equivalent` line left out: the same runs find the
    /// difference; a `differ` rule naming it explains it, and counts only in programs its `when` holds for.
    @Test func aRuleExplainsWhatItSays() throws {
        var base = try Expectations.load(Self.root + "/Scenarios/wire-v2.expect")
        base.equivalences.removeAll { $0.actual.pattern.contains("api\\/v2\\/authenticate") }
        #expect(!parity(base, runs: 40, maxFindings: 1).findings.isEmpty)
        let page = "differ value expected navigateToUrl got navigateToUrl(/.*\\/api\\/v2\\/authenticate\\/.*/)"
        let pages = try Expectations.parse(page + " because the login page\n", path: "page.expect")
        let report = parity(base.merged(with: pages), runs: 40)
        #expect(report.findings.isEmpty && report.explained["the login page", default: 0] > 0 && report.runs == 40)
        let never = try Expectations.parse(page + " when calls 1000+ because never\n", path: "never.expect")
        #expect(!parity(base.merged(with: never), runs: 40, maxFindings: 1).findings.isEmpty)
    }

    /// A program of two apps is compared app by app: each lane keeps the world, its app's calls and
    /// lines, and the steps of no app; a program of one app is its own lane.
    @Test func twoAppsAreComparedAppByApp() throws {
        let world = ["scenario \"x\"", "sp main \"https://sp.test\"", "requestor REQ1", "app second"]
        let steps = [
            "> setRequestor(\"REQ1\")", "< setRequestorComplete(1)", "second> setRequestor(\"REQ1\")",
            "second< setRequestorComplete(1)", "clock +1s", "second> checkAuthentication()",
        ]
        let lanes = ParityFuzzer.lanes(of: FuzzProgram(world: world, steps: steps))
        #expect(
            lanes.map(\.steps) == [
                ["> setRequestor(\"REQ1\")", "< setRequestorComplete(1)", "clock +1s"],
                [
                    "second> setRequestor(\"REQ1\")", "second< setRequestorComplete(1)", "clock +1s",
                    "second> checkAuthentication()",
                ],
            ])
        #expect(lanes.allSatisfy { $0.world == world })
        let one = FuzzProgram(world: Array(world.dropLast()), steps: Array(steps.prefix(2)))
        #expect(ParityFuzzer.lanes(of: one) == [one])
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

/// The expectations file's parity directives and typed `differ` rules (docs/EXPECTATIONS.md).
@Suite struct ParityExpectationsTests {
    static func program(_ text: String) throws -> ProgramSummary {
        ProgramSummary(
            try ScenarioParser.parse(
                "scenario \"p\"\nsp main \"https://sp.test\"\nmvpd M1 \"M1\" at main sso picker\n"
                    + "mvpd M2 \"M2\" at main sso picker\nuser u \"p\" at M1\nrequestor REQ1\n\n" + text, path: "p"))
    }

    @Test func parityDirectivesParse() throws {
        let e = try Expectations.parse(
            """
            parity mask /"(true|false)"/ the cached flag
            parity timing round trips
            differ value got setToken("T", _) when call logout 2+ because two logouts
            differ extra,missing expected status(REGCODE, /[A-Z]+/) or navigateToUrl because a code or a page
            """, path: "p.expect")
        #expect(e.parityMasks.count == 1 && e.masks.isEmpty)
        #expect(e.parityTimings.map(\.reason) == ["round trips"])
        #expect(e.differences.map(\.reason) == ["two logouts", "a code or a page"])
        let token = Mismatch(kind: .value, actual: .setToken(token: "T", resource: "R1"))
        let twice = try Self.program("> logout()\nclock +1s\n> logout()\n")
        #expect(e.knownDifference(token, in: twice)?.reason == "two logouts")
        #expect(e.knownDifference(token, in: try Self.program("> logout()\n")) == nil)
        // A rule with conditions needs the program: a finding without one is not explained by it.
        #expect(e.knownDifference(token, in: nil) == nil)
        var other = token
        other.kind = .extra
        #expect(e.knownDifference(other, in: twice) == nil, "the kind is part of the rule")
        other.actual = .setToken(token: "U", resource: "R1")
        other.kind = .value
        #expect(e.knownDifference(other, in: twice) == nil, "the callback's values are")
        func status(_ code: String) throws -> Mismatch {
            let line = try ScenarioParser.callPattern("status(REGCODE, \"\(code)\")", isCall: false, path: "t", line: 1)
            return Mismatch(kind: .missing, expected: .init(line, bindings: Bindings()))
        }
        #expect(e.knownDifference(try status("ABC"), in: nil)?.line == 4)
        #expect(e.knownDifference(try status("abc"), in: nil) == nil)
        // The parity masks come first in the parity fuzzer's rules, never in a suite run's.
        #expect(e.forParity.masks.count == 1)
        #expect(e.forParity.equivalent(expected: "f(\"true\")", actual: "f(\"false\")"))
        #expect(!e.equivalent(expected: "f(\"true\")", actual: "f(\"false\")"))
    }

    /// `when` conditions read the program's typed steps and world, in order where `then` says so.
    @Test func conditionsReadTheProgram() throws {
        let e = try Expectations.parse(
            """
            differ step at user login when user login then clock 30m+ then call handleExternalURL|getAuthenticationToken because late
            differ step at user back when fault fail 401 and calls 2+ because a 401
            differ step at user enter-code when world tvos because a TV
            """, path: "c.expect")
        let back = Mismatch(kind: .step, step: .userBack)
        let login = Mismatch(kind: .step, step: .userLogin(user: "u", password: "p"))
        let late = try Self.program(
            "> getAuthentication()\nuser login \"u\" \"p\"\nclock +31m\n> getAuthenticationToken()\n")
        let early = try Self.program(
            "> getAuthentication()\nclock +31m\n> getAuthenticationToken()\nuser login \"u\" \"p\"\n")
        #expect(e.knownDifference(login, in: late)?.reason == "late")
        #expect(e.knownDifference(login, in: early) == nil, "then is an order")
        let fault = try Self.program("net main fail 1 status 401\n> setRequestor(\"REQ1\")\n> getAuthentication()\n")
        #expect(e.knownDifference(back, in: fault)?.reason == "a 401")
        #expect(
            e.knownDifference(
                back,
                in: try Self.program("net main fail 1 status 500\n> setRequestor(\"REQ1\")\n> getAuthentication()\n"))
                == nil)
        #expect(
            e.knownDifference(Mismatch(kind: .step, step: .userEnterCode(user: "u", password: "p")), in: fault) == nil)
        // `selections N+`: the app's setSelectedProvider calls and the user's picks in Apple's picker.
        let choices = try Expectations.parse(
            "differ step at user back when selections 2+ because two\n", path: "s.expect")
        #expect(
            choices.knownDifference(back, in: try Self.program("> setSelectedProvider(M1)\nuser pick M2\n"))?.reason
                == "two")
        #expect(choices.knownDifference(back, in: try Self.program("> setSelectedProvider(M1)\n")) == nil)
        // `clock past-ttl`: the clock steps add up to the world's shortest lifetime (a code's 30 minutes by default).
        let ttl = try Expectations.parse(
            "differ step at user back when clock past-ttl because expired\n", path: "t.expect")
        #expect(ttl.knownDifference(back, in: try Self.program("clock +20m\nclock +10m\n"))?.reason == "expired")
        #expect(ttl.knownDifference(back, in: try Self.program("clock +29m\n")) == nil)
    }

    @Test func badDifferLinesSayWhere() {
        for (text, message) in [
            ("parity mask the flag", "parity mask needs a /regex/"),
            ("parity timing", "parity timing needs a reason"),
            ("parity nope x", "parity takes mask"),
            ("differ /x/ because a regex", "no kind of difference '/x/'"),
            ("differ value expected setToken", "differ needs `because REASON`"),
            ("differ value when calls 2+ because every difference", "names what differs"),
            ("differ value expected setTokn because typo", "unknown callback 'setTokn'"),
            ("differ value expected setToken(1, 2, 3) because arity", "bad.expect:2:"),
            ("differ value got setToken when world nope because x", "world needs a feature"),
            (
                "differ value got setToken when call logout 2+ then user login because x",
                "a count (N+) is for a call alone"
            ),
            ("differ value got setToken when clock 30m because x", "clock needs a duration and +"),
            ("differ step at user dance because x", "at user needs an action"),
        ] {
            do {
                _ = try Expectations.parse("\n" + text + "\n", path: "bad.expect")
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.message.contains(message), "\(text): \(error.message)")
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
