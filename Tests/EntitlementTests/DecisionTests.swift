import PassModel
import PassXML
import Testing
@testable import Entitlement

/// The decisions added to BEHAVIOR.md on 2026-11-25: flows answered across a token change
/// or a logout, the picker always dismissed, throttling. The scenarios pin them end to end; these pin
/// the engine's side of the edges a scenario reaches only with a fault.
@Suite struct DecisionTests {
    func authenticated() -> EngineHarness {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        h.answer(h.sent.last!.0, EngineHarness.token(mvpd: "X", expires: h.now + .hours(2)))
        _ = h.takeCallbacks()
        return h
    }

    static let throttled = HTTPResult.response(HTTPResponse(status: 429))

    @Test func throttledAnswersSayTheirCodeFirst() {
        var h = authenticated()
        h.call(.checkAuthorization(resource: "CNN", data: nil))
        h.answer(h.sent.last!.0, Self.throttled)
        let authz = h.takeCallbacks()
        #expect(
            Array(authz.prefix(2)) == [
                "status(Z100)", #"tokenRequestFailed("CNN", GENERIC_AUTHORIZATION_ERROR, "HTTP 429")"#,
            ])
        h.call(.checkPreauthorizedResources(["A"], cache: true))
        h.answer(h.sent.last!.0, Self.throttled)
        #expect(h.takeCallbacks() == ["status(P100)", "preauthorizedResources([])"])
        // The engine never retries a 429 by itself.
        #expect(h.engine.footprint.requests == 0)
    }

    @Test func anAnswerAfterLogoutIsNotReadForThrottling() {
        var h = authenticated()
        h.call(.checkAuthorization(resource: "CNN", data: nil))
        let authorize = h.sent.last!.0
        h.call(.checkPreauthorizedResources(["A"], cache: true))
        let preauthorize = h.sent.last!.0
        h.call(.logout)
        _ = h.takeCallbacks()
        h.answer(authorize, Self.throttled)
        h.answer(preauthorize, Self.throttled)
        #expect(
            h.takeCallbacks() == [
                #"tokenRequestFailed("CNN", USER_NOT_AUTHENTICATED_ERROR, "")"#,
                #"sendTrackingData(TRACKING_AUTHORIZATION, ["false", nil, nil, nil, "User Not Authenticated Error", "", "mobile", "ios", "iOS"])"#,
                "preauthorizedResources([])",
            ])
    }

    @Test func aThrottledRegistrationIsARefusalWithoutFlowCodes() {
        var h = EngineHarness()
        h.call(.initialize(softwareStatement: "ss-1"))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, Self.throttled)
        #expect(h.takeCallbacks() == ["status(R400)", "setRequestorComplete(0)"])
    }

    @Test func anAuthorizeAnswerAfterATokenChangeIsNotCachedAndNamesItsToken() throws {
        var h = authenticated()
        h.call(.checkAuthorization(resource: "CNN", data: nil))
        let authorize = h.sent.last!.0
        // Another login with another MVPD's token replaces guid-1.
        h.call(.getAuthentication(forceAuthn: true, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        h.answer(h.sent.last!.0, EngineHarness.token(mvpd: "X", guid: "guid-2", expires: h.now + .hours(2)))
        _ = h.takeCallbacks()
        let t = AuthzToken(
            sessionGUID: "guid-1", requestorID: "REQ1", resourceID: "CNN", mvpdID: "X", deviceID: "d",
            expires: h.now + .hours(1))
        h.answer(
            authorize,
            .response(
                HTTPResponse(status: 200, contentType: "application/xml", text: AuthorizeDeviceXML.build(.token(t)))))
        h.answer(h.sent.last!.0, .response(HTTPResponse(status: 200, contentType: "text/plain", text: "MEDIA")))
        #expect(
            h.takeCallbacks() == [
                #"setToken("MEDIA", "CNN")"#,
                #"sendTrackingData(TRACKING_AUTHORIZATION, ["true", "X", "\#(Tracking.guidHash("guid-1"))", "false", nil, nil, "mobile", "ios", "iOS"])"#,
            ])
        // Not cached for guid-2: the next check asks again.
        h.call(.checkAuthorization(resource: "CNN", data: nil))
        #expect(h.sent.last?.1.url == "https://sp.test/authorizeDevice")
    }
}
