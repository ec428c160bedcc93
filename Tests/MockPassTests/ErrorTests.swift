import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct ErrorTests {
    @Test func unknownHostsAndPathsAre404() {
        var m = MockPass(world: sampleWorld(), seed: 1)
        for url in ["https://elsewhere.test/config/REQ1", "ftp://sp.auth.test/config/REQ1", "garbage", ""] {
            let r = m.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart)
            #expect(r.status == 404)
            #expect(r.headers["Content-Type"]?.hasPrefix("text/plain") == true)
        }
        #expect(m.log.isEmpty)
        for url in [
            "https://sp.auth.test/", "https://sp.auth.test/authorizeDevices", "https://sp.auth.test/Config/REQ1",
            "https://comcast.idp.test/", "https://comcast.idp.test/sso/extra",
            "https://sp2.auth.test/config/REQ3",
        ] {
            #expect(m.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart).status == 404, "\(url)")
        }
        #expect(m.log.count == 5)
    }

    @Test func wrongMethodsAre405() {
        var m = MockPass(world: sampleWorld(), seed: 1)
        let cases: [(String, String, String)] = [
            ("POST", "https://sp.auth.test/config/REQ1", "GET"),
            ("POST", loginURL(), "GET"),
            ("GET", "https://sp.auth.test/sessionDevice", "POST"),
            ("DELETE", "https://sp.auth.test/logout?redirect_url=x", "GET"),
            ("GET", "https://sp.auth.test/sp/saml/SAMLAssertionConsumer", "POST"),
            ("GET", "https://sp.auth.test/sp/saml/LogoutServiceHTTPRedirectResponse", "POST"),
            ("GET", "https://comcast.idp.test/sso", "POST"),
            ("PUT", "https://comcast.idp.test/login", "POST"),
            ("get", "https://comcast.idp.test/slo", "POST"),
            ("GET", "https://comcast.idp.test/platform-sso", "POST"),
            ("GET", "https://sp.auth.test/authorizeDevice", "POST"),
            ("GET", "https://sp.auth.test/deviceShortAuthorize", "POST"),
            ("GET", "https://sp.auth.test/preauthorize", "POST"),
            ("GET", "https://sp.auth.test/getMetadataDevice", "POST"),
            ("GET", "https://sp.auth.test/authenticate/freepreview", "POST"),
            ("GET", "https://sp.auth.test/reggie/v1/REQ1/regcode", "POST"),
            ("POST", "https://sp.auth.test/api/v1/checkauthn/ABCDEFG", "GET"),
            ("POST", "https://sp.auth.test/api/v1/authenticate", "GET"),
            ("PUT", "https://sp.auth.test/api/v1/tokens/authn", "GET, POST"),
            ("POST", "https://sp.auth.test/api/v1/authorize", "GET"),
            ("GET", "https://sp.auth.test/o/client/register", "POST"),
            ("POST", "https://sp.auth.test/api/v1/logout", "DELETE"),
        ]
        for (method, url, allowed) in cases {
            let r = m.handle(HTTPRequest(method: method, url: url), at: .simulationStart)
            #expect(r.status == 405, "\(method) \(url)")
            #expect(r.headers["Allow"] == allowed)
            #expect(r.headers["Content-Type"]?.hasPrefix("text/plain") == true)
        }
    }

    @Test func malformedSAMLIs400() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 2))
        _ = b.get(loginURL())
        let endpoints = [
            "https://sp.auth.test/sp/saml/SAMLAssertionConsumer", "https://comcast.idp.test/sso",
            "https://comcast.idp.test/login", "https://comcast.idp.test/slo",
        ]
        let field = ["SAMLResponse", "SAMLRequest", "SAMLRequest", "SAMLRequest"]
        for (url, name) in zip(endpoints, field) {
            for bad in [
                "", "%%%not base64%%%", SAML.encodeForPost("not xml at all"),
                SAML.encodeForPost("<a>well-formed but not SAML</a>"),
            ] {
                let r = b.post(url, [(name, bad), ("RelayState", "r"), ("username", "alice"), ("password", "secret")])
                #expect(r.status == 400, "\(url) \(bad)")
                #expect(r.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            }
        }
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
    }

    /// A SAML message with a DOCTYPE declaring an external entity, used where the issuer is.
    func hostile(_ xml: String, entity: String, replacing value: String) -> String {
        var body = xml
        if body.hasPrefix("<?xml"), let end = body.firstRange(of: "?>") { body = String(body[end.upperBound...]) }
        body = body.replacing(">" + value + "<", with: ">&xxe;<")
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE root [\(entity)]>\n" + body
    }

    @Test func hostileXMLIsRefusedWithoutReadingFiles() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 3))
        let start = b.get(loginURL())
        let authn = try SAML.parseAuthnRequest(try decoded(try onlyForm(start).field("SAMLRequest")))
        let response = SAMLResponse(
            id: "_r", inResponseTo: authn.id, issueInstant: b.now, issuer: "https://comcast.idp.test",
            destination: authn.assertionConsumerServiceURL, success: true,
            assertion: Assertion(
                id: "_a", issueInstant: b.now, issuer: "https://comcast.idp.test", nameID: "n",
                sessionIndex: "s", notOnOrAfter: b.now + .minutes(5), audience: "https://sp.auth.test"))
        let entities = [
            "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">",
            "<!ENTITY xxe SYSTEM \"http://attacker.test/x\">",
            "<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY xxe \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">",
        ]
        for entity in entities {
            let xml = hostile(SAML.build(response), entity: entity, replacing: "https://comcast.idp.test")
            #expect(xml.contains("&xxe;"))
            let r = b.post(authn.assertionConsumerServiceURL, [("SAMLResponse", SAML.encodeForPost(xml))])
            #expect(r.status == 400)
            #expect(!r.bodyText.contains("root:"))
            #expect(r.body.count < 2000)

            let request = hostile(SAML.build(authn), entity: entity, replacing: "https://sp.auth.test")
            let sso = b.post("https://comcast.idp.test/sso", [("SAMLRequest", SAML.encodeForPost(request))])
            #expect(sso.status == 400)
            #expect(!sso.bodyText.contains("root:"))
        }
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
    }

    @Test func arbitraryInputNeverTraps() {
        var m = MockPass(world: sampleWorld(), seed: 4)
        var rng = SeededRandom(seed: 99)
        let bases = [
            "https://sp.auth.test", "https://comcast.idp.test", "https://sp2.auth.test/adobe-services", "https://x",
        ]
        let paths = [
            "/config/REQ1", "/authenticate/saml", "/sessionDevice", "/logout", "/sp/saml/SAMLAssertionConsumer",
            "/sp/saml/LogoutServiceHTTPRedirectResponse", "/sso", "/login", "/slo", "/", "",
        ]
        let methods = ["GET", "POST", "HEAD", ""]
        for _ in 0..<400 {
            let url =
                bases[Int(rng.next() % 4)] + paths[Int(rng.next() % UInt64(paths.count))] + "?"
                + rng.code(12, alphabet: "ab=&%+;?/")
            var headers: HTTPHeaders = [("Cookie", rng.code(10, alphabet: "JSESSIONID=; ab"))]
            if rng.next() % 2 == 0 { headers.add("Content-Type", "application/x-www-form-urlencoded") }
            let body = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let r = m.handle(
                HTTPRequest(method: methods[Int(rng.next() % 4)], url: url, headers: headers, body: body),
                at: .simulationStart)
            #expect([200, 302, 400, 404, 405].contains(r.status))
            #expect(r.headers["Content-Type"] != nil || r.status == 302)
        }
    }
}
