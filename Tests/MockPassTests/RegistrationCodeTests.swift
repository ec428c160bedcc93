import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct RegistrationCodeTests {
    struct Code {
        var code: String
        var json: Value
    }

    static func makeCode(
        _ b: inout Browser, requestor: String = "REQ1", device: String = "tv-1",
        mvpd: String? = nil
    ) throws -> Code {
        var fields = [("deviceId", device)]
        if let mvpd { fields.append(("mvpd", mvpd)) }
        let r = b.engine("/reggie/v1/\(requestor)/regcode", fields)
        guard r.status == 201 else { throw TestFailure("regcode: \(r.status) \(r.bodyText)") }
        #expect(r.headers["Content-Type"] == "application/json")
        let json = try Value(jsonText: r.bodyText)
        return Code(code: try #require(json["code"]?.stringValue), json: json)
    }

    static func secondScreenURL(_ code: String, requestor: String = "REQ1", mvpd: String = "Comcast") -> String {
        spURL + "/api/v1/authenticate?"
            + FormCoding.encode([
                ("requestor_id", requestor), ("mso_id", mvpd), ("reg_code", code), ("domain_name", "adobe.com"),
                ("noflash", "true"), ("no_iframe", "true"), ("redirect_url", "https://second.screen.test/done"),
            ])
    }

    func checkAuthn(_ b: inout Browser, _ code: String, requestor: String = "REQ1", device: String = "tv-1")
        -> HTTPResponse
    {
        b.engineGet("/api/v1/checkauthn/\(code)?requestor=\(requestor)&deviceId=\(device)")
    }

    @Test func aCodeIsSevenCharactersWithTheRequestorsTTL() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 51))
        let c = try Self.makeCode(&b)
        #expect(c.code.count == 7)
        #expect(c.code.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789".contains($0) })
        let start = Int(b.now.milliseconds)
        guard case .dict(let entries) = c.json else { Issue.record("not an object"); return }
        #expect(entries.map(\.key) == ["id", "code", "requestor", "mvpd", "generated", "expires", "info"])
        #expect(c.json["requestor"] == .string("REQ1"))
        // The JS SDK takes a code as usable only when `mvpd` is null and `info` is there.
        #expect(c.json["mvpd"] == .null)
        #expect(c.json["info"]?["deviceId"] == .string("tv-1"))
        #expect(c.json["generated"] == .int(start))
        #expect(c.json["expires"] == .int(start + 30 * 60_000))
        #expect(c.json["id"]?.stringValue?.count == 36)

        let other = try Self.makeCode(&b, requestor: "REQ2", mvpd: "Dish")
        #expect(other.code != c.code)
        #expect(other.json["mvpd"] == .string("Dish"))
        #expect(other.json["expires"] == .int(start + 5 * 60_000))

        for (path, fields, message) in [
            ("/reggie/v1/REQ1/regcode", [(String, String)](), "missing parameter deviceId"),
            ("/reggie/v1/NOPE/regcode", [("deviceId", "tv-1")], "unknown requestor NOPE"),
            (
                "/reggie/v1/REQ2/regcode", [("deviceId", "tv-1"), ("mvpd", "TempPassX")],
                "MVPD TempPassX is not offered to REQ2"
            ),
        ] {
            let r = b.engine(path, fields)
            #expect(r.status == 400)
            #expect(try errorBody(r).message == message)
        }
        #expect(b.engine("/reggie/v1//regcode", [("deviceId", "x")]).status == 404)
        #expect(b.engine("/reggie/v1/REQ1/regcode/x", [("deviceId", "x")]).status == 404)
    }

    @Test func checkAuthnIs404WhilePendingAnd410WhenExpiredOrUnknown() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 52))
        let c = try Self.makeCode(&b)
        let pending = checkAuthn(&b, c.code)
        #expect(pending.status == 404)
        #expect(try errorBody(pending) == ErrorBody(status: 404, message: "Not authenticated yet"))
        #expect(
            try errorBody(checkAuthn(&b, "ZZZZZZZ")) == ErrorBody(status: 410, message: "Unknown registration code"))
        #expect(checkAuthn(&b, c.code, device: "tv-2").status == 410)
        #expect(checkAuthn(&b, c.code, requestor: "REQ2").status == 410)
        #expect(b.engineGet("/api/v1/checkauthn/\(c.code)?requestor=REQ1").status == 400)
        b.now = b.now + .minutes(30)
        #expect(try errorBody(checkAuthn(&b, c.code)) == ErrorBody(status: 410, message: "Registration code expired"))
        // An expired code cannot be used on the second screen.
        let late = b.get(Self.secondScreenURL(c.code))
        #expect(late.status == 400)
        #expect(late.bodyText.contains("has expired"))
    }

    @Test func aSecondScreenLoginBindsTheUserToTheDevice() throws {
        var tv = Browser(MockPass(world: deviceWorld(), seed: 53))
        let c = try Self.makeCode(&tv)
        #expect(try tv.deviceSession(device: "tv-1").0 == .none)

        // The second screen is another browser on the same server.
        var phone = Browser(tv.mock)
        phone.now = tv.now + .minutes(2)
        let start = phone.get(Self.secondScreenURL(c.code))
        #expect(start.status == 200)
        #expect(start.headers["Set-Cookie"] != nil)
        let toIdP = try onlyForm(start)
        #expect(toIdP.action == "https://comcast.idp.test/sso")
        let login = phone.submit(try onlyForm(phone.submit(toIdP)), ["username": "alice", "password": "secret"])
        let done = phone.submit(try onlyForm(login))
        #expect(done.status == 302)
        #expect(done.headers["Location"] == "https://second.screen.test/done")

        tv.mock = phone.mock
        tv.now = phone.now + .seconds(10)
        let ok = checkAuthn(&tv, c.code)
        #expect(ok.status == 200)
        #expect(ok.headers["Content-Type"] == "application/xml")
        #expect(ok.bodyText == "<authentication><requestor>REQ1</requestor><mvpd>Comcast</mvpd></authentication>")
        let (content, meta) = try tv.deviceSession(device: "tv-1")
        guard case .token(let token) = content else { Issue.record("no token on the TV"); return }
        #expect(token.mvpdID == "Comcast")
        #expect(token.deviceID == "tv-1")
        #expect(token.requestorID == "REQ1")
        #expect(token.expires == phone.now + .hours(24))
        #expect(!token.nameID.isEmpty && !token.sessionIndex.isEmpty)
        #expect(meta?["data"]?["userID"] == .string("alice"))
        #expect(try tv.deviceToken(device: "tv-1") == token)
        #expect(try authzToken(tv.authorize(token, "CNN", device: "tv-1")).sessionGUID == token.guid)
        // Another requestor on the same TV has no session.
        #expect(try tv.deviceSession(device: "tv-1", requestor: "REQ2").0 == .none)

        // The code is used up, even before it expires; checkauthn keeps saying 200.
        let again = phone.get(Self.secondScreenURL(c.code))
        #expect(again.status == 400)
        #expect(again.bodyText.contains("already used"))
        tv.now = tv.now + .hours(1)
        #expect(checkAuthn(&tv, c.code).status == 200)
        // The TV session ends with its token.
        tv.now = token.expires
        #expect(try tv.deviceSession(device: "tv-1").0 == .none)
    }

    @Test func theCodeMustStillBeLiveWhenTheLoginCompletes() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 54))
        let c = try Self.makeCode(&b, requestor: "REQ2")
        let start = b.get(Self.secondScreenURL(c.code, requestor: "REQ2"))
        let login = b.submit(try onlyForm(b.submit(try onlyForm(start))), ["username": "alice", "password": "secret"])
        b.now = b.now + .minutes(5)
        let late = b.submit(try onlyForm(login))
        #expect(late.status == 400)
        #expect(late.bodyText.contains("has expired"))
        #expect(try b.deviceSession(device: "tv-1", requestor: "REQ2").0 == .none)
    }

    @Test func secondScreenRefusals() throws {
        var b = Browser(MockPass(world: deviceWorld(), seed: 55))
        let c = try Self.makeCode(&b)
        for url in [
            Self.secondScreenURL("ZZZZZZZ"), Self.secondScreenURL(c.code, requestor: "REQ2"),
            Self.secondScreenURL(c.code, mvpd: "Verizon"), Self.secondScreenURL(c.code, mvpd: "TempPass"),
            spURL + "/api/v1/authenticate?requestor_id=REQ1&mso_id=Comcast&redirect_url=x",
        ] {
            let r = b.get(url)
            #expect(r.status == 400, "\(url)")
            #expect(r.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(r.headers["Set-Cookie"] == nil)
        }
        #expect(checkAuthn(&b, c.code).status == 404)
    }
}
