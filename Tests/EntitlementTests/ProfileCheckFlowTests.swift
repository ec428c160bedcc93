import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The profile check alone, with a core and no engine (docs/CONFORMANCE.md, choice 68):
/// `checkAuthentication` on the REST API v2 wire asks the MVPD's profile.
@Suite struct ProfileCheckFlowTests {
    typealias F = FlowFixtures

    static func core(token: AuthnToken? = nil) -> EngineCore {
        var core = EngineCore(configuration: EngineConfiguration(defaultServiceProvider: F.sp, wire: .restV2))
        core.requestor = Configuration(requestorID: "REQ", mvpds: [F.mvpd])
        if let token { core.store.store(token, userMeta: nil, fromPlatformSSO: false) }
        return core
    }

    static func profile(notAfter: Instant) -> HTTPResult {
        .response(
            HTTPResponse(
                status: 200, contentType: "application/json",
                text: #"{"profiles":{"X":{"notBefore":0,"notAfter":\#(notAfter.milliseconds),"type":"regular"}}}"#))
    }

    @Test func aLiveProfileAuthenticatesAndKeepsTheHeldToken() {
        var core = Self.core(token: F.token())
        var checks = ProfileChecks()
        let sent = F.sent(checks.start(&core, at: F.now))
        #expect(sent.map(\.1.url) == ["https://sp.test/api/v2/REQ/profiles/X"])
        #expect(sent.first?.1.headers["AP-Device-Identifier"]?.hasPrefix("fingerprint ") == true)
        let answer = checks.answered(FlowID(value: 1), Self.profile(notAfter: F.now + .hours(1)), &core, at: F.now)
        #expect(F.callbacks(answer).first == #"setAuthenticationStatus(1, "")"#)
        #expect(core.store.authnToken?.guid == "guid-1", "the held token is that profile's")
        #expect(checks.count == 0)
    }

    @Test func noProfileClearsTheTokenAndAFailureAnswersFromTheStore() {
        var core = Self.core(token: F.token())
        var checks = ProfileChecks()
        _ = checks.start(&core, at: F.now)
        let failed = checks.answered(FlowID(value: 1), .timeout, &core, at: F.now)
        #expect(F.callbacks(failed).first == #"setAuthenticationStatus(1, "")"#, "the store still holds the token")
        _ = checks.start(&core, at: F.now)
        let none = checks.answered(
            FlowID(value: 2),
            .response(HTTPResponse(status: 200, contentType: "application/json", text: #"{"profiles":{}}"#)), &core,
            at: F.now)
        #expect(F.callbacks(none).first == "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)")
        #expect(core.store.authnToken == nil)
    }

    @Test func withNoMVPDItAnswersFromTheStoreAtOnce() {
        var core = Self.core()
        var checks = ProfileChecks()
        let actions = checks.start(&core, at: F.now)
        #expect(F.sent(actions).isEmpty)
        #expect(F.callbacks(actions).first == "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)")
    }
}
