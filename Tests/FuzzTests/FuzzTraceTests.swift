import PassModel
import Testing
@testable import Fuzz
@testable import Scenario

/// The fuzzer's runs keep no trace (`Simulator.keepsTrace`): the same programs explored with it kept
/// give the same transcripts, failures and counts.
@Suite struct FuzzTraceTests {
    @Test func aFuzzRunWithoutItsTraceIsTheSameRun() {
        var events = 0
        for seed in UInt64(1)...200 {
            let typed = !Fuzzer.goesThroughBytes(seed, sample: 4)
            var run = Fuzzer.exploreCounting(seed: seed, maxSteps: 40, typed: typed).0
            #expect(!run.keepsTrace)
            let dropped = run.explore()
            run.keepsTrace = true
            let kept = run.explore()
            #expect(dropped.events == kept.events, "seed \(seed)")
            #expect(dropped.failure == kept.failure && dropped.inapplicable == kept.inapplicable, "seed \(seed)")
            #expect(dropped.stepsRun == kept.stepsRun && dropped.engineInputs == kept.engineInputs, "seed \(seed)")
            events += kept.events.count
        }
        #expect(events > 2000)
    }

    /// What the session is given is what its simulation does.
    @Test func theSessionPassesTheChoiceOn() {
        var rng = SeededRandom(seed: 9)
        let world = FuzzWorld.random(&rng, seed: 9)
        #expect(ExplorationSession(file: world.file).simulator.keepsTrace)
        #expect(!ExplorationSession(file: world.file, keepsTrace: false).simulator.keepsTrace)
    }
}
