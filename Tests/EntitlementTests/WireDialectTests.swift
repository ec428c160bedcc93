import PassModel
import PassXML
import Testing
@testable import Entitlement

/// Each wire's dialect: the same intent encoded as that wire's request, and answers read into the
/// meanings the flows act on, so a flow never asks which wire it is on.
@Suite struct WireDialectTests {
    typealias F = FlowFixtures

    static func core(_ wire: EngineWire, platform: Platform = .ios, token: AuthnToken? = nil) -> EngineCore {
        var core = EngineCore(
            configuration: EngineConfiguration(platform: platform, defaultServiceProvider: F.sp, wire: wire))
        core.requestor = Configuration(requestorID: "REQ", mvpds: [F.mvpd])
        if let token { core.store.store(token, userMeta: nil, fromPlatformSSO: false) }
        return core
    }

    static func json(_ status: Int, _ text: String) -> HTTPResult {
        .response(HTTPResponse(status: status, contentType: "application/json", text: text))
    }

    static func path(_ request: WireRequest) -> String { URLParts(request.http.url)?.path ?? "" }

    @Test func theConfigurationOfEachWire() {
        let sdk = Self.core(.sdk)
        let v2 = Self.core(.restV2)
        let sdkRequest = sdk.dialect.configurationRequest(requestorID: "REQ", sp: F.sp, sdk)
        let v2Request = v2.dialect.configurationRequest(requestorID: "REQ", sp: F.sp, v2)
        #expect(Route.recognise(path: Self.path(sdkRequest))?.route == .config)
        #expect(
            V2Route(method: v2Request.http.method, path: Self.path(v2Request)) == .configuration(serviceProvider: "REQ")
        )
        #expect(v2Request.http.headers["AP-Device-Identifier"]?.hasPrefix("fingerprint ") == true)
        #expect(sdkRequest.http.headers["AP-Device-Identifier"] == nil, "the SDK's wire has no device headers")
        let v2Answer = Self.json(200, #"{"requestor":{"id":"REQ","mvpds":[{"id":"X","displayName":"Ex"}]}}"#)
        #expect(v2.dialect.configuration(in: v2Answer, v2)?.mvpds.map(\.id) == ["X"])
        #expect(sdk.dialect.configuration(in: v2Answer, sdk) == nil, "JSON is not the SDK's XML")
    }

    /// iOS: the SDK opens the SAML login at once; REST API v2 asks for a session first.
    @Test func aLoginOpensOnEachWire() {
        let sdk = Self.core(.sdk)
        guard case .browser(let url) = sdk.dialect.loginOpening(for: F.mvpd, data: nil, sdk) else {
            Issue.record("the SDK's login opens the browser")
            return
        }
        #expect(url.contains("authenticate/saml"))
        let v2 = Self.core(.restV2)
        guard case .request(let request, let kind) = v2.dialect.loginOpening(for: F.mvpd, data: nil, v2) else {
            Issue.record("a v2 login starts with a session")
            return
        }
        #expect(kind == .session && request.http.method == "POST" && !request.signed)
        let tv = Self.core(.restV2, platform: .tvos)
        guard case .request(_, .registrationCode) = tv.dialect.loginOpening(for: F.mvpd, data: nil, tv) else {
            Issue.record("a v2 login on tvOS shows the session's code")
            return
        }
    }

