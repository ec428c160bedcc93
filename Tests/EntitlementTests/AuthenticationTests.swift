import PassModel
import Testing
@testable import Entitlement

@Suite struct AuthenticationTests {
    /// Configured with X and Y at https://sp.test.
    func configured() -> EngineHarness {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X"), ("Y", "Y")]))
        _ = h.takeCallbacks()
        return h
    }

    @Test func classicFlow() throws {
        var h = configured()
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        let cbs = h.takeCallbacks()
        #expect(cbs.count == 3)
        #expect(cbs[0] == "displayProviderDialog([X, Y])")
        #expect(cbs[1] == #"sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, ["X", "mobile", "ios", "iOS"])"#)
        #expect(cbs[2].hasPrefix(#"navigateToUrl("https://sp.test/authenticate/saml?"#))
        #expect(cbs[2].contains("mso_id=X") && cbs[2].contains("redirect_url=adobepass%3A%2F%2Fios.app"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        let (id, request) = try #require(h.sent.last)
        #expect(request.method == "POST" && request.url == "https://sp.test/sessionDevice")
        #expect(request.parameter("requestor_id") == "REQ1")
        h.answer(id, EngineHarness.token(mvpd: "X", expires: h.now + .hours(1)))
        #expect(
            h.takeCallbacks() == [
                #"setAuthenticationStatus(1, "")"#,
                #"sendTrackingData(TRACKING_AUTHENTICATION, ["true", "X", "\#(Tracking.guidHash("guid-1"))", "false", "mobile", "ios", "iOS"])"#,
            ])
        #expect(Tracking.guidHash("guid-1") == "a65edd3ea9607c89b21fa6200ea07f71")
        #expect(Tracking.guidHash("") == "d41d8cd98f00b204e9800998ecf8427e")
        // Expiry: an hour later the token is gone.
        h.advance(.hours(1))
        h.call(.checkAuthentication)
        #expect(h.takeCallbacks().first == "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)")
    }

    @Test func cancelAtEveryWaitingState() {
        for stage in 0..<3 {
            var h = configured()
            h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
            if stage >= 1 { h.call(.setSelectedProvider("X")) }
            if stage >= 2 { h.call(.handleExternalURL("adobepass://ios.app")) }
            _ = h.takeCallbacks()
            h.call(.setSelectedProvider(nil))
            #expect(
                h.takeCallbacks() == [
                    "setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)",
                    #"sendTrackingData(TRACKING_AUTHENTICATION, ["false", nil, nil, nil, "mobile", "ios", "iOS"])"#,
                ], "stage \(stage)")
            #expect(h.engine.selectedMVPD == nil)
            #expect(!h.engine.isLoginWaiting)
            if stage == 2, let (id, _) = h.sent.last {
                h.answer(id, EngineHarness.token(mvpd: "X", expires: h.now + .hours(1)))
                #expect(h.callbacks.isEmpty, "the cancelled flow's token answer is dropped")
            }
        }
    }

    @Test func tokenFailuresAreGeneric() {
        let failures: [HTTPResult] = [
            .failure("refused"), .timeout, .response(HTTPResponse(status: 500)),
            .response(HTTPResponse(status: 200, contentType: "application/xml", text: "<result/>")),
            .response(HTTPResponse(status: 200, contentType: "text/plain", text: "garbage")),
            EngineHarness.token(mvpd: "X", expires: Instant.simulationStart),  // already expired
        ]
        for result in failures {
            var h = configured()
            h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
            h.call(.setSelectedProvider("X"))
            h.call(.handleExternalURL("adobepass://ios.app"))
            _ = h.takeCallbacks()
            h.answer(h.sent.last!.0, result)
            #expect(h.takeCallbacks().first == "setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)", "\(result)")
        }
    }

    @Test func logoutClearsAtOnceAndWaitsForTheRedirect() {
        var h = configured()
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        h.answer(h.sent.last!.0, EngineHarness.token(mvpd: "X", expires: h.now + .hours(1)))
        _ = h.takeCallbacks()
        h.call(.logout)
        let cbs = h.takeCallbacks()
        #expect(cbs.count == 1 && cbs[0].hasPrefix(#"navigateToUrl("https://sp.test/logout?"#))
        #expect(cbs[0].contains("name_id=n") && cbs[0].contains("session_index=s"))
        #expect(h.engine.selectedMVPD == nil)
        h.call(.handleExternalURL("adobepass://ios.app"))
        #expect(h.takeCallbacks() == ["setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)"])
        h.call(.handleExternalURL("adobepass://ios.app"))
        #expect(h.callbacks.isEmpty)
    }

    @Test func unrelatedCallsDuringALoginLeaveItWaiting() {
        var h = configured()
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        _ = h.takeCallbacks()
        h.call(.checkAuthentication)
        h.call(.getSelectedProvider)
        h.call(.setOptions([Value.Entry("visitorID", .string("v"))]))
        #expect(h.takeCallbacks().count == 3)
        #expect(h.engine.isLoginWaiting)
    }
}
