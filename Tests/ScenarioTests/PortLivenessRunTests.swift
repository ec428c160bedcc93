import Port
import Testing
@testable import Scenario

/// A port run learns what `AccessEnabler.livenessFindings` tells a Swift app (docs/PORTING.md,
/// "Liveness"): the Python port behind a delegate that calls `getAuthentication` again on every failed
/// status (Fixtures/ports/reopening) fails the cancel scenario with the liveness rule, not only with the
/// picker it did not expect; the same port without that delegate passes it.
@Suite struct PortLivenessRunTests {
    static let scenario = packageRoot + "/Scenarios/cancel/nil-at-dialog.scenario"

    func run(_ port: String) -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.runtime = ScenarioRunner.Runtime(
            port: PortCommand(command: "python3 " + packageRoot + port, timeout: .seconds(10)))
        return SuiteRun(options: options).run(paths: [PortLivenessRunTests.scenario])
    }

    @Test func aDelegateThatReopensThePickerOnACancelIsReported() {
        let report = run("/Fixtures/ports/reopening/port.py")
        #expect(report.failed == 1, "\(report.output)")
        let message = report.results.first?.failure?.message ?? ""
        #expect(message.contains("live.picker-reopened-on-failure"), "\(report.output)")
        #expect(message.contains("setAuthenticationStatus(0"), "\(report.output)")
    }

    @Test func theSamePortWithoutThatDelegatePasses() {
        let report = run("/Fixtures/ports/python/port.py")
        #expect(report.failed == 0 && report.unimplemented == 0, "\(report.output)")
    }
}
