import PassModel
import PassXML
import Testing
@testable import MockPass

/// Issue 44: what REST v2 and its OAuth2 IdP keep is bounded (each value by `mock-v2-value-bytes`,
/// each store by `mock-store-bytes`, a TempPass's resources per use), a resume only fills what a
/// session lacks, and a user agent is only ever sent back to a web or app URL.
@Suite struct RESTv2ValueLimitTests {
    /// An X-Device-Info whose Base64 is about `bytes` long (a long `model`).
    static func deviceInfo(bytes: Int) -> String {
        let json = { (model: String) in
            #"{"model":"\#(model)","version":"1","osName":"tvOS","osVersion":"1","connectionType":"WiFi"}"#
        }
        let fixed = json("").utf8.count
        return base64(json(String(repeating: "m", count: max(bytes * 3 / 4 - fixed, 1))))
    }

    @Test func everyKeptHeaderIsHeldToTheValueLimitAndNothingIsKept() throws {
        var c = try V2Client()
        let fields = [("mvpd", "Comcast"), ("domainName", "d"), ("redirectUrl", "https://a.test")]
        func with(_ name: String, _ value: String) -> HTTPHeaders {
            var h = c.headers
            h.fields.removeAll { $0.name == name }
            h.add(name, value)
            return h
        }
        // Within the old 8 KB header limit, over the 2 KB value limit.
        let cases: [(HTTPHeaders, String)] = [
            (
                with("AP-Device-Identifier", "fingerprint " + String(repeating: "A", count: 4000)),
                "invalid_header_device_identifier"
            ),
            (with("X-Device-Info", RESTv2ValueLimitTests.deviceInfo(bytes: 4000)), "invalid_header_device_info"),
        ]
        for (headers, code) in cases {
            let r = c.form("/sessions", fields, headers: headers)
            #expect(r.status == 400)
            #expect(errorCode(r) == code)
            #expect(r.headers.first(lowercased: "x-passim-explanation")?.contains("mock-v2-value-bytes") == true)
        }
        #expect(c.b.mock.v2.sessions.count == 0)
        // A promotional TempPass's identity is its use's key.
        let identity = base64(#"{"email":""# + String(repeating: "e", count: 3000) + #""}"#)
        let promo = c.form(
            "/sessions", [("mvpd", "PromoPass")], headers: with("AP-TempPass-Identity", identity))
        #expect(errorCode(promo) == "invalid_header_identity_for_temporary_access")
        #expect(c.b.mock.v2.tempPassUses.count == 0)
        // Just under the limit is taken; a User-Agent, which no code names, is cut to it.
        var h = with("X-Device-Info", RESTv2ValueLimitTests.deviceInfo(bytes: 2000))
        h.add("User-Agent", String(repeating: "u", count: 8000))
        let session = try json(c.form("/sessions", fields, headers: h))
        let code = try #require(session["code"]?.stringValue)
        let kept = try #require(c.b.mock.v2.sessions.value(code, at: c.b.now))
        #expect(kept.deviceInfo["userAgent"]?.stringValue?.utf8.count == V2Limits.valueBytes)
        // No code names a domain: a longer one is not given, and not kept.
        let domain = String(repeating: "d", count: V2Limits.valueBytes + 1)
        let missing = try json(c.form("/sessions", [("domainName", domain), ("redirectUrl", "https://a.test")]))
        #expect(missing["missingParameters"] == .list([.string("mvpd"), .string("domainName")]))
        // Nor an MVPD: no MVPD has such an id.
        let mvpd = c.form("/sessions", [("mvpd", String(repeating: "m", count: 900_000))])
        #expect(errorCode(mvpd) == "invalid_parameter_mvpd")
    }

    @Test func everyV2StoreIsBoundedInBytes() throws {
        let limits = MockLimits(storeBytes: 64 << 10)
        var c = V2Client(MockPass(world: v2World(), seed: 26, limits: limits))
        c.token = try c.b.accessToken(statement: "statement-v2")
        let long = String(repeating: "x", count: 1900)
        var h = c.headers
        h.fields.removeAll { $0.name == "X-Device-Info" }
        h.add("X-Device-Info", RESTv2ValueLimitTests.deviceInfo(bytes: 2000))
        for i in 0..<50 {
            var each = h
            each.fields.removeAll { $0.name == "AP-Device-Identifier" }
            each.add("AP-Device-Identifier", "fingerprint " + base64(String(i) + long.prefix(1400)))
            let r = c.form(
                "/sessions", [("domainName", "d" + long), ("redirectUrl", "https://app.test/" + long)], headers: each)
            #expect(r.status == 200)
        }
        #expect(c.b.mock.v2.sessions.bytes <= 64 << 10)
        #expect(c.b.mock.v2.sessions.count < 50)
        #expect(c.b.mock.v2.sessions.count > 1)
    }

    @Test func aResumeFillsOnlyWhatTheSessionLacks() throws {
        var c = try V2Client()
        let created = try json(
            c.form("/sessions", [("domainName", "passim.test"), ("redirectUrl", "https://app.test/a")]))
        let code = try #require(created["code"]?.stringValue)
        // Someone else holding the code cannot send the user agent elsewhere, nor change the domain.
        let redirect = c.form("/sessions/\(code)", [("redirectUrl", "https://evil.test/")])
        #expect(redirect.status == 400)
        #expect(errorCode(redirect) == "invalid_parameter_redirect_url")
        let domain = c.form("/sessions/\(code)", [("domainName", "evil.test")])
        #expect(errorCode(domain) == "invalid_authentication_session")
        // What it lacks is filled; the same values again are no conflict.
        let filled = try json(
            c.form(
                "/sessions/\(code)",
                [("mvpd", "Comcast"), ("domainName", "passim.test"), ("redirectUrl", "https://app.test/a")]))
        #expect(filled["actionName"] == .string("authenticate"))
        let mvpd = c.form("/sessions/\(code)", [("mvpd", "Dish")])
        #expect(errorCode(mvpd) == "invalid_parameter_mvpd")
        let status = try json(c.get("/sessions/\(code)"))["existingParameters"]
        #expect(status?["mvpd"] == .string("Comcast"))
        #expect(status?["domainName"] == .string("passim.test"))
        #expect(status?["redirectUrl"] == .string("https://app.test/a"))
    }

    @Test func aTempPassWithoutAResourceLimitKeepsNoResources() throws {
        var c = try V2Client()
        for i in 0..<30 {
            let r = try json(c.decisions("authorize", "TempPass", ["resource-\(i)"]))
            #expect(r["decisions"]?.listValue?.first?["authorized"] == .bool(true))
        }
        let key = V2TempPassKey(deviceID: c.device, mvpdID: "TempPass", identity: nil)
        let use = try #require(c.b.mock.v2.tempPassUses.value(key, at: c.b.now))
        #expect(use.resources.isEmpty)
    }

    @Test func aTempPassRemembersItsResourcesInBoundsAndForgetsThemWhenItEnds() throws {
        var w = v2World()
        w.restV2.tempPassResourceLimits = [.init(mvpdID: "TempPass", resources: 1_000_000)]
        var c = try V2Client(world: w)
        let each = MockLimits.valueBytes
        let fit = V2Limits.tempPassResourceBytes / each
        let names = (0..<(fit + 6)).map { String($0) + String(repeating: "r", count: each - String($0).utf8.count) }
        let decisions = try #require(try json(c.decisions("authorize", "TempPass", names))["decisions"]?.listValue)
        #expect(decisions.prefix(fit).allSatisfy { $0["authorized"] == .bool(true) })
        #expect(
            decisions.dropFirst(fit).allSatisfy {
                $0["error"]?["code"] == .string("temporary_access_resources_limit_exceeded")
            })
        let key = V2TempPassKey(deviceID: c.device, mvpdID: "TempPass", identity: nil)
        #expect(c.b.mock.v2.tempPassUses.value(key, at: c.b.now)?.resources.count == fit)
        // Each resource once: the first again is still permitted and not counted twice.
        let again = try json(c.decisions("authorize", "TempPass", [names[0]]))["decisions"]?.listValue?.first
        #expect(again?["authorized"] == .bool(true))
        #expect(c.b.mock.v2.tempPassUses.value(key, at: c.b.now)?.resources.count == fit)
        // Past the pass's end the use stays ended, and what it authorized is forgotten.
        c.b.now = c.b.now + .minutes(11)
        #expect(errorCode(c.decisions("authorize", "TempPass", ["late"])) == "temporary_access_duration_limit_exceeded")
        let ended = try #require(c.b.mock.v2.tempPassUses.value(key, at: c.b.now))
        #expect(ended.resources.isEmpty)
        #expect(ended.resourceBytes == 0)
    }

