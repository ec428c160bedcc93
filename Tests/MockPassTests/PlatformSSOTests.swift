import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct PlatformSSOTests {
    static func appleToken(
        _ b: inout Browser, user: String = "alice", password: String = "secret",
        idp: String = "https://comcast.idp.test"
    ) -> HTTPResponse {
        b.post(idp + "/platform-sso", [("username", user), ("password", password)], withCookies: false)
    }

    static func exchange(
        _ b: inout Browser, _ samlResponse: String, mvpd: String = "Comcast", requestor: String = "REQ1",
        device: String = "ipad-1"
    ) -> HTTPResponse {
        b.engine(
            "/api/v1/tokens/authn",
            [
                ("requestor", requestor), ("deviceId", device), ("mvpd", mvpd),
                ("deviceType", "iOS"), ("SAMLResponse", samlResponse),
            ])
    }

    @Test func theIdPIssuesAnUnsolicitedAssertion() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 61))
        for (user, password) in [("alice", "wrong"), ("", ""), ("bob", "hunter2")] {
            let r = Self.appleToken(&b, user: user, password: password)
            #expect(r.status == 401)
            #expect(try errorBody(r).message == "Invalid user name or password.")
        }
        let r = Self.appleToken(&b)
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/xml")
        let response = try SAML.parseResponse(r.body)
        #expect(response.inResponseTo == "")
        #expect(response.success)
        #expect(response.issuer == "https://comcast.idp.test")
        let assertion = try #require(response.assertion)
        #expect(assertion.notOnOrAfter == b.now + .minutes(5))
        #expect(assertion.attributes.first == SAMLAttribute(name: "userID", values: ["alice"]))
        #expect(b.get("https://comcast.idp.test/platform-sso").status == 405)
    }

    @Test func theTokenExchangeBindsTheUserToTheDevice() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 62))
        let apple = Self.appleToken(&b)
        let assertion = try #require(try SAML.parseResponse(apple.body).assertion)
        b.now = b.now + .seconds(1)
        let r = Self.exchange(&b, SAML.encodeForPost(apple.bodyText))
        #expect(r.status == 204)
        #expect(r.body.isEmpty)
        let (content, meta) = try b.deviceSession(device: "ipad-1")
        guard case .token(let token) = content else { Issue.record("no token"); return }
        #expect(token.nameID == assertion.nameID)
        #expect(token.sessionIndex == assertion.sessionIndex)
        #expect(token.mvpdID == "Comcast")
        #expect(token.expires == b.now + .hours(24))
        #expect(meta?["encrypted"] == .list([.string("householdID")]))
        #expect(try authzToken(b.authorize(token, "ESPN", device: "ipad-1")).expires == b.now + .hours(1))
        // The same Apple token may be exchanged again while valid (a new token each time).
        #expect(Self.exchange(&b, SAML.encodeForPost(apple.bodyText)).status == 204)
        #expect(try b.deviceToken(device: "ipad-1").guid != token.guid)
    }

    @Test func badExchangesAreRefused() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 63))
        let apple = Self.appleToken(&b).bodyText
        let valid = SAML.encodeForPost(apple)
        let fields = [
            ("requestor", "REQ1"), ("deviceId", "d"), ("mvpd", "Comcast"), ("deviceType", "iOS"),
            ("SAMLResponse", valid),
        ]
        for missing in fields.map(\.0) {
            let r = b.engine("/api/v1/tokens/authn", fields.filter { $0.0 != missing })
            #expect(try errorBody(r) == ErrorBody(status: 400, message: "missing parameter \(missing)"))
        }
        for bad in ["%%%", SAML.encodeForPost("not xml"), SAML.encodeForPost(hostileXML)] {
            let r = Self.exchange(&b, bad)
            #expect(r.status == 400)
            #expect(!r.bodyText.contains("root:"))
        }
        #expect(
            try errorBody(Self.exchange(&b, valid, mvpd: "Verizon")).message == "MVPD Verizon is not offered to REQ1")
        #expect(
            try errorBody(Self.exchange(&b, valid, mvpd: "TempPass")).message
                == "MVPD TempPass has no identity provider")
        #expect(try errorBody(Self.exchange(&b, valid, requestor: "REQ3")).message == "unknown requestor REQ3")
        // Comcast's assertion offered as Dish's.
        let foreign = Self.exchange(&b, valid, mvpd: "Dish")
        #expect(foreign.status == 401)
        #expect(try errorBody(foreign).message == "the SAML response is not from the identity provider of Dish")

        var parsed = try SAML.parseResponse(Array(apple.utf8))
        var unknown = parsed
        unknown.assertion?.nameID = "someone-else"
        // Signed with the IdP's own key, so only the NameID is wrong.
        let key = try #require(IdPSigningKey.key(seed: b.mock.context.seed, mvpdID: "Comcast"))
        #expect(
            try errorBody(Self.exchange(&b, SAML.encodeForPost(try SAML.build(unknown, signedBy: key.signer)))).message
                == "unknown NameID")
        parsed.success = false
        #expect(try errorBody(Self.exchange(&b, SAML.encodeForPost(SAML.build(parsed)))).status == 401)
        b.now = b.now + .minutes(5)
        #expect(try errorBody(Self.exchange(&b, valid)) == ErrorBody(status: 401, message: "the assertion has expired"))
        #expect(try b.deviceSession(device: "d").0 == .none)
    }
}
