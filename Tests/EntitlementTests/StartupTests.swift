import PassModel
import Testing
@testable import Entitlement

@Suite struct StartupTests {
    @Test func fetchesEverySPAtOnceAndMergesInArrivalOrder() throws {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: ["a.test", "https://b.test/"]))
        #expect(h.sent.map(\.1.url) == ["https://a.test/config/REQ1", "https://b.test/config/REQ1"])
        #expect(h.callbacks.isEmpty)
        // b answers first: its list leads and its description of X wins.
        h.answer(h.sent[1].0, EngineHarness.config("REQ1", [("X", "X from b"), ("Y", "Y")]))
        #expect(h.callbacks.isEmpty)
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("Z", "Z"), ("X", "X from a")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
        let mvpds = try #require(h.engine.currentConfiguration?.mvpds)
        #expect(mvpds.map(\.id) == ["X", "Y", "Z"])
        #expect(mvpds[0].displayName == "X from b")
        #expect(mvpds.map(\.spURL) == ["https://b.test", "https://b.test", "https://a.test"])
        #expect(h.timers.isEmpty, "the 30 s deadline is cancelled once everything settled")
    }

    @Test func timeoutSettlesWithWhatArrived() {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: ["a.test", "b.test"]))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.advance(.seconds(29))
        #expect(h.callbacks.isEmpty)
        h.advance(.seconds(1))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
        // The late answer changes nothing.
        h.answer(h.sent[1].0, EngineHarness.config("REQ1", [("Y", "Y")]))
        #expect(h.callbacks.isEmpty)
        #expect(h.engine.currentConfiguration?.mvpds.map(\.id) == ["X"])
    }

    @Test func unusableAnswersFail() {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: ["a.test", "b.test", "c.test"]))
        h.answer(h.sent[0].0, .response(HTTPResponse(status: 404)))
        h.answer(h.sent[1].0, .failure("refused"))
        h.answer(
            h.sent[2].0, .response(HTTPResponse(status: 200, contentType: "application/xml", text: "<config><!DOCTYPE"))
        )
        #expect(h.takeCallbacks() == ["setRequestorComplete(0)"])
    }

    @Test func aConfigurationForAnotherRequestorIsNotUsable() {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        #expect(h.sent.first?.1.url == "https://sp.test/config/REQ1")
        h.answer(h.sent[0].0, EngineHarness.config("OTHER", [("X", "X")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(0)"])
    }

    @Test func queuedCallsRunAfterCompletionInCallOrder() {
        var h = EngineHarness()
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.checkAuthentication)
        h.call(.getSelectedProvider)  // never queued
        #expect(h.takeCallbacks() == ["selectedProvider(nil)"])
        #expect(h.engine.queuedCalls.count == 2)
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        #expect(
            h.takeCallbacks() == [
                "setRequestorComplete(1)",
                "displayProviderDialog([X])",
                "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)",
                #"sendTrackingData(TRACKING_AUTHENTICATION, ["false", nil, nil, nil, "mobile", "ios", "iOS"])"#,
            ])
        #expect(h.engine.queuedCalls.isEmpty)
    }

    @Test func supersededFetchEndsWithZero() {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.call(.setRequestor(requestorID: "REQ2", serviceProviders: nil))
        #expect(h.takeCallbacks() == ["setRequestorComplete(0)"])
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        #expect(h.callbacks.isEmpty, "the first fetch's answer is dropped")
        h.answer(h.sent[1].0, EngineHarness.config("REQ2", [("X", "X")]))
        #expect(h.takeCallbacks() == ["setRequestorComplete(1)"])
        #expect(h.timers.isEmpty)
    }
}
