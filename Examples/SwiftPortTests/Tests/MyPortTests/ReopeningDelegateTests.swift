// An app team's test of its own delegate against passim's AccessEnabler: a delegate that
// starts a new login from any failed status reopens the provider picker after every cancel, and the
// enabler's liveness rules report it (docs/LINT.md, "The AccessEnabler facade").

import Passim
import XCTest

/// The bug, as public SDK wrappers have it: any `setAuthenticationStatus(0, …)` calls `getAuthentication`.
final class ReopeningDelegate: EntitlementDelegate {
    weak var enabler: AccessEnabler?
    var pickers = 0
    func displayProviderDialog(_ mvpds: [MVPD]) { pickers += 1 }
    func setAuthenticationStatus(_ status: Int, errorCode: String) {
        if status == 0 { enabler?.getAuthentication() }
    }
}

final class ReopeningDelegateTests: XCTestCase {
    func testTheLivenessRulesCatchAPickerReopenedOnCancel() throws {
        let world = try SimulatedWorld("""
            sp main "https://sp.auth.test"
            mvpd Comcast "Xfinity" at main
            user alice "secret" at Comcast allow CNN
            requestor REQ1
            """)
        let enabler = try AccessEnabler(world: world)
        let app = ReopeningDelegate()
        app.enabler = enabler
        enabler.delegate = app
        enabler.setRequestor("REQ1")
        enabler.getAuthentication()
        world.run()
        enabler.setSelectedProvider(nil)  // the user cancels the picker
        world.run()
        XCTAssertEqual(app.pickers, 2, "the picker came back without the user asking")
        XCTAssertEqual(enabler.livenessFindings.map(\.rule), ["live.picker-reopened-on-failure"])
    }
}