    /// A second screen's poll: used, gone, or asked again, on each wire's own statuses.
    @Test func aPollMeansTheSameOnEachWire() {
        let context = TokenContext(mvpd: F.mvpd, source: .sp, session: "s", data: nil)
        let sdk = Self.core(.sdk, platform: .tvos)
        guard case .readToken(let read) = sdk.dialect.codeChecked(F.xml(200, ""), context, sdk, at: F.now) else {
            Issue.record("a 200 poll reads the token")
            return
        }
        #expect(read.signed, "the registration-code flow's token read is signed")
        #expect(isGone(sdk.dialect.codeChecked(F.xml(410, ""), context, sdk, at: F.now)))
        #expect(isPending(sdk.dialect.codeChecked(F.xml(503, ""), context, sdk, at: F.now)))
        #expect(isPending(sdk.dialect.codeChecked(.timeout, context, sdk, at: F.now)))

        let v2 = Self.core(.restV2, platform: .tvos)
        let profile = Self.json(
            200, #"{"profiles":{"X":{"notBefore":0,"notAfter":\#(F.now.milliseconds + 60_000),"type":"regular"}}}"#)
        guard case .arrived(.token(let token)) = v2.dialect.codeChecked(profile, context, v2, at: F.now) else {
            Issue.record("a v2 poll that finds the profile is the token")
            return
        }
        #expect(token.token.guid == "s", "the token takes the session's id")
        #expect(isGone(v2.dialect.codeChecked(Self.json(400, #"{"code":"invalid_code"}"#), context, v2, at: F.now)))
        #expect(isPending(v2.dialect.codeChecked(Self.json(429, "{}"), context, v2, at: F.now)))
        #expect(isPending(v2.dialect.codeChecked(Self.json(200, #"{"profiles":{}}"#), context, v2, at: F.now)))
    }

    /// The SDK's authorization is an authZ token, then a media token; REST v2's decision carries the
    /// media token and stands for the authZ token, whose expiry is the decision's.
    @Test func anAuthorizationOnEachWire() {
        let token = F.token()
        let sdk = Self.core(.sdk, token: token)
        let authz = AuthorizeDeviceXML.build(.token(F.authz("R1", for: token)))
        guard
            case .permitted(let permit) = sdk.dialect.authorizeAnswer(
                F.xml(200, authz), resource: "R1", asked: token, sdk, at: F.now)
        else {
            Issue.record("an authZ token permits")
            return
        }
        #expect(permit.resourceID == "R1")

        let v2 = Self.core(.restV2, token: token)
        let expires = F.now.milliseconds + 420_000
        let decision = Self.json(
            200,
            #"{"decisions":[{"resource":"R1","serviceProvider":"REQ","mvpd":"X","source":"mvpd","authorized":true,"notAfter":\#(expires),"token":{"issuedAt":0,"notBefore":0,"notAfter":\#(expires),"serializedToken":"MEDIA"}}]}"#
        )
        guard
            case .granted(let media, let kept) = v2.dialect.authorizeAnswer(
                decision, resource: "R1", asked: token, v2, at: F.now)
        else {
            Issue.record("a permit with its media token is granted")
            return
        }
        #expect(media == "MEDIA" && kept?.expires == Instant(milliseconds: expires) && kept?.sessionGUID == token.guid)
        let denial = Self.json(
            200,
            #"{"decisions":[{"resource":"R1","authorized":false,"error":{"status":403,"code":"authorization_denied_by_mvpd","details":"No."}}]}"#
        )
        guard
            case .denied(let details) = v2.dialect.authorizeAnswer(denial, resource: "R1", asked: token, v2, at: F.now)
        else {
            Issue.record("a denial is denied")
            return
        }
        #expect(details == "No.")
        var v2Core = v2
        #expect(v2.dialect.servingAuthorization(for: "R1", &v2Core, at: F.now) == nil, "v2 authorizes every play")
    }

    /// tvOS logout: the SDK asks even with no MVPD; REST v2 has nothing to ask without one.
    @Test func aDeviceLogoutWithoutAnMVPD() {
        let sdk = Self.core(.sdk, platform: .tvos)
        #expect(sdk.dialect.deviceLogoutRequest(mvpd: nil, sp: F.sp, sdk)?.signed == true)
        let v2 = Self.core(.restV2, platform: .tvos)
        #expect(v2.dialect.deviceLogoutRequest(mvpd: nil, sp: F.sp, v2) == nil)
        #expect(v2.dialect.deviceLogoutRequest(mvpd: "X", sp: F.sp, v2) != nil)
    }

    /// `getMetadata` of the device id: the SP's answer on the SDK wire, the app's own id on v2.
    @Test func theDeviceIDOnEachWire() {
        let sdk = Self.core(.sdk)
        guard case .ask = sdk.dialect.deviceIDQuery(sdk) else {
            Issue.record("the SDK asks the SP")
            return
        }
        let v2 = Self.core(.restV2)
        guard case .known(let id) = v2.dialect.deviceIDQuery(v2) else {
            Issue.record("v2 knows the device id")
            return
        }
        #expect(id == v2.configuration.deviceID)
    }

    private func isGone(_ check: CodeCheck) -> Bool {
        if case .gone = check { return true }
        return false
    }

    private func isPending(_ check: CodeCheck) -> Bool {
        if case .pending = check { return true }
        return false
    }
}
