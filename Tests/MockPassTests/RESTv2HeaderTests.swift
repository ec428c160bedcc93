import PassModel
import PassXML
import Testing
@testable import MockPass

/// REST v2's headers (rest-api-v2.md 1.4) and bad input: each failure its own code, nothing kept.
@Suite struct RESTv2HeaderTests {
    @Test func eachBadDeviceHeaderAnswersItsOwnCodeAndKeepsNothing() throws {
        var c = try V2Client()
        let fields = [("mvpd", "Comcast"), ("domainName", "d"), ("redirectUrl", "https://a.test")]
        func with(_ name: String, _ value: String?) -> HTTPHeaders {
            var h = c.headers
            h.fields.removeAll { $0.name == name }
            if let value { h.add(name, value) }
            return h
        }
        let info = { (json: String) in with("X-Device-Info", base64(json)) }
        let cases: [(HTTPHeaders, String)] = [
            (with("AP-Device-Identifier", nil), "invalid_header_device_identifier"),
            (with("AP-Device-Identifier", "fingerprint"), "invalid_header_device_identifier"),
            (with("AP-Device-Identifier", "serial " + base64("x")), "invalid_header_device_identifier"),
            (with("AP-Device-Identifier", "fingerprint not*base64!"), "invalid_header_device_identifier"),
            (
                with("AP-Device-Identifier", "fingerprint " + String(repeating: "A", count: 64 * 1024)),
                "invalid_header_device_identifier"
            ),
            (with("X-Device-Info", nil), "invalid_header_device_info"),
            (with("X-Device-Info", "%%%"), "invalid_header_device_info"),
            (with("X-Device-Info", base64("[1,2]")), "invalid_header_device_info"),
            (with("X-Device-Info", base64("{not json")), "invalid_header_device_info"),
            (info(#"{"model":"m","version":"1","osName":"tvOS","osVersion":"1"}"#), "invalid_header_device_info"),
            (
                info(
                    #"{"model":"m","version":"1","osName":"tvOS","osVersion":"1","connectionType":"WiFi","primaryHardwareType":"Toaster"}"#
                ),
                "invalid_header_device_info"
            ),
            (
                info(#"{"model":"m","version":"1","osName":"BeOS","osVersion":"1","connectionType":"WiFi"}"#),
                "invalid_header_device_info"
            ),
            (
                info(
                    #"{"model":"m","version":"1","osName":"tvOS","osFamily":"Amiga","osVersion":"1","connectionType":"WiFi"}"#
                ),
                "invalid_header_device_info"
            ),
            (with("X-Device-Info", String(repeating: "e30", count: 22_000)), "invalid_header_device_info"),
        ]
        for (headers, code) in cases {
            let r = c.form("/sessions", fields, headers: headers)
            #expect(r.status == 400)
            #expect(errorCode(r) == code)
            let body = try json(r)
            // Adobe's keys, in its samples' order: `details` is the MVPD's alone; the mock's own reason
            // goes in a header.
            #expect(keys(body) == ["action", "status", "code", "message", "helpUrl", "trace"])
            #expect(body["action"] == .string("none"))
            #expect(r.headers.first(lowercased: "x-passim-explanation")?.isEmpty == false)
        }
        #expect(c.b.mock.v2.sessions.count == 0)
        // Every one of the 18 hardware types passes, in any case of osName.
        for type in V2Device.hardwareTypes.sorted() {
            let h = info(
                #"{"model":"m","version":"1","osName":"ANDROID","osVersion":"1","connectionType":"WiFi","primaryHardwareType":"\#(type)"}"#
            )
            #expect(c.form("/sessions", fields, headers: h).status == 200)
        }
        #expect(V2Device.hardwareTypes.count == 18)
    }

    @Test func theBearerMustBeALiveTokenOfTheProgrammersClient() throws {
        var c = try V2Client()
        var h = c.headers
        h.fields.removeAll { $0.name == "Authorization" }
        let bare = c.get("/configuration", headers: h)
        #expect(bare.status == 401)
        #expect(errorCode(bare) == "invalid_access_token_client_application")
        #expect(try json(bare)["action"] == .string("application-registration"))
        h.add("Authorization", "Bearer nope")
        #expect(errorCode(c.get("/configuration", headers: h)) == "invalid_access_token_client_application")
        c.requestor = "OTHER"
        let scoped = c.get("/configuration")
        #expect(scoped.status == 401)
        #expect(errorCode(scoped) == "invalid_access_token_service_provider")
        c.requestor = "REQ9"
        #expect(errorCode(c.get("/configuration")) == "invalid_parameter_service_provider")
        c.requestor = "V2"
        c.b.now = c.b.now + .hours(1)
        #expect(errorCode(c.get("/configuration")) == "invalid_access_token_client_application")
        // A programmer declared without a statement takes calls without a token (as the v1 families do).
        c.requestor = "REQ1"
        #expect(c.get("/configuration", headers: []).status == 200)
    }

    @Test func badParametersAndBodiesAnswerTheirCodesAndKeepNothing() throws {
        var c = try V2Client()
        #expect(errorCode(c.form("/sessions", [("mvpd", "Nobody")])) == "invalid_parameter_mvpd")
        #expect(errorCode(c.form("/sessions", [("redirectUrl", "not a url")])) == "invalid_parameter_redirect_url")
        #expect(errorCode(c.get("/sessions/ZZZZZZZ")) == "invalid_parameter_code")
        #expect(errorCode(c.form("/sessions/ZZZZZZZ", [])) == "invalid_parameter_code")
        #expect(errorCode(c.get("/profiles/code/ZZZZZZZ")) == "invalid_parameter_code")
        #expect(errorCode(c.b.get(v2Host + "/api/v2/authenticate/V2/ZZZZZZZ")) == "invalid_parameter_code")
        #expect(errorCode(c.get("/profiles/Nobody")) == "invalid_parameter_mvpd")
        #expect(errorCode(c.get("/logout/Nobody")) == "invalid_parameter_mvpd")
        _ = try c.login()
        for body in [
            "", "{", "[]", #"{"resources":"CNN"}"#, #"{"resources":[]}"#, #"{"resources":[1]}"#, #"{"resources":[""]}"#,
            #"{"resources":["<rss><channel></channel></rss>"]}"#, #"{"resources":["<rss"]}"#,
        ] {
            var h = c.headers
            h.add("Content-Type", "application/json")
            let r = c.b.send(
                HTTPRequest(
                    method: "POST", url: c.url("/decisions/authorize/Comcast"), headers: h, body: Array(body.utf8)),
                withCookies: false)
            #expect(r.status == 400)
            #expect(errorCode(r) == "invalid_parameter_resources")
        }
        let many = c.decisions("authorize", "Comcast", (0..<10_000).map { "R\($0)" })
        #expect(many.status == 403)
        #expect(errorCode(many) == "too_many_resources")
        #expect(try json(many)["action"] == .string("configuration"))
        // An expired code is named as such while the mock remembers it.
        let session = try json(c.form("/sessions", [("mvpd", "Dish")]))
        let code = try #require(session["code"]?.stringValue)
        c.b.now = c.b.now + .minutes(30)
        #expect(errorCode(c.get("/sessions/\(code)")) == "invalid_authentication_session")
        // An MVPD without an IdP has no login page.
        var w = v2World()
        w.identityProviders.removeAll { $0.mvpdID == "Dish" }
        var d = try V2Client(world: w)
        let s = try json(
            d.form("/sessions", [("mvpd", "Dish"), ("domainName", "d"), ("redirectUrl", "https://a.test")]))
        #expect(errorCode(d.b.get(v2Host + (s["url"]?.stringValue ?? ""))) == "invalid_integration")
    }

    @Test func unknownPathsAndWrongMethodsAreJSON4xx() throws {
        var c = try V2Client()
        let unknown = c.get("/nothing/here")
        #expect(unknown.status == 404)
        #expect(unknown.headers["Content-Type"] == "application/json")
        let wrong = c.form("/configuration", [])
        #expect(wrong.status == 405)
        #expect(wrong.headers["Allow"] == "GET")
        // The SP whose base URL has a path serves v2 at its origin's root too.
        c.b.mock = MockPass(world: v2World(), seed: 1)
        let alt = c.b.get("https://sp2.auth.test/api/v2/REQ3/configuration")
        #expect(alt.status == 200)
    }

    @Test func everyEnhancedCodeIsDataWithItsClassAndStatus() {
        let codes = V2ErrorCode.allCases
        #expect(codes.count == 47)
        #expect(Set(codes.map(\.rawValue)).count == 47)
        let byAction = Dictionary(grouping: codes, by: \.action).mapValues(\.count)
        #expect(
            byAction == [.none: 23, .configuration: 11, .applicationRegistration: 2, .authentication: 8, .retry: 3])
        #expect(codes.filter { $0.status == 401 } == [.accessTokenServiceProvider, .accessTokenClientApplication])
        #expect(codes.filter { $0.status == 500 }.count == 11)
        #expect(codes.allSatisfy { !$0.message.isEmpty })
    }
}

/// Hostile REST v2 input, generated from a seed: mangled paths, headers and bodies never trap, never
/// answer 5xx (no fault is declared in this world), and keep the mock serving a good call afterwards.
@Suite struct RESTv2HostileInputTests {
    @Test func seededMangledRequestsGetA4xxOrAnAnswerAndTheMockKeepsServing() throws {
        var c = try V2Client()
        _ = try c.login()
        var random = SeededRandom(seed: 2026)
        let paths = [
            "/sessions", "/sessions/ABCDEFG", "/profiles", "/profiles/Comcast", "/profiles/code/X", "/configuration",
            "/decisions/authorize/Comcast", "/decisions/preauthorize/TempPass", "/logout/Comcast",
            "/sessions/sso/Apple",
            "/profiles/sso/Apple", "//", "/decisions/authorize/", "/%00", "/profiles/sso/Apple/extra",
        ]
        let junk = [
            "", "=", "%%%", "\u{0}", "fingerprint", "fingerprint ====", "e30=", "W10=",
            String(repeating: "A", count: 9000),
            "{\"resources\":[", "{\"resources\":[null]}", "eyJhIjoiYiJ9", "Bearer", "Bearer " + c.token,
        ]
        let names = [
            "Authorization", "AP-Device-Identifier", "X-Device-Info", "AP-Partner-Framework-Status",
            "AP-TempPass-Identity",
            "X-Forwarded-For", "Content-Type",
        ]
        for _ in 0..<2000 {
            var h = c.headers
            for _ in 0..<Int(random.next() % 3) {
                let name = names[Int(random.next() % UInt64(names.count))]
                h.fields.removeAll { $0.name == name }
                h.add(name, junk[Int(random.next() % UInt64(junk.count))])
            }
            let path = paths[Int(random.next() % UInt64(paths.count))]
            let method = ["GET", "POST", "DELETE", "get"][Int(random.next() % 4)]
            let body = junk[Int(random.next() % UInt64(junk.count))]
            let r = c.b.send(
                HTTPRequest(method: method, url: c.url(path), headers: h, body: Array(body.utf8)), withCookies: false)
            #expect((200..<500).contains(r.status), "\(method) \(path): \(r.status) \(r.bodyText.prefix(200))")
            #expect(r.headers["Content-Type"] == "application/json")
        }
        // Still serving: the logged-in device's profile is intact (a mangled call that named a TempPass
        // MVPD well enough may have started its pass: a TempPass needs no session).
        let left = try json(c.get("/profiles"))["profiles"].map(keys) ?? []
        #expect(left.first == "Comcast")
        #expect(Set(left).isSubset(of: ["Comcast", "TempPass", "PromoPass"]))
    }
}

@Suite struct StrictBase64Tests {
    @Test func decodesBothAlphabetsWithOrWithoutPaddingAndRefusesTheRest() {
        #expect(StrictBase64.decode("ZmFzdGNoYW5uZWxz").map { String(decoding: $0, as: UTF8.self) } == "fastchannels")
        #expect(StrictBase64.decode("YQ==").map { String(decoding: $0, as: UTF8.self) } == "a")
        #expect(StrictBase64.decode("YQ").map { String(decoding: $0, as: UTF8.self) } == "a")
        #expect(StrictBase64.decode("YWI=").map { String(decoding: $0, as: UTF8.self) } == "ab")
        #expect(StrictBase64.decode("-_8") == [0xFB, 0xFF])
        #expect(StrictBase64.decode("+/8=") == [0xFB, 0xFF])
        for bad in ["Y", "YQ=", "YQ===", "Y=Q=", "YQ==YQ==", "a b", "é", "YQ==\n"] {
            #expect(StrictBase64.decode(bad) == nil, "\(bad)")
        }
        #expect(StrictBase64.jsonObject("W10=") == nil)
        #expect(StrictBase64.jsonObject("e30=") == .dict([]))
    }
}
