import Entitlement
import PassModel
import Testing
@testable import Port

/// What crosses the protocol must come back as it went: the shim's answers are read by the harness
/// with the same codec, and the suite through `passim shim` is only as good as this round trip.
@Suite struct PortCodecTests {
    static let comcast = MVPD(
        id: "Comcast", displayName: "Xfinity", logoURL: "https://logo.test/c.png",
        enablePlatformServices: true, boardingStatus: .supported, requiresSVC: true, spURL: "https://sp.test")
    static let dish = MVPD(id: "Dish", displayName: "DISH", tempPass: true)

    static let callbacks: [Callback] = [
        .setRequestorComplete(status: 1),
        .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError),
        .displayProviderDialog([comcast, dish]),
        .navigateToUrl("https://sp.test/authenticate/saml?x=1", useSVC: nil),
        .navigateToUrl("https://sp.test/a", useSVC: true),
        .setToken(token: "tok", resource: "CNN"),
        .tokenRequestFailed(resource: "ESPN", errorCode: Constants.userNotAuthorizedError, details: "Upgrade"),
        .preauthorizedResources(["CNN", "HBO"]),
        .selectedProvider(nil),
        .selectedProvider(comcast),
        .setMetadataStatus(
            value: .dict([Value.Entry("zip", .list([.string("12345")]))]), encrypted: false, opcode: 3,
            arguments: .dict([Value.Entry("opCode", .int(3))])),
        .presentTvProviderDialog(shown: [comcast], featured: []),
        .dismissTvProviderDialog(shown: [comcast], featured: [comcast]),
        .status(code: "REGCODE", message: "AB12CD"),
        .status(code: "N005", message: nil),
        .sendTrackingData(event: 0, data: ["true", nil, "ios"]),
    ]

    @Test(arguments: callbacks)
    func callbacksRoundTrip(_ callback: Callback) throws {
        #expect(try PortCodec.callback(named: callback.name, PortCodec.arguments(of: callback)) == callback)
    }

    static let calls: [Call] = [
        .initialize(softwareStatement: "ss"), .initialize(softwareStatement: nil),
        .setOptions([Value.Entry("visitorID", .string("v-1"))]),
        .setRequestor(requestorID: "REQ1", serviceProviders: ["https://sp.test"], signedRequestorID: "sig"),
        .setRequestor(requestorID: "REQ1", serviceProviders: nil),
        .checkAuthentication, .getSelectedProvider, .logout, .getAuthenticationToken,
        .getAuthentication(forceAuthn: true, data: .dict([Value.Entry("k", .string("v"))]), filter: nil),
        .getAuthentication(forceAuthn: false, data: nil, filter: .list([.string("Comcast")])),
        .setSelectedProvider("Comcast"), .setSelectedProvider(nil),
        .handleExternalURL("adobepass://ios.app"),
        .checkAuthorization(resource: "CNN", data: nil), .getAuthorization(resource: "CNN", data: .dict([])),
        .checkPreauthorizedResources(["CNN", "HBO"], cache: false),
        .getMetadata(.dict([Value.Entry("opCode", .int(1)), Value.Entry("resource_id", .string("CNN"))])),
    ]

    @Test(arguments: calls)
    func callsRoundTrip(_ call: Call) throws {
        #expect(try PortCodec.call(named: call.name, PortCodec.arguments(of: call)) == call)
    }

    @Test func constantsCrossBySymbolOrByThePortsValue() throws {
        var map = ConstantMap()
        try map.add(symbol: "PROVIDER_NOT_SELECTED_ERROR", portValue: .string("Provider not Selected Error"))
        let bySymbol = try PortCodec.callback(
            named: "setAuthenticationStatus",
            [.int(0), .dict([Value.Entry("$symbol", .string("USER_NOT_AUTHENTICATED_ERROR"))])])
        #expect(bySymbol == .setAuthenticationStatus(status: 0, errorCode: Constants.userNotAuthenticatedError))
        let mapped = try PortCodec.callback(
            named: "setAuthenticationStatus", [.int(0), .string("Provider not Selected Error")], constants: map)
        #expect(mapped == .setAuthenticationStatus(status: 0, errorCode: Constants.providerNotSelectedError))
        #expect(mapped.description == "setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)")
        #expect(throws: PortError.self) { try map.add(symbol: "NO_SUCH", portValue: .int(1)) }
        #expect(throws: PortError.self) {
            try PortCodec.callback(named: "setRequestorComplete", [.dict([Value.Entry("$symbol", .string("NO_SUCH"))])])
        }
    }

    @Test func malformedCallbacksSayWhatIsWrong() {
        func message(_ name: String, _ args: [Value]) -> String {
            do {
                _ = try PortCodec.callback(named: name, args)
                return "accepted"
            } catch {
                return error.message
            }
        }
        #expect(message("setRequestorComplete", []) == "setRequestorComplete takes 1 argument(s), got 0")
        #expect(
            message("setRequestorComplete", [.string("1")])
                == "setRequestorComplete: argument 1 must be an integer, got \"1\"")
        #expect(
            message("displayProviderDialog", [.list([.string("Comcast")])])
                == "displayProviderDialog: an MVPD must be an object with an id")
        #expect(message("onWhatever", []) == "unknown callback onWhatever")
    }

    @Test func outputLinesAreChecked() throws {
        #expect(throws: PortError.self) { try PortOutput.parse("not json") }
        #expect(throws: PortError.self) { try PortOutput.parse("[1]") }
        #expect(throws: PortError.self) {
            try PortOutput.parse(#"{"type":"request","app":"app","id":1,"method":"GET","url":"file:///etc/passwd"}"#)
        }
        #expect(throws: PortError.self) { try PortOutput.parse(#"{"type":"teleport"}"#) }
        #expect(try PortOutput.parse(#"{"type":"idle"}"#) == .idle)
        #expect(
            try PortOutput.parse(#"{"type":"present","app":"a","url":"https://sp.test/authenticate/saml?x=1"}"#)
                == .present(app: "a", url: "https://sp.test/authenticate/saml?x=1"))
        #expect(throws: PortError.self) { try PortOutput.parse(#"{"type":"present","app":"a","url":"adbe.x://y"}"#) }
        // Live network: what the port's own request got, without its body.
        #expect(
            try PortOutput.parse(
                #"{"type":"fetched","app":"a","id":2,"method":"GET","url":"https://sp.test/config/R","status":200}"#)
                == .fetched(
                    app: "a", id: 2, HTTPRequest(method: "GET", url: "https://sp.test/config/R"),
                    .response(HTTPResponse(status: 200))))
        #expect(
            try PortOutput.parse(
                #"{"type":"fetched","app":"a","id":2,"method":"GET","url":"https://sp.test/","error":"connection refused"}"#
            )
                == .fetched(
                    app: "a", id: 2, HTTPRequest(method: "GET", url: "https://sp.test/"), .failure("connection refused")
                ))
        #expect(throws: PortError.self) {
            try PortOutput.parse(#"{"type":"fetched","app":"a","id":2,"method":"GET","url":"https://sp.test/"}"#)
        }
        #expect(
            try PortOutput.parse(#"{"type":"timer","app":"a","id":3,"at":1767225600000}"#)
                == .timer(app: "a", id: 3, at: Instant(milliseconds: 1_767_225_600_000)))
    }
}
