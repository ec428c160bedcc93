import PassModel
import ScenarioSyntax
import Simulation
import Testing
@testable import Fuzz
@testable import Scenario

/// A typed run passes its browser logins' SAML as values and its IdPs sign nothing
/// (`MockPass.typedRun`): fuzz programs replayed in worlds whose IdPs misbehave every way `saml`
/// allows give the same run typed and through bytes, down to every request and status.
@Suite struct TypedSAMLFuzzTests {
    @Test(arguments: ["signed", "unsigned", "tampered", "expired", "wrong-audience"])
    func typedSAMLGivesWhatBytesGive(_ mode: String) throws {
        var logins = 0
        var handles = 0
        var appleTokens = 0
        // 400 programs: the generator spreads its steps over more of the world than logins.
        for seed in UInt64(1)...400 {
            let generated = Fuzzer.exploreCounting(seed: seed, maxSteps: 40, typed: true).0
            let world = generated.world.map {
                $0.hasPrefix("mvpd ") && !$0.contains("temppass") ? $0 + " saml " + mode : $0
            }
            let parsed = try StepParser(FuzzProgram(world: world, steps: []).text, path: "fuzz.scenario")
            var run = FuzzRun(world: world, file: parsed.file, steps: generated.steps, typedResponses: true)
            let (typed, typedTrace, typedHandles) = run.exploreTraced()
            run.typedResponses = false
            let (bytes, bytesTrace, bytesHandles) = run.exploreTraced()
            #expect(bytesHandles == 0, "seed \(seed)")
            handles += typedHandles
            #expect(typed.events == bytes.events, "seed \(seed)")
            #expect(typed.failure == bytes.failure && typed.inapplicable == bytes.inapplicable, "seed \(seed)")
            #expect(typed.stepsRun == bytes.stepsRun && typed.engineInputs == bytes.engineInputs, "seed \(seed)")
            #expect(typedTrace == bytesTrace, "seed \(seed)")
            func posts(_ suffix: String) -> Int {
                typedTrace.filter { event in
                    guard case .request(_, "POST", let url, _) = event.kind else { return false }
                    return url.hasSuffix(suffix)
                }.count
            }
            logins += posts("/sp/saml/SAMLAssertionConsumer")
            appleTokens += posts("/api/v1/tokens/authn")
        }
        // Enough logins reach the SP's assertion consumer to mean something.
        #expect(logins > 50, "\(logins) logins reached the SP")
        #expect(appleTokens > 10, "\(appleTokens) Apple tokens reached the SP")
        // The typed runs did pass their SAML as handles (an AuthnRequest and a Response a login at
        // least, and Apple's token).
        #expect(
            handles >= 2 * logins + appleTokens, "\(handles) handles for \(logins) logins, \(appleTokens) Apple tokens")
    }
}

extension FuzzRun {
    /// `explore()`, also giving the simulator's trace (every request, its answer's status, each call,
    /// callback and user action, in order) and how many SAML fields the mock received as handles.
    func exploreTraced() -> (ExploratoryRunner.Result, [TraceEvent], Int) {
        let session = ExplorationSession(file: file, writesLines: false, typedResponses: typedResponses)
        var result: ExploratoryRunner.Result?
        for step in steps {
            session.perform(StepText.located(step))
            if session.failed || session.stopped {
                result = session.result
                break
            }
        }
        let final = result ?? session.finish(checkLiveness: true)
        let handles = session.simulator.requestLog.filter { entry in
            entry.parameters.contains {
                ($0.name == "SAMLRequest" || $0.name == "SAMLResponse") && $0.value.hasPrefix("passim-typed:")
            }
        }.count
        return (final, session.simulator.trace, handles)
    }
}
