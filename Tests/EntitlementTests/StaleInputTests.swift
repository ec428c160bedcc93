import PassModel
import Testing
@testable import Entitlement

/// The stale inputs each flow names: an answer or a timer no flow claims any more, and an answer
/// meant for a flow that has since been replaced. Each must cause nothing and change nothing.
@Suite struct StaleInputTests {
    func configured() -> EngineHarness {
        var h = EngineHarness()
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X"), ("Y", "Y")]))
        _ = h.takeCallbacks()
        return h
    }

    /// The whole engine as text: two equal texts are two equal states.
    static func state(_ engine: Engine) -> String {
        var text = ""
        dump(engine, to: &text)
        return text
    }

    /// Gives the input straight to the engine and checks it caused nothing and changed nothing.
    static func expectIgnored(_ h: inout EngineHarness, _ input: EngineInput, _ what: Comment) {
        let before = state(h.engine)
        let actions = h.engine.step(input, at: h.now)
        #expect(actions.isEmpty, what)
        #expect(state(h.engine) == before, what)
    }

    @Test func anAnswerAfterItsDeadlineIsIgnored() throws {
        var h = configured()
        h.call(.getMetadata(.dict([Value.Entry(Constants.metadataOpcodeKey, .int(Constants.metadataDeviceID))])))
        let (id, _) = try #require(h.sent.last)
        h.advance(.seconds(30))
        #expect(h.takeCallbacks().count == 1, "the deadline answered the query")
        Self.expectIgnored(
            &h, .response(id, .response(HTTPResponse(status: 200, contentType: "application/xml", text: "<x/>"))),
            "a late answer")
    }

    @Test func aTimerNoFlowHoldsIsIgnored() throws {
        var h = configured()
        // The configuration fetch's deadline was cancelled when it settled; a runtime that fires it anyway.
        Self.expectIgnored(&h, .timer(TimerID(1)), "the settled fetch's deadline")
        Self.expectIgnored(&h, .timer(TimerID(999)), "a timer the engine never set")
    }

    @Test func anAnswerForASupersededLoginIsIgnored() throws {
        var h = configured()
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        h.call(.handleExternalURL("adobepass://ios.app"))
        let (old, _) = try #require(h.sent.last)
        // A new login replaces the one whose token request is out; it now waits for a selection.
        h.call(.getAuthentication(forceAuthn: true, data: nil, filter: nil))
        _ = h.takeCallbacks()
        #expect(h.engine.isLoginWaiting)
        Self.expectIgnored(
            &h, .response(old, EngineHarness.token(mvpd: "X", expires: h.now + .hours(1))),
            "the old login's token answer")
    }

    @Test func aPickerAnswerWithNoPickerUpIsIgnored() {
        var h = configured()
        Self.expectIgnored(&h, .picker(.cancelled), "the picker is not up")
    }
}
