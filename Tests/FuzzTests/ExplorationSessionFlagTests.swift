import ScenarioSyntax
import Testing
@testable import Fuzz
@testable import Scenario

/// `ExplorationSession.failed` and `stopped` are flags kept beside the result's `failure` and
/// `inapplicable` (asking the optionals copied the failure out each time): after every step, and after
/// `finish`, they say what the result says, on ordinary runs, on a step that cannot be carried out and on
/// a run that fails; and `simulator.engineInputs` is the result's count, which the fuzzer reads instead.
@Suite struct ExplorationSessionFlagTests {
    /// What the flags replace, read from the result.
    static func agree(_ session: ExplorationSession) -> Bool {
        let result = session.result
        return session.failed == (result.failure != nil) && session.stopped == (result.inapplicable != nil)
            && session.simulator.engineInputs == result.engineInputs
    }

    static func parse(_ text: String) throws -> ScenarioFile {
        try ScenarioParser.parse(text, path: "flags.scenario")
    }

    static let world = """
        scenario "flags"
        sp main "https://sp.auth.test" latency 100ms
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN
        requestor REQ1 software-statement "ss-REQ1"

        """

    @Test func theFlagsSayWhatTheResultSaysOnFuzzRuns() {
        var steps = 0
        for seed in UInt64(1)...120 {
            let run = Fuzzer.exploreCounting(seed: seed, maxSteps: 40, typed: true).0
            let session = ExplorationSession(file: run.file, writesLines: false, typedResponses: true)
            #expect(Self.agree(session), "seed \(seed)")
            for step in run.steps {
                session.perform(StepText.located(step))
                #expect(Self.agree(session), "seed \(seed)")
                steps += 1
                if session.failed || session.stopped { break }
            }
            let result = session.finish(checkLiveness: true)
            #expect(Self.agree(session), "seed \(seed)")
            #expect(session.failed == (result.failure != nil), "seed \(seed)")
        }
        #expect(steps > 1000)
    }

    /// A login with no login page shown cannot be carried out: the session stops, and stays stopped.
    @Test func aStepThatCannotBeCarriedOutStopsIt() throws {
        let file = try Self.parse(
            Self.world + """
                > init(softwareStatement: "ss-REQ1")
                user login "alice" "secret"
                > setRequestor("REQ1")

                """)
        let session = ExplorationSession(file: file, writesLines: false)
        let steps = file.steps.filter { if case .expect = $0.value { false } else { true } }
        session.perform(steps[0])
        #expect(!session.stopped && !session.failed && Self.agree(session))
        session.perform(steps[1])
        #expect(session.stopped && !session.failed && Self.agree(session))
        let stepsRun = session.result.stepsRun
        session.perform(steps[2])
        #expect(session.stopped && Self.agree(session) && session.result.stepsRun == stepsRun)
        _ = session.finish(checkLiveness: true)
        #expect(session.stopped && !session.failed && Self.agree(session))
        #expect(ExploratoryRunner().run(file).inapplicable != nil)
    }

    /// Calls queued behind a request an hour long grow past the growth oracle's bound: the session
    /// fails, and stays failed.
    @Test func aRunThatFailsSaysSo() throws {
        var text = Self.world.replacingOccurrences(of: "latency 100ms", with: "latency 2h")
        text += "> init(softwareStatement: \"ss-REQ1\")\n> setRequestor(\"REQ1\")\n"
        text += String(repeating: "> checkAuthorization(\"CNN\")\n", count: ExploratoryRunner.maxInFlight * 4 + 8)
        let file = try Self.parse(text)
        let session = ExplorationSession(file: file, writesLines: false)
        var performed = 0
        for step in file.steps {
            if case .expect = step.value { continue }
            session.perform(step)
            performed += 1
            #expect(Self.agree(session))
            if session.failed { break }
        }
        #expect(session.failed && !session.stopped, "\(String(describing: session.result.failure))")
        #expect(performed < file.steps.count)
        let after = session.finish(checkLiveness: true)
        #expect(session.failed && Self.agree(session) && after.failure == session.result.failure)
        #expect(ExploratoryRunner().run(file).failure != nil)
    }
}
