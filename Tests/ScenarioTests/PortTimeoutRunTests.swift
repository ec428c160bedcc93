import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Scenario

/// The suite through a port catches a port whose default request timeout is not BEHAVIOR.md's 30 s
/// (mutant 01): `hello` no longer hands it the right value (driver protocol 1.3, CONFORMANCE.md
/// choice 71), so the scenarios that pin a timeout's instant fail on it.
@Suite struct PortTimeoutRunTests {
    static let timeoutScenarios = [
        "faults/silent-sp-times-out", "faults/silent-sp-beside-good-sp-settles-at-30s",
        "startup/no-r400-when-registration-unreachable-or-silent",
    ]

    func status(_ name: String, ownTimeout: Millis?) throws -> ScenarioResult.Status {
        let file = try ScenarioParser.parse(
            String(contentsOfFile: packageRoot + "/Scenarios/\(name).scenario", encoding: .utf8), path: name)
        let command = PortCommand(inProcess: "shim") { PortShim(requestTimeout: ownTimeout) }
        return ScenarioRunner(runtime: .port(command)).run(file).status
    }

    @Test(arguments: PortTimeoutRunTests.timeoutScenarios)
    func aPortWhoseDefaultTimeoutIsNotTheSpecsFails(_ name: String) throws {
        #expect(try status(name, ownTimeout: nil) == .passed)
        #expect(try status(name, ownTimeout: .seconds(60)) == .failed)
    }
}
