import Passim
import XCTest

private let world = """
    sp main "https://sp.auth.test"
    mvpd Comcast "Xfinity" at main
    mvpd Dish "DISH" at main
    user alice "secret" at Comcast allow CNN
    requestor REQ1
    """

/// A wrapper's bug seen in public SDK wrappers: any failed status starts a new login, so a cancel
/// reopens the provider picker for ever. `good` is the same delegate without the bug.
private final class ReopeningDelegate: EntitlementDelegate {
    weak var enabler: AccessEnabler?
    let buggy: Bool
    var dialogs = 0
    init(buggy: Bool) { self.buggy = buggy }
    func displayProviderDialog(_ mvpds: [MVPD]) { dialogs += 1 }
    func setAuthenticationStatus(_ status: Int, errorCode: String) {
        if status == 0 && buggy { enabler?.getAuthentication() }
    }
}

final class LivenessTests: XCTestCase {
    private func cancelTwice(buggy: Bool) throws -> (AccessEnabler, ReopeningDelegate) {
        let sim = try SimulatedWorld(world)
        let enabler = try AccessEnabler(world: sim)
        let app = ReopeningDelegate(buggy: buggy)
        app.enabler = enabler
        enabler.delegate = app
        enabler.setRequestor("REQ1")
        sim.run()
        enabler.checkAuthentication()
        sim.run()
        enabler.getAuthentication()
        sim.run()
        // The user cancels the picker twice (the app hands the cancel on as setSelectedProvider(nil)).
        for _ in 0..<2 {
            enabler.setSelectedProvider(nil)
            sim.run()
        }
        return (enabler, app)
    }

    func testADelegateThatReopensThePickerOnCancelIsReported() throws {
        let (enabler, app) = try cancelTwice(buggy: true)
        // checkAuthentication's status 0 opens one (start-up: not flagged), getAuthentication one, each cancel one more.
        XCTAssertEqual(app.dialogs, 4, "the picker came back after each cancel")
        XCTAssertEqual(
            enabler.livenessFindings.map(\.rule),
            ["live.picker-reopened-on-failure", "live.picker-reopened-on-failure"])
        XCTAssertTrue(enabler.livenessFindings[0].message.contains("setAuthenticationStatus(0"))
    }

    func testADelegateThatLetsTheUserCancelIsNot() throws {
        let (enabler, app) = try cancelTwice(buggy: false)
        XCTAssertEqual(app.dialogs, 1)
        XCTAssertEqual(
            enabler.livenessFindings, [], "checkAuthentication's status 0 at start-up is not a cancelled login")
    }

    func testLoginsStartedFromCallbacksMoreThanThreeTimesAMinuteAreAStorm() {
        var monitor = LivenessMonitor()
        for i in 0..<4 {
            monitor.willDeliver(.setAuthenticationStatus(status: 0, errorCode: "N005"))
            monitor.called(
                .getAuthentication(forceAuthn: false, data: nil, filter: nil),
                at: .simulationStart + Millis(Int64(i) * 1000))
            monitor.didDeliver()
        }
        XCTAssertEqual(monitor.findings.filter { $0.rule == "live.login-storm" }.count, 1)
        var calm = LivenessMonitor()
        for i in 0..<4 {
            calm.willDeliver(.setAuthenticationStatus(status: 0, errorCode: "N005"))
            calm.called(
                .getAuthentication(forceAuthn: false, data: nil, filter: nil),
                at: .simulationStart + Millis(Int64(i) * 30_000))
            calm.didDeliver()
        }
        XCTAssertEqual(calm.findings.filter { $0.rule == "live.login-storm" }, [])
    }

    func testAWorldJudgesItsRequests() throws {
        let sim = try SimulatedWorld(world)
        let enabler = try AccessEnabler(world: sim)
        enabler.setRequestor("REQ1")
        sim.run()
        let report = sim.lintReport()
        XCTAssertEqual(report.exitStatus, 0)
        XCTAssertEqual(report.verdict("live.refusal-loop")?.name, "passed")
    }
}
