import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The logout flow alone, with a core and no engine: what is cleared, the page or the
/// request, and which answer belongs to which logout.
@Suite struct LogoutFlowTests {
    typealias F = FlowFixtures

    /// iOS: the store is cleared at once, the shared store too; the page opens and its redirect
    /// answers once.
    @Test func iosClearsAtOnceAndTheRedirectAnswersOnce() {
        var core = F.core(token: F.token())
        var flow = LogoutFlow()
        let actions = flow.start(&core, at: F.now)
        #expect(actions.first == .writeSharedStore(nil))
        #expect(core.store.authnToken == nil && core.store.selectedMVPD == nil)
        guard case .deliver(.navigateToUrl(let url, _))? = actions.last else {
            Issue.record("no logout page: \(actions)")
            return
        }
        #expect(url.hasPrefix("https://sp.test/logout?mso_id=X&requestor_id=REQ"))
        let first = flow.redirectArrived()
        let second = flow.redirectArrived()
        #expect(first && !second, "one answer per logout")
    }

    /// tvOS (BEHAVIOR.md, Logout): each logout waits for its own request; one that setRequestor
    /// ended is still out but owes no answer.
    @Test func tvosTwoLogoutsTwoAnswersAndAnEndedOneNone() {
        var core = F.core(platform: .tvos, token: F.token())
        var flow = LogoutFlow()
        let first = F.sent(flow.start(&core, at: F.now))
        let second = F.sent(flow.start(&core, at: F.now))
        #expect(first.map(\.1.method) == ["DELETE"] && second.count == 1)
        #expect(flow.outstanding.count == 2)
        #expect(
            F.callbacks(flow.answered(second[0].0, .timeout, core)) == [
                "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)"
            ])
        flow.endedBySetRequestor()
        #expect(flow.outstanding.map(\.id) == [first[0].0], "still out, its deadline running")
        #expect(flow.answered(first[0].0, .timeout, core).isEmpty)
        #expect(flow.outstanding.isEmpty)
    }

    /// A token from Apple's token, even expired: `VSA203` (BEHAVIOR.md, Logout).
    @Test func anAppleTokenSaysVSA203EvenExpired() {
        var core = F.core()
        core.store.store(F.token(), userMeta: nil, fromPlatformSSO: true)
        var flow = LogoutFlow()
        let actions = flow.start(&core, at: F.now + .seconds(7200))
        #expect(F.callbacks(actions).first == "status(VSA203)")
    }
}
