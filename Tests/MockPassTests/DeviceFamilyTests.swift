import PassModel
import PassXML
import Testing
@testable import MockPass

/// The SDK device family as real clients call it: version segment and doubled slashes, optional
/// `device_id`, sessions found by registration code, refusal headers, `usermetadata`.
@Suite struct DeviceFamilyTests {
    @Test func oddPathsReachTheEndpointOrStay404() throws {
        let text = String(decoding: try HostileFixtures.bytes("paths/sp-paths.txt"), as: UTF8.self)
        var b = Browser(MockPass(world: deviceWorld(), seed: 41))
        var lines = 0
        for line in text.split(separator: Character("\n")) where !line.isEmpty {
            let parts = line.split(separator: Character(" "), maxSplits: 2).map(String.init)
            guard parts.count == 3, let status = Int(parts[0]) else { throw TestFailure("bad line: \(line)") }
            let r = b.send(HTTPRequest(method: parts[1], url: parts[2]), withCookies: false)
            #expect(r.status == status, "\(line): \(r.bodyText)")
            lines += 1
        }
        #expect(lines == 24)
    }

    @Test func versionedAndDoubledSlashPathsShareTheLogin() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 42))
        let token = try b.loginToken()
        for path in ["/1.0/sessionDevice", "//1.0//sessionDevice"] {
            let r = b.post(spURL + path, [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", "dev-1")])
            #expect(try SessionDeviceXML.parse(r.body) == .token(token))
        }
        #expect(b.mock.log.last?.path == "/sessionDevice")
    }

    @Test func sessionDeviceWithoutDeviceIDIssuesATokenItsParserReads() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 43))
        #expect(try b.login().status == 302)
        let r = b.post(spURL + "/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1")])
        #expect(r.status == 200)
        guard case .token(let token) = try SessionDeviceXML.parse(r.body) else { throw TestFailure("no token") }
        #expect(token.deviceID.hasPrefix(SDKFamily.webDevicePrefix))
        #expect(token.deviceID.count > SDKFamily.webDevicePrefix.count)
        // The token is made once: a later call with a device id hands out the same one.
        #expect(try b.sessionDevice() == .token(token))
    }

    @Test func authorizeDeviceWithoutDeviceIDTakesTheTokensDeviceID() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 44))
        let authn = try b.loginToken()
        let r = b.engine(
            "/authorizeDevice",
            [
                ("resource_id", "CNN"), ("requestor_id", "REQ1"), ("mso_id", "Comcast"),
                ("authentication_token", AuthnTokenXML.build(authn)),
            ])
        #expect(try authzToken(r).deviceID == authn.deviceID)
    }

    @Test func refusalsCarryTheAuthzfHeaders() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 45))
        let authn = try b.loginToken()
        let r = b.authorize(authn, "HBO")
        #expect(
            try errorBody(r) == ErrorBody(status: 403, message: "User not authorized", details: "Upgrade your package.")
        )
        #expect(r.headers["Authzf-Error-Code"] == SDKFamily.authzfErrorCode)
        #expect(r.headers["Authzf-Sub-Error-Code"] == SDKFamily.authzfSubErrorCode)
    }

    /// Two device clients send a random `session_guid`: it is required, not compared.
    @Test func shortAuthorizeIgnoresTheSessionGUID() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 46))
        let authz = try authzToken(b.authorize(try b.loginToken(), "CNN"))
        #expect(b.mediaToken(authz, sessionGUID: "0f9e8d7c-random").status == 200)
    }

    @Test func userMetadataAnswersTheTokensUserAsJSON() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 47))
        let authn = try b.loginToken()
        let r = b.engine("/usermetadata", [("requestor", "REQ1"), ("authn", AuthnTokenXML.build(authn))])
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/json")
        let json = try Value(jsonText: r.bodyText)
        #expect(json["data"]?["householdID"]?.stringValue == UserMetaCipher.encrypt(.string("h-42")).stringValue)
        #expect(json["encrypted"] == Value.list([Value.string("householdID")]))

        var forged = authn
        forged.mvpdID = "Dish"
        let refused = b.engine("/usermetadata", [("requestor", "REQ1"), ("authn", AuthnTokenXML.build(forged))])
        #expect(try errorBody(refused) == ErrorBody(status: 401, message: "User not authenticated"))
        #expect(try errorBody(b.engine("/usermetadata", [("requestor", "REQ1")])).message == "missing parameter authn")
    }

    @Test func completePassiveAuthenticationIsAPage() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 48))
        let r = b.get(spURL + "/1.0/completePassiveAuthentication")
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "text/html")
    }

    @Test func unknownPathsListTheFamilies() {
        var b = Browser(MockPass(world: deviceWorld(), seed: 49))
        let r = b.get(spURL + "/adobe-services/nothing")
        #expect(r.status == 404)
        for family in ["SDK device family", "web family", "REST API v1", "docs/WIRE.md"] {
            #expect(r.bodyText.contains(family))
        }
    }

    /// The second-screen model: the login a code started is found by the code alone, from a client
    /// with no cookies; before it completes the answer is 401 "Data not found".
    @Test func aLoginStartedWithARegCodeIsFoundByTheCode() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 50))
        let created = b.engine("/reggie/v1/REQ1/regcode", [("deviceId", "tv-1")])
        let code = try #require(try Value(jsonText: created.bodyText)["code"]?.stringValue)
        let byCode: [(String, String)] = [("_method", "GET"), ("requestor_id", "REQ1"), ("reg_code", code)]

        let start = b.get(loginURL() + "&reg_code=" + code)
        #expect(start.status == 200)
        let before = b.engine("/sessionDevice", byCode)
        #expect(try errorBody(before) == ErrorBody(status: 401, message: "Data not found"))
        #expect(try errorBody(b.engine("/session", byCode)).message == "Data not found")

        let sso = b.submit(try onlyForm(start))
        let idp = b.submit(try onlyForm(sso), ["username": "alice", "password": "secret"])
        #expect(b.submit(try onlyForm(idp)).status == 302)
        guard case .token(let token) = try SessionDeviceXML.parse(b.engine("/sessionDevice", byCode).body) else {
            throw TestFailure("no token by code")
        }
        #expect(token.deviceID == "tv-1")
        #expect(try SessionDeviceXML.parse(b.engine("/session", byCode).body) == .token(token))
        #expect(
            try errorBody(b.engine("/sessionDevice", [("requestor_id", "REQ1"), ("reg_code", "NOPE123")])).status == 401
        )
    }

    @Test func authenticateRefusesAnUnknownRegCode() {
        var b = Browser(MockPass(world: deviceWorld(), seed: 51))
        let r = b.get(loginURL() + "&reg_code=NOPE123")
        #expect(r.status == 400)
        #expect(r.bodyText.contains("unknown registration code"))
    }

    /// A logout started elsewhere for this login's SAML session: `<pendingLogout>true</pendingLogout>`
    /// on both families until the IdP answers, then no session.
    @Test func aLogoutUnderWayIsReportedAsPending() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 60))
        let token = try b.loginToken()
        var other = Browser(b.mock)
        other.now = b.now
        let start = other.get(
            spURL + "/logout?"
                + FormCoding.encode([
                    ("mso_id", "Comcast"), ("requestor_id", "REQ1"), ("name_id", token.nameID),
                    ("session_index", token.sessionIndex), ("redirect_url", redirect),
                ]))
        b.mock = other.mock
        let pending = b.post(
            spURL + "/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", "dev-1")])
        #expect(pending.bodyText == "<result><pendingLogout>true</pendingLogout></result>")
        #expect(
            b.post(spURL + "/session", [("_method", "GET"), ("requestor_id", "REQ1")]).bodyText == pending.bodyText)

        other.mock = b.mock
        let slo = other.submit(try onlyForm(start))
        #expect(other.submit(try onlyForm(slo)).status == 302)
        b.mock = other.mock
        #expect(try b.sessionDevice() == .none)
    }
}
