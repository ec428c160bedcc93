import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct TempPassTests {
    @Test func basicTempPassRunsOutAfterItsTTL() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 41))
        let start = b.now
        #expect(try b.deviceSession().0 == .none)
        let first = b.freePreview()
        #expect(first.status == 204)
        #expect(first.body.isEmpty)
        let (content, meta) = try b.deviceSession()
        guard case .token(let token) = content else { Issue.record("no TempPass token"); return }
        #expect(meta == nil)
        #expect(token.mvpdID == "TempPass")
        #expect(token.requestorID == "REQ1")
        #expect(token.deviceID == "dev-1")
        #expect(token.expires == start + .minutes(10))
        #expect(token.nameID == "" && token.sessionIndex == "")

        // Used again before it ends: same expiry, same token.
        b.now = start + .minutes(4)
        #expect(b.freePreview().status == 204)
        #expect(try b.deviceToken() == token)

        // A TempPass token authorizes everything, until the TempPass ends.
        let authz = try authzToken(b.authorize(token, "HBO"))
        #expect(authz.expires == token.expires)
        #expect(authz.mvpdID == "TempPass")
        #expect(b.mediaToken(authz).status == 200)
        #expect(try PreauthorizeXML.parse(b.preauthorize(token, ["HBO", "X"]).body).map(\.authorized) == [true, true])

        b.now = start + .minutes(10)
        let expired = b.freePreview()
        #expect(expired.status == 403)
        #expect(try errorBody(expired) == ErrorBody(status: 403, message: "TempPass expired", details: ""))
        #expect(try b.deviceSession().0 == .none)
        #expect(b.authorize(token, "HBO").status == 401)
        #expect(b.mediaToken(authz).status == 403)
        // Still used up later.
        b.now = b.now + .hours(48)
        #expect(b.freePreview().status == 403)
    }

    @Test func eachDeviceHasItsOwnTempPass() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 42))
        #expect(b.freePreview(device: "dev-1").status == 204)
        b.now = b.now + .minutes(8)
        #expect(b.freePreview(device: "dev-2").status == 204)
        #expect(try b.deviceToken(device: "dev-2").expires == b.now + .minutes(10))
        b.now = b.now + .minutes(2)
        #expect(b.freePreview(device: "dev-1").status == 403)
        #expect(b.freePreview(device: "dev-2").status == 204)
        #expect(try b.deviceSession(device: "dev-1").0 == .none)
    }

    @Test func promotionalTempPassIsKeyedOnTheEmail() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 43))
        let start = b.now
        for (data, message) in [
            (nil, "a promotional TempPass needs generic_data with an email"),
            ("{\"email\": 1.5}", "malformed generic_data: number at offset 10: only integers are supported"),
            ("{\"name\": \"x\"}", "generic_data has no email"),
            ("{\"email\": \"\"}", "generic_data has no email"),
        ] as [(String?, String)] {
            let r = b.freePreview("Promo", genericData: data)
            #expect(r.status == 400)
            #expect(try errorBody(r).message == message)
        }
        #expect(b.freePreview("Promo", genericData: #"{"email":"a@example.com"}"#).status == 204)
        let a = try b.deviceToken()
        #expect(a.mvpdID == "Promo")
        #expect(a.expires == start + .minutes(30))
        b.now = start + .minutes(20)
        #expect(b.freePreview("Promo", genericData: #"{"email":"b@example.com"}"#).status == 204)
        let second = try b.deviceToken()
        #expect(second.expires == b.now + .minutes(30))
        #expect(second.guid != a.guid)
        b.now = start + .minutes(30)
        #expect(
            try errorBody(b.freePreview("Promo", genericData: #"{"email":"a@example.com"}"#)).message
                == "TempPass expired")
        #expect(b.freePreview("Promo", genericData: #"{"email":"b@example.com"}"#).status == 204)
        // The basic TempPass is separate.
        #expect(b.freePreview().status == 204)
    }

    @Test func onlyOfferedTempPassesAreAccepted() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 44))
        let cases: [(String, String, String)] = [
            ("Comcast", "REQ1", "MVPD Comcast is not a TempPass offered to REQ1"),
            ("TempPass", "REQ2", "MVPD TempPass is not a TempPass offered to REQ2"),
            ("TempPass", "REQ3", "unknown requestor REQ3"),
            ("Nope", "REQ1", "MVPD Nope is not a TempPass offered to REQ1"),
        ]
        for (mvpd, requestor, message) in cases {
            let r = b.freePreview(mvpd, requestor: requestor)
            #expect(r.status == 400)
            #expect(try errorBody(r).message == message)
        }
        #expect(
            b.engine("/authenticate/freepreview", [("requestor_id", "REQ1"), ("mso_id", "TempPass")]).status == 400)
        #expect(try b.deviceSession().0 == .none)
        // A TempPass has no IdP: the browser login is refused.
        #expect(b.get(loginURL(mvpd: "TempPass")).status == 400)
    }

    @Test func restLogoutKeepsTheTempPassUsage() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 45))
        let start = b.now
        #expect(b.freePreview().status == 204)
        let before = try b.deviceToken()
        b.now = start + .minutes(3)
        #expect(b.engineDelete("/api/v1/logout?requestor=REQ1&deviceId=dev-1").status == 204)
        #expect(try b.deviceSession().0 == .none)
        #expect(b.freePreview().status == 204)
        let after = try b.deviceToken()
        #expect(after.expires == before.expires)
        #expect(after.guid != before.guid)
    }
}
