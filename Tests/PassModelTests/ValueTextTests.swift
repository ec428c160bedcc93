import Testing
@testable import PassModel

@Suite struct ValueTextTests {
    @Test func canonicalText() {
        let v = Value.dict([
            Value.Entry("zip", .list([.string("12345")])), Value.Entry("a b", .null), Value.Entry("ok", .bool(true)),
        ])
        #expect(v.description == #"{zip: ["12345"], "a b": nil, ok: true}"#)
        #expect(Value.string("a\"b\\c\n").description == #""a\"b\\c\n""#)
        #expect(Value.mvpd(MVPD(id: "Comcast", displayName: "Xfinity")).description == "Comcast")
    }

    @Test func identifiers() {
        #expect(Value.isIdentifier("Comcast_SSO-2.x"))
        #expect(!Value.isIdentifier("nil"))
        #expect(!Value.isIdentifier("9lives"))
        #expect(!Value.isIdentifier("a b"))
    }

    @Test func callbacksPrintConstantsBySymbol() {
        #expect(
            Callback.setAuthenticationStatus(status: 0, errorCode: Constants.providerNotSelectedError).description
                == "setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)")
        #expect(
            Callback.setAuthenticationStatus(status: 1, errorCode: "").description == #"setAuthenticationStatus(1, "")"#
        )
        #expect(
            Callback.sendTrackingData(event: 0, data: ["false", nil, nil, nil, "mobile", "ios", "iOS"]).description
                == #"sendTrackingData(TRACKING_AUTHENTICATION, ["false", nil, nil, nil, "mobile", "ios", "iOS"])"#)
        #expect(Callback.navigateToUrl("u", useSVC: true).description == #"navigateToUrl("u", true)"#)
        #expect(Callback.navigateToUrl("u", useSVC: nil).arguments.count == 1)
        let m = MVPD(id: "Comcast", displayName: "Xfinity")
        #expect(
            Callback.presentTvProviderDialog(shown: [m], featured: []).description
                == "presentTvProviderDialog([Comcast], featured: [])")
        #expect(Callback.status(code: "REGCODE", message: "A1B2C3").description == #"status(REGCODE, "A1B2C3")"#)
    }

    @Test func constantsResolve() {
        #expect(Constants.value(of: "USER_NOT_AUTHENTICATED_ERROR") == .string("User Not Authenticated Error"))
        #expect(Constants.value(of: "METADATA_OPCODE_KEY") == .string("opCode"))
        #expect(Constants.value(of: "Comcast") == nil)
    }

    @Test func callText() {
        #expect(
            Call.setRequestor(requestorID: "REQ1", serviceProviders: ["https://a"]).description
                == #"setRequestor("REQ1", serviceProviders: ["https://a"])"#)
        #expect(Call.setSelectedProvider(nil).description == "setSelectedProvider(nil)")
        #expect(
            Call.checkPreauthorizedResources(["CNN"], cache: false).description
                == #"checkPreauthorizedResources(["CNN"], cache: false)"#)
        #expect(
            Call.getAuthentication(forceAuthn: true, data: nil, filter: nil).description
                == "getAuthentication(forceAuthn: true)")
    }
}
