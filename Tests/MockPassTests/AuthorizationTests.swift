import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct AuthorizationTests {
    @Test func allowedResourcesGetATokenBoundedByTheAuthNToken() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 21))
        let authn = try b.loginToken()
        b.now = b.now + .minutes(1)
        let r = b.authorize(authn, "CNN")
        let authz = try authzToken(r)
        #expect(
            authz
                == AuthzToken(
                    sessionGUID: authn.guid, requestorID: "REQ1", resourceID: "CNN", mvpdID: "Comcast",
                    deviceID: "dev-1", expires: b.now + .hours(1)))
        #expect(r.bodyText.contains("&lt;simpleTokenTTL&gt;3600000&lt;/simpleTokenTTL&gt;"))

        // REQ2's authN token (2h) ends before its authZ TTL (24h): the authN expiry wins.
        var c = Browser(MockPass(world: deviceWorld(), seed: 22))
        let short = try c.loginToken(requestor: "REQ2")
        c.now = c.now + .minutes(30)
        #expect(try authzToken(c.authorize(short, "ESPN", requestor: "REQ2")).expires == short.expires)
    }

    @Test func deniedAndUnknownResourcesAre403WithTheMVPDsText() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 23))
        let alice = try b.loginToken()
        let denied = b.authorize(alice, "HBO")
        #expect(denied.status == 403)
        #expect(
            try errorBody(denied)
                == ErrorBody(status: 403, message: "User not authorized", details: "Upgrade your package."))
        let unknown = b.authorize(alice, "Nickelodeon")
        #expect(try errorBody(unknown) == ErrorBody(status: 403, message: "User not authorized", details: ""))
        // bob has no deny message.
        var c = Browser(MockPass(world: deviceWorld(), seed: 24))
        let bob = try c.loginToken(user: "bob", password: "hunter2", mvpd: "Dish")
        #expect(
            try errorBody(c.authorize(bob, "ESPN"))
                == ErrorBody(status: 403, message: "User not authorized", details: ""))
        #expect(try authzToken(c.authorize(bob, "CNN")).mvpdID == "Dish")
    }

    @Test func unknownExpiredOrAlteredAuthNTokensAre401() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 25))
        let token = try b.loginToken()
        let unauthenticated = ErrorBody(status: 401, message: "User not authenticated", details: "")
        var forged = token
        forged.guid = "00000000-0000-0000-0000-000000000000"
        var altered = token
        altered.expires = token.expires + .hours(100)
        for t in [forged, altered] {
            let r = b.authorize(t, "CNN")
            #expect(r.status == 401)
            #expect(try errorBody(r) == unauthenticated)
        }
        b.now = token.expires
        #expect(try errorBody(b.authorize(token, "CNN")) == unauthenticated)
        #expect(try errorBody(b.preauthorize(token, ["CNN"])) == unauthenticated)
    }

    @Test func badRequestsAre400WithAnErrorBody() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 26))
        let token = try b.loginToken()
        let full = [
            ("resource_id", "CNN"), ("requestor_id", "REQ1"), ("mso_id", "Comcast"), ("device_id", "dev-1"),
            ("authentication_token", AuthnTokenXML.build(token)),
        ]
        // `device_id` is optional (DeviceFamilyTests).
        for missing in full.map(\.0) where missing != "device_id" {
            let r = b.engine("/authorizeDevice", full.filter { $0.0 != missing })
            #expect(r.status == 400, "\(missing)")
            #expect(try errorBody(r).message == "missing parameter \(missing)")
        }
        for bad in ["not xml", hostileXML, "<authnToken/>"] {
            let r = b.engine("/authorizeDevice", full.map { $0.0 == "authentication_token" ? ($0.0, bad) : $0 })
            #expect(r.status == 400)
            #expect(try errorBody(r).message.hasPrefix("malformed authentication_token: "))
            #expect(!r.bodyText.contains("root:"))
        }
        let otherMVPD = b.authorize(token, "CNN", mvpd: "Dish")
        #expect(
            try errorBody(otherMVPD).message == "mso_id Dish does not match the authentication token's MVPD Comcast")
        #expect(try errorBody(b.authorize(token, "CNN", requestor: "REQ3")).message == "unknown requestor REQ3")
    }

    @Test func mrssResourcesAreDecidedByTheirChannelTitle() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 27))
        let token = try b.loginToken()
        let mrss =
            #"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>CNN</title><item><title>Ep 1</title></item></channel></rss>"#
        let authz = try authzToken(b.authorize(token, mrss))
        #expect(authz.resourceID == mrss)
        #expect(try ShortMediaTokenXML.deserialize(b.mediaToken(authz).bodyText).resourceID == mrss)
        #expect(
            try errorBody(b.authorize(token, "<rss><channel><title>HBO</title></channel></rss>")).details
                == "Upgrade your package.")
        for bad in [
            "<rss><channel/></rss>", "<rss", "\n <!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><rss/>",
        ] {
            let r = b.authorize(token, bad)
            #expect(r.status == 400, "\(bad)")
            #expect(!r.bodyText.contains("root:"))
        }
    }

    @Test func mediaTokensComeFromValidAuthZTokens() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 28))
        let authn = try b.loginToken()
        let authz = try authzToken(b.authorize(authn, "ESPN"))
        b.now = b.now + .minutes(59)
        let r = b.mediaToken(authz)
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "text/plain")
        #expect(
            try ShortMediaTokenXML.deserialize(r.bodyText)
                == ShortMediaToken(
                    sessionGUID: authn.guid, requestorID: "REQ1", resourceID: "ESPN", ttl: .minutes(5),
                    issueTime: b.now,
                    mvpdID: "Comcast"))

        var forged = authz
        forged.resourceID = "HBO"
        #expect(try errorBody(b.mediaToken(forged)) == ErrorBody(status: 403, message: "Unknown authorization token"))
        b.now = authz.expires
        #expect(try errorBody(b.mediaToken(authz)) == ErrorBody(status: 403, message: "Authorization token expired"))

        let bad = b.engine("/deviceShortAuthorize", [("session_guid", authn.guid), ("authz_token", hostileXML)])
        #expect(bad.status == 400)
        #expect(!bad.bodyText.contains("root:"))
        #expect(b.engine("/deviceShortAuthorize", [("session_guid", authn.guid)]).status == 400)
        let hashed = b.engine(
            "/deviceShortAuthorize",
            [
                ("session_guid", authn.guid), ("hashed_guid", "true"),
                ("authz_token", AuthzTokenXML.build(authz)),
            ])
        #expect(try errorBody(hashed).message == "hashed_guid=true is not supported")
    }

    @Test func preauthorizeAnswersInRequestOrder() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 29))
        let token = try b.loginToken()
        let r = b.preauthorize(token, ["HBO", "ESPN", "Nick", "CNN", "HBO"])
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "application/xml")
        let denied = ErrorBody(status: 403, message: "authorization_denied_by_mvpd", details: "Upgrade your package.")
        let neither = ErrorBody(status: 403, message: "authorization_denied_by_mvpd", details: "")
        #expect(
            try PreauthorizeXML.parse(r.body) == [
                .init(resourceID: "HBO", authorized: false, error: denied),
                .init(resourceID: "ESPN", authorized: true),
                .init(resourceID: "Nick", authorized: false, error: neither),
                .init(resourceID: "CNN", authorized: true),
                .init(resourceID: "HBO", authorized: false, error: denied),
            ])
        #expect(try PreauthorizeXML.parse(b.preauthorize(token, []).body) == [])
        #expect(b.preauthorize(token, [""]).status == 400)
        #expect(b.preauthorize(token, ["CNN"], requestor: "NOPE").status == 400)
        let hostile = b.engine("/preauthorize", [("authentication_token", hostileXML), ("requestor_id", "REQ1")])
        #expect(hostile.status == 400)
        #expect(!hostile.bodyText.contains("root:"))
    }

    @Test func deviceIDMetadataFollowsTheRequestor() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 30))
        let ok = b.engine("/getMetadataDevice", [("requestor_id", "REQ1"), ("device_id", "dev-9")])
        #expect(ok.status == 200)
        #expect(ok.headers["Content-Type"] == "application/xml")
        #expect(try MetadataXML.parse(ok.body) == "dev-9")
        for requestor in ["REQ2", "NOPE"] {
            let r = b.engine("/getMetadataDevice", [("requestor_id", requestor), ("device_id", "dev-9")])
            #expect(r.status == 403)
            #expect(try errorBody(r).message == "Device ID metadata is not available to requestor \(requestor)")
        }
        #expect(b.engine("/getMetadataDevice", [("requestor_id", "REQ1")]).status == 400)
    }

    @Test func sessionDeviceCarriesTheUsersMetadata() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 31))
        _ = try b.loginToken()
        b.now = b.now + .seconds(3)
        let r = b.post(
            spURL + "/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", "dev-1")])
        let meta = try #require(try SessionDeviceXML.parseUserMeta(r.body))
        #expect(
            meta.jsonText == #"{"updated":1767225603000,"encrypted":["householdID"],"data":{"zip":["12345"],"#
                + #""householdID":"enc:ImgtNDIi","maxRating":{"tv":"TV-14"},"userID":"alice"}}"#)
        #expect(try UserMetaCipher.decrypt(meta["data"]?["householdID"] ?? .null) == .string("h-42"))

        // A user whose metadata has its own userID keeps it.
        var c = Browser(MockPass(world: deviceWorld(), seed: 32))
        _ = try c.loginToken(user: "bob", password: "hunter2", mvpd: "Dish")
        let bob = c.post(
            spURL + "/sessionDevice", [("_method", "GET"), ("requestor_id", "REQ1"), ("device_id", "dev-1")])
        #expect(try SessionDeviceXML.parseUserMeta(bob.body)?["data"] == .dict([Value.Entry("userID", .string("b-7"))]))
    }
}
