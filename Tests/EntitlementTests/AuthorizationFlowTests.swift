import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The authorization flows alone, with a core and no engine: authorize, then the media
/// token; what is cached and whose token the tracking names; the answers after a token change.
@Suite struct AuthorizationFlowTests {
    typealias F = FlowFixtures

    static func authorized(_ authz: AuthzToken) -> HTTPResult {
        F.xml(200, AuthorizeDeviceXML.build(.token(authz)))
    }

    @Test func authorizeThenMediaTokenAndTheAuthzTokenIsCached() {
        let token = F.token()
        var core = F.core(token: token)
        var flows = AuthorizationFlows()
        let first = F.sent(flows.authorize("R", data: .string("d"), &core, at: F.now))
        #expect(first.map(\.1.url) == ["https://sp.test/authorizeDevice"])
        #expect(first[0].1.parameter("generic_data") == "\"d\"")
        let media = F.sent(
            flows.answered(FlowID(value: 1), Self.authorized(F.authz("R", for: token)), &core, at: F.now))
        #expect(media.map(\.1.url) == ["https://sp.test/deviceShortAuthorize"])
        #expect(core.store.authzTokens["R"] != nil)
        let done = flows.answered(FlowID(value: 1), F.xml(200, "MEDIA"), &core, at: F.now)
        #expect(
            F.callbacks(done) == [
                #"setToken("MEDIA", "R")"#,
                #"sendTrackingData(TRACKING_AUTHORIZATION, ["true", "X", ""#
                    + Tracking.guidHash(token.guid) + #"", "false", nil, nil, "mobile", "ios", "iOS"])"#,
            ])
        #expect(flows.count == 0)

        // The next authorization of R goes straight to the media token, tracked as cached.
        let again = F.sent(flows.authorize("R", data: nil, &core, at: F.now))
        #expect(again.map(\.1.url) == ["https://sp.test/deviceShortAuthorize"])
    }

    /// BEHAVIOR.md, Overlapping calls: answered after the authN token changed, the flow is delivered,
    /// its tracking names the token it was asked with, and nothing it brings is cached.
    @Test func answeredAfterATokenChangeCachesNothingAndNamesTheAskingToken() {
        let asked = F.token("guid-1")
        var core = F.core(token: asked)
        var flows = AuthorizationFlows()
        _ = flows.authorize("R", data: nil, &core, at: F.now)
        core.store.store(F.token("guid-2"), userMeta: nil, fromPlatformSSO: false)
        let media = flows.answered(FlowID(value: 1), Self.authorized(F.authz("R", for: asked)), &core, at: F.now)
        #expect(F.sent(media).count == 1)
        #expect(core.store.authzTokens.isEmpty)
        let done = flows.answered(FlowID(value: 1), F.xml(200, "MEDIA"), &core, at: F.now)
        #expect(F.callbacks(done).last?.contains(Tracking.guidHash("guid-1")) == true)
    }

    /// After a logout: `USER_NOT_AUTHENTICATED_ERROR` and `""`, whatever the answer.
    @Test func answeredAfterLogoutIsNotAuthenticated() {
        var core = F.core(token: F.token())
        var flows = AuthorizationFlows()
        _ = flows.authorize("R", data: nil, &core, at: F.now)
        core.store.clearTokens()
        let done = flows.answered(FlowID(value: 1), F.xml(200, "MEDIA"), &core, at: F.now)
        #expect(F.callbacks(done).first == #"tokenRequestFailed("R", USER_NOT_AUTHENTICATED_ERROR, "")"#)
    }

    /// A 429: `Z100` first, then the generic failure (BEHAVIOR.md, Throttling); a refusal carries
    /// the MVPD's message.
    @Test func throttledAndRefused() {
        var core = F.core(token: F.token())
        var flows = AuthorizationFlows()
        _ = flows.authorize("R", data: nil, &core, at: F.now)
        let throttled = flows.answered(FlowID(value: 1), F.xml(429, ""), &core, at: F.now)
        #expect(
            F.callbacks(throttled).prefix(2) == [
                "status(Z100)", #"tokenRequestFailed("R", GENERIC_AUTHORIZATION_ERROR, "HTTP 429")"#,
            ])
        _ = flows.authorize("R", data: nil, &core, at: F.now)
        let refusal = F.xml(403, AuthorizeDeviceXML.build(.error(ErrorBody(status: 403, message: "m", details: "no"))))
        #expect(
            F.callbacks(flows.answered(FlowID(value: 2), refusal, &core, at: F.now)).first
                == #"tokenRequestFailed("R", USER_NOT_AUTHORIZED_ERROR, "no")"#)
    }

    /// An id the flows do not hold answers nothing (the registry never routes one; refused loudly
    /// in no callback rather than guessed).
    @Test func anUnknownFlowAnswersNothing() {
        var core = F.core(token: F.token())
        var flows = AuthorizationFlows()
        #expect(flows.answered(FlowID(value: 9), F.xml(200, "MEDIA"), &core, at: F.now).isEmpty)
    }
}
