import Scenario
import ScenarioSyntax

/// A fuzz run as text: the header and world lines, and the steps performed. It is what gets shrunk
/// and, on a failure, written out as a `.scenario`.
struct FuzzProgram: Hashable, Sendable {
    var world: [String]
    var steps: [String]

    var text: String { (world + [""] + steps).joined(separator: "\n") + "\n" }

    /// Parses the program; nil when a shrink made it invalid (a name used but no longer declared).
    func parsed() -> ScenarioFile? {
        try? ScenarioParser.parse(text, path: "fuzz.scenario")
    }

    /// Runs it from scratch, exploring (the `<` lines are written, not checked); with `pinsTimes`,
    /// each `<` line says when its callback came (`at T`).
    func explore(pinsTimes: Bool = false) -> ExploratoryRunner.Result? {
        parsed().map { ExploratoryRunner(pinsTimes: pinsTimes).run($0) }
    }
}
