import Scenario
import ScenarioSyntax

/// A fuzz run as the fuzzer makes it: the world (its lines, parsed once) and the typed steps
/// performed. It becomes text (`program`) only when something reads it: a finding to shrink and
/// write, a test.
struct FuzzRun {
    var world: [String]
    /// The header and world, parsed.
    var file: ScenarioFile
    var steps: [Step] = []
    /// Whether the mock's answers reach the engine as values (`SimulationSetup.typedResponses`), or
    /// as bytes only, parsed as over a real wire (a seeded sample of runs: `Fuzzer.goesThroughBytes`).
    var typedResponses = true
    /// Whether its simulation keeps a trace (`Simulator.keepsTrace`): nothing a fuzz run checks
    /// reads it, so the fuzzer's runs keep none.
    var keepsTrace = false

    /// The program as text, each step as the generator writes it.
    var program: FuzzProgram { FuzzProgram(world: world, steps: steps.map(StepText.render)) }

    /// Runs the steps again from scratch, exploring with liveness, writing typed events, not lines.
    func explore() -> ExploratoryRunner.Result {
        let session = ExplorationSession(
            file: file, writesLines: false, typedResponses: typedResponses, keepsTrace: keepsTrace)
        for step in steps {
            session.perform(StepText.located(step))
            if session.failed || session.stopped { return session.result }
        }
        return session.finish(checkLiveness: true)
    }
}
