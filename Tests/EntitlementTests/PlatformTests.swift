import PassModel
import PassXML
import Testing
@testable import Entitlement

@Suite struct PlatformTests {
    @Test func tvOSRegistrationCodeIsPolledEveryTenSecondsUntilItExpires() throws {
        var h = EngineHarness(
            engine: Engine(
                configuration: EngineConfiguration(platform: .tvos, defaultServiceProvider: "https://sp.test")))
        h.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        h.answer(h.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        h.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        h.call(.setSelectedProvider("X"))
        let (id, regcode) = try #require(h.sent.last)
        #expect(regcode.url == "https://sp.test/reggie/v1/REQ1/regcode")
        let expires = h.now + .seconds(25)
        h.answer(
            id,
            .response(
                HTTPResponse(
                    status: 201, contentType: "application/json",
                    text: #"{"code": "ABCDEFG", "expires": \#(expires.milliseconds)}"#)))
        #expect(h.takeCallbacks().last == #"status(REGCODE, "ABCDEFG")"#)
        for _ in 0..<2 {
            h.advance(.seconds(10))
            let (poll, request) = try #require(h.sent.last)
            #expect(request.url.hasPrefix("https://sp.test/api/v1/checkauthn/ABCDEFG?"))
            h.answer(poll, .response(HTTPResponse(status: 404)))
        }
        h.advance(.seconds(5))
        #expect(h.takeCallbacks().first == "setAuthenticationStatus(0, GENERIC_AUTHENTICATION_ERROR)")
        #expect(h.timers.isEmpty)
    }

    @Test func sharedStoreIsWrittenOnEveryChangeAndAdoptedBySetRequestor() {
        var a = EngineHarness()
        a.call(.setRequestor(requestorID: "REQ1", serviceProviders: nil))
        a.answer(a.sent[0].0, EngineHarness.config("REQ1", [("X", "X")]))
        a.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        a.call(.setSelectedProvider("X"))
        a.call(.handleExternalURL("adobepass://ios.app"))
        a.answer(a.sent.last!.0, EngineHarness.token(mvpd: "X", expires: a.now + .hours(2)))
        #expect(a.sharedStore?.token.guid == "guid-1")

        var b = EngineHarness()
        b.sharedStore = a.sharedStore  // one device: b reads what a wrote
        b.call(.setRequestor(requestorID: "REQ2", serviceProviders: nil))
        b.answer(b.sent[0].0, EngineHarness.config("REQ2", [("X", "X from B")]))
        b.call(.checkAuthentication)
        #expect(b.takeCallbacks().dropFirst().first == #"setAuthenticationStatus(1, "")"#)
        #expect(b.engine.selectedMVPD?.displayName == "X from B")

        a.call(.logout)
        #expect(a.sharedStore == nil)
        b.sharedStore = a.sharedStore
        b.call(.setRequestor(requestorID: "REQ2", serviceProviders: nil))
        b.answer(b.sent.last!.0, EngineHarness.config("REQ2", [("X", "X from B")]))
        _ = b.takeCallbacks()
        b.call(.checkAuthentication)
        #expect(b.takeCallbacks().first == "setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)")
    }

    @Test func pickerFilterKeepsTheFilterOrderAndDropsNonSSO() {
        let mvpds = [
            MVPD(id: "A", displayName: "A", enablePlatformServices: true, boardingStatus: .picker),
            MVPD(id: "B", displayName: "B"),
            MVPD(id: "C", displayName: "C", enablePlatformServices: true, boardingStatus: .supported),
        ]
        #expect(AuthenticationFlow.picker(mvpds, filter: nil).shown.map(\.id) == ["A", "C"])
        #expect(
            AuthenticationFlow.picker(mvpds, filter: .list([.string("C"), .string("B"), .string("A")])).shown.map(\.id)
                == [
                    "C", "A",
                ])
        let dict = Value.dict([
            Value.Entry("TV_PROVIDERS", .list([.string("C")])),
            Value.Entry("FEATURED_TV_PROVIDERS", .list([.string("C"), .string("B")])),
        ])
        let p = AuthenticationFlow.picker(mvpds, filter: dict)
        #expect(p.shown.map(\.id) == ["C"] && p.featured.map(\.id) == ["C"])
    }
}
