import PassModel
import Testing
@testable import MockPass

/// The key sets of Adobe's decisions and error samples, which a scenario cannot pin (it matches the
/// fields it names, not those that must be absent): what each decision and error carries, and not.
@Suite struct RESTv2DocumentedShapesTests {
    @Test func anMVPDsDenyCarriesItsMessageAndValidityAPreauthorizationNeither() throws {
        var c = try V2Client()
        _ = try c.login()
        let authorized = try json(c.decisions("authorize", "Comcast", ["CNN", "ESPN"]))
        let list = try #require(authorized["decisions"]?.listValue)
        #expect(
            keys(list[0]) == [
                "resource", "serviceProvider", "mvpd", "source", "authorized", "token", "notBefore", "notAfter",
            ])
        #expect(
            keys(list[1]) == [
                "resource", "serviceProvider", "mvpd", "source", "authorized", "error", "notBefore", "notAfter",
            ])
        #expect(keys(list[1]["error"]) == ["action", "status", "code", "message", "details", "helpUrl", "trace"])
        #expect(list[1]["error"]?["details"] == .string("Upgrade your package"))

        let preauthorized = try json(c.decisions("preauthorize", "Comcast", ["CNN", "ESPN"]))
        let pre = try #require(preauthorized["decisions"]?.listValue)
        #expect(keys(pre[0]) == ["resource", "serviceProvider", "mvpd", "source", "authorized"])
        #expect(keys(pre[1]) == ["resource", "serviceProvider", "mvpd", "source", "authorized", "error"])
        #expect(keys(pre[1]["error"]) == ["action", "status", "code", "message", "helpUrl", "trace"])
    }

    @Test func theMocksOwnRefusalsExplainThemselvesInAHeaderNotTheBody() throws {
        var c = try V2Client()
        let missing = try json(c.decisions("authorize", "Comcast", ["CNN"]))
        let decision = try #require(missing["decisions"]?.listValue?.first)
        #expect(keys(decision) == ["resource", "serviceProvider", "mvpd", "source", "authorized", "error"])
        #expect(keys(decision["error"]) == ["action", "status", "code", "message", "helpUrl", "trace"])
        let refused = c.get("/profiles/Nowhere")
        #expect(refused.status == 400)
        #expect(keys(try json(refused)) == ["action", "status", "code", "message", "helpUrl", "trace"])
        #expect(refused.headers.first(lowercased: "x-passim-explanation")?.contains("Nowhere") == true)
    }

    @Test func anExplanationCannotSplitItsHeader() {
        #expect("unknown MVPD a\r\nSet-Cookie: x=1".headerSafe() == "unknown MVPD a  Set-Cookie: x=1")
        #expect(String(repeating: "é", count: 600).headerSafe().count == 512)
    }

    @Test func anAuthorizeAllDegradationPermitsWithoutAProfileOrAValidityOfItsOwn() throws {
        var world = v2World()
        world.restV2.degradations = [.init(mvpdID: "Comcast", rule: .authorizeAll)]
        var c = try V2Client(world: world)
        let answer = try json(c.decisions("authorize", "Comcast", ["ESPN"]))
        let decision = try #require(answer["decisions"]?.listValue?.first)
        #expect(decision["source"] == .string("degradation"))
        #expect(keys(decision) == ["resource", "serviceProvider", "mvpd", "source", "authorized", "token"])
    }

    @Test func aTempPassProfileIsStartedByItsFirstAskAndKeepsItsUserID() throws {
        var c = try V2Client()
        let first = try json(c.get("/profiles/TempPass"))
        let profile = try #require(first["profiles"]?["TempPass"])
        #expect(keys(profile) == ["notBefore", "notAfter", "issuer", "type", "attributes"])
        #expect(keys(profile["attributes"]) == ["expiration_date", "userID"])
        let again = try json(c.get("/profiles/TempPass"))
        #expect(again["profiles"]?["TempPass"] == profile)
        c.b.now = c.b.now + .minutes(10)
        #expect(errorCode(c.get("/profiles/TempPass")) == "temporary_access_duration_limit_exceeded")
    }
}

/// Logouts as Adobe's logout page writes them.
@Suite struct RESTv2LogoutTests {
    @Test func aLogoutOpenedInTheBrowserThatLoggedInEndsTheLoginAtTheIdP() throws {
        var c = try V2Client()
        _ = try c.login()
        let answer = try json(c.get("/logout/Comcast?redirectUrl=https%3A%2F%2Fapp.test%2Fout"))
        let url = try #require(answer["logouts"]?["Comcast"]?["url"]?.stringValue)
        #expect(
            url == "https://sp.auth.test/logout?noflash=true&mso_id=Comcast&requestor_id=V2"
                + "&redirect_url=https%3A%2F%2Fapp.test%2Fout")
        // The browser that logged in carries the SP's cookie: the logout goes on to the IdP.
        let page = c.b.get(url)
        #expect(page.status == 200, "\(page.status) \(page.headers["Location"] ?? "")")
        // Another browser has nothing to end: it is sent to the redirect at once.
        var other = Browser(c.b.mock)
        other.now = c.b.now
        #expect(other.get(url).headers["Location"] == "https://app.test/out")
    }

    @Test func aSingleLogoutWithAServiceTokenNamesTheDeviceAndEndsTheLoginAtTheIdP() throws {
        var world = v2World()
        world.restV2.serviceTokenIssuers = ["passim-dtc"]
        var c = try V2Client(world: world)
        let claims = base64(#"{"iss":"passim-dtc","sub":"user-42","aud":"Adobe"}"#)
        c.extraHeaders = [("AD-Service-Token", base64(#"{"alg":"RS256"}"#) + "." + claims + ".c2ln")]
        _ = try c.login()
        let answer = try json(c.get("/logout/Comcast?redirectUrl=https%3A%2F%2Fapp.test%2Fout"))
        let url = try #require(answer["logouts"]?["Comcast"]?["url"]?.stringValue)
        #expect(url.hasPrefix("/logout?requestor_id=V2&mso_id=Comcast&pt_device_id="))
        // Any browser may open it: the device it names ends its login at the IdP, then the redirect.
        var other = Browser(c.b.mock)
        other.now = c.b.now
        let page = other.get(v2Host + url)
        #expect(page.status == 200)
        #expect(try json(c.get("/profiles"))["profiles"] == .dict([]))
        // Used once: opened again, it only reaches nothing to end.
        #expect(other.get(v2Host + url).status == 400)
    }

    @Test func aLogoutNeedsARedirectAndValuesHaveABound() throws {
        var c = try V2Client()
        _ = c.form("/sessions", [("mvpd", "TempPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")])
        #expect(errorCode(c.get("/logout/TempPass")) == "invalid_parameter_redirect_url")
        let long = "https://a.test/" + String(repeating: "x", count: 2100)
        #expect(errorCode(c.get("/logout/TempPass?redirectUrl=" + long)) == "invalid_parameter_redirect_url")
        // Both refused before anything ended: the TempPass's profile is still there.
        #expect(try json(c.get("/profiles"))["profiles"].map(keys) == ["TempPass"])
        let domain = String(repeating: "d", count: 2100)
        let session = try json(c.form("/sessions", [("mvpd", "Comcast"), ("domainName", domain)]))
        #expect(session["missingParameters"] == .list([.string("domainName"), .string("redirectUrl")]))
        #expect(
            errorCode(c.form("/sessions", [("mvpd", "Comcast"), ("redirectUrl", long)]))
                == "invalid_parameter_redirect_url")
    }
}