    @Test func aRedirectIsAWebOrAppURL() throws {
        var c = try V2Client()
        let refused = [
            "javascript:alert(1)", "JavaScript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox", "file:///etc/passwd", "about:blank", "blob:https://a.test/1", "https:no-host",
            "1app://x",
        ]
        for url in refused {
            let r = c.form("/sessions", [("mvpd", "Comcast"), ("domainName", "d"), ("redirectUrl", url)])
            #expect(r.status == 400, "\(url)")
            #expect(errorCode(r) == "invalid_parameter_redirect_url", "\(url)")
            #expect(
                errorCode(c.get("/logout/Comcast?" + FormCoding.encode([("redirectUrl", url)])))
                    == "invalid_parameter_redirect_url", "\(url)")
        }
        #expect(c.b.mock.v2.sessions.count == 0)
        for url in ["https://app.test/done", "http://localhost:8080/cb", "passimtv://done", "com.example.app:/cb"] {
            let r = c.form("/sessions", [("mvpd", "Comcast"), ("domainName", "d"), ("redirectUrl", url)])
            #expect(r.status == 200, "\(url)")
        }
    }

    @Test func theOAuth2IdPServesOnlyItsRegisteredClientWithinTheValueLimit() throws {
        var w = v2World()
        w.restV2.oauth2MVPDs = ["Dish"]
        var b = Browser(MockPass(world: w, seed: 26))
        let idp = "https://dish.idp.test"
        func authorize(_ client: String, _ redirect: String, state: String = "s") -> [(String, String)] {
            [
                ("response_type", "code"), ("client_id", client), ("redirect_uri", redirect), ("state", state),
                ("code_challenge", String(repeating: "c", count: 43)), ("code_challenge_method", "S256"),
            ]
        }
        let client = "https://sp.auth.test", callback = "https://sp.auth.test/api/v2/oauth2/callback"
        #expect(b.get(idp + "/oauth2/authorize?" + FormCoding.encode(authorize(client, callback))).status == 200)
        for (id, uri) in [
            ("https://evil.test", "https://evil.test/cb"), (client, "https://evil.test/cb"),
            ("https://evil.test", callback), (client, callback + String(repeating: "x", count: 900_000)),
        ] {
            let page = b.get(idp + "/oauth2/authorize?" + FormCoding.encode(authorize(id, uri)))
            #expect(page.status == 400)
            let login = b.post(
                idp + "/oauth2/login", authorize(id, uri) + [("username", "bob"), ("password", "hunter2")])
            #expect(login.status == 400)
            #expect(login.headers["Location"] == nil)
        }
        let bigState = b.post(
            idp + "/oauth2/login",
            authorize(client, callback, state: String(repeating: "s", count: 900_000))
                + [("username", "bob"), ("password", "hunter2")])
        #expect(bigState.status == 400)
        #expect(bigState.bodyText.contains("mock-v2-value-bytes"))
        #expect(b.mock.idps.oauthCodes.count == 0)
        // The logout sends the user agent back only to a registered client's callback
        // (docs/CONFORMANCE.md, choice 96): never to a page of the request's choosing.
        for (id, uri) in [
            (client, "javascript:alert(1)"), (client, "https://app.test/bye"), (client, callback + "/x"),
            ("https://evil.test", "https://evil.test/cb"), ("", callback), ("https://evil.test", callback),
        ] {
            let out = b.get(
                idp + "/oauth2/logout?"
                    + FormCoding.encode([("client_id", id), ("redirect_uri", uri), ("state", "s1")]))
            #expect(out.status == 400, "\(id) \(uri)")
            #expect(out.headers["Location"] == nil)
        }
        let back = b.get(
            idp + "/oauth2/logout?"
                + FormCoding.encode([
                    ("client_id", client), ("redirect_uri", callback), ("state", "s1"),
                ]))
        #expect(back.status == 302)
        #expect(back.headers["Location"] == callback + "?state=s1")
    }

    /// A logout's way back: the IdP returns the user agent to the SP's callback with the logout's
    /// state, and only then does the SP send it to the app's redirectUrl, once; a state it did not
    /// give out goes nowhere.
    @Test func anOAuth2LogoutReturnsThroughTheSPsCallbackOnly() throws {
        var w = v2World()
        w.restV2.oauth2MVPDs = ["Dish"]
        w.users.append(World.User(name: "bob", password: "hunter2", mvpdID: "Dish"))
        var c = try V2Client(world: w)
        let session = try json(
            c.form(
                "/sessions",
                [("mvpd", "Dish"), ("domainName", "passim.test"), ("redirectUrl", "https://app.test/done")]))
        let hop = c.b.get(v2Host + (session["url"]?.stringValue ?? ""))
        let form = try onlyForm(c.b.get(try #require(hop.headers["Location"])))
        let back = c.b.submit(form, ["username": "bob", "password": "hunter2"])
        #expect(c.b.get(try #require(back.headers["Location"])).headers["Location"] == "https://app.test/done")
        let out = try json(c.get("/logout/Dish?redirectUrl=https%3A%2F%2Fapp.test%2Fbye"))["logouts"]?["Dish"]
        let url = try #require(out?["url"]?.stringValue)
        let query = try #require(URLParts(url)?.query)
        #expect(query.first { $0.0 == "redirect_uri" }?.1 == "https://sp.auth.test/api/v2/oauth2/callback")
        #expect(query.first { $0.0 == "client_id" }?.1 == "https://sp.auth.test")
        #expect(!url.contains("app.test"), "the app's URL never goes to the IdP")
        let atIdP = c.b.get(url)
        #expect(atIdP.status == 302)
        let callback = try #require(atIdP.headers["Location"])
        #expect(callback.hasPrefix("https://sp.auth.test/api/v2/oauth2/callback?state=logout-"))
        #expect(c.b.get(callback).headers["Location"] == "https://app.test/bye")
        // Once: a replay, or a state the SP never gave, is refused on the browser's page.
        #expect(errorCode(c.b.get(callback)) == "invalid_authentication_session")
        #expect(
            errorCode(c.b.get(v2Host + "/api/v2/oauth2/callback?state=logout-0000")) == "invalid_authentication_session"
        )
    }

    /// Docs/CONFORMANCE.md, choice 93: JSON that is not UTF-8 is refused, not read as U+FFFD.
    @Test func jsonThatIsNotUTF8IsRefusedNotReplaced() throws {
        var c = try V2Client()
        let info =
            Array(#"{"model":"M"#.utf8) + [0xFF, 0xFE]
            + Array(#"","version":"1","osName":"tvOS","osVersion":"1","connectionType":"WiFi"}"#.utf8)
        var h = c.headers
        h.fields.removeAll { $0.name == "X-Device-Info" }
        h.add("X-Device-Info", ClientlessSignature.base64(info))
        let r = c.form("/sessions", [("mvpd", "Comcast")], headers: h)
        #expect(errorCode(r) == "invalid_header_device_info")
        #expect(c.b.mock.v2.sessions.count == 0)
        var j = c.headers
        j.add("Content-Type", "application/json")
        let body = Array(#"{"resources":["a"#.utf8) + [0xC3, 0x28] + Array(#""]}"#.utf8)
        let d = c.b.send(
            HTTPRequest(method: "POST", url: c.url("/decisions/authorize/TempPass"), headers: j, body: body),
            withCookies: false)
        #expect(d.status == 400)
        #expect(errorCode(d) == "invalid_parameter_resources")
        // A form value is percent-decoded as browsers do: a byte that is not UTF-8 is U+FFFD.
        let session = try json(c.form("/sessions", [("domainName", "d")]))
        let code = try #require(session["code"]?.stringValue)
        var raw = c.headers
        raw.add("Content-Type", "application/x-www-form-urlencoded")
        _ = c.b.send(
            HTTPRequest(
                method: "POST", url: c.url("/sessions/\(code)"), headers: raw,
                body: Array("redirectUrl=https%3A%2F%2Fapp.test%2F%FF".utf8)),
            withCookies: false)
        let status = try json(c.get("/sessions/\(code)"))
        #expect(status["existingParameters"]?["redirectUrl"] == .string("https://app.test/\u{FFFD}"))
    }
}
