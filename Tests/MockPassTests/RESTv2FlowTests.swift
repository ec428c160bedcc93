import Foundation
import PassModel
import PassXML
import Testing
@testable import MockPass

/// REST API v2's operations, stateful, as Adobe's flows use them (rest-api-v2.md 1.3, 1.5).
@Suite struct RESTv2FlowTests {
    @Test func configurationListsTheProgrammersMVPDsInTheSPsOrder() throws {
        var c = try V2Client()
        let r = c.get("/configuration")
        #expect(r.status == 200)
        let body = try json(r)
        #expect(keys(body) == ["device", "clientType", "os", "requestor"])
        #expect(body["requestor"]?["id"] == .string("V2"))
        let mvpds = try #require(body["requestor"]?["mvpds"]?.listValue)
        #expect(mvpds.compactMap { $0["id"]?.stringValue } == ["Comcast", "Dish", "TempPass", "PromoPass"])
        #expect(mvpds[0]["platformMappingId"] == .string("comcast-apple-id"))
        #expect(mvpds[0]["boardingStatus"] == .string("SUPPORTED"))
        #expect(mvpds[2]["isTempPass"] == .bool(true))
        #expect(mvpds[1]["isTempPass"] == nil)
    }

    @Test func aSessionMissingParametersIsResumedThenLoggedInThroughTheUserAgent() throws {
        var c = try V2Client()
        let created = try json(c.form("/sessions", [("domainName", "passim.test")]))
        #expect(created["actionName"] == .string("resume"))
        #expect(created["actionType"] == .string("direct"))
        #expect(created["missingParameters"] == .list([.string("mvpd"), .string("redirectUrl")]))
        let code = try #require(created["code"]?.stringValue)
        #expect(code.count == 7)
        let notBefore = try #require(created["notBefore"]?.stringValue)
        let notAfter = try #require(created["notAfter"]?.stringValue)
        #expect(Int64(notAfter)! - Int64(notBefore)! == 30 * 60_000)

        let retry = try json(c.form("/sessions/\(code)", [("mvpd", "Comcast")]))
        #expect(retry["actionName"] == .string("retry"))
        #expect(retry["missingParameters"] == .list([.string("redirectUrl")]))
        // The user agent cannot start while a parameter is missing.
        #expect(errorCode(c.b.get(v2Host + "/api/v2/authenticate/V2/\(code)")) == "invalid_authentication_session")

        let status = try json(c.get("/sessions/\(code)"))
        #expect(keys(status["existingParameters"]) == ["mvpd", "domainName", "serviceProvider"])
        #expect(status["device"]?["type"] == .string("SetTopBox"))
        #expect(
            status["device"]?["operatingSystem"]?["version"]
                == .dict([
                    Value.Entry("major", .int(17)), Value.Entry("minor", .int(4)), Value.Entry("patch", .int(0)),
                    Value.Entry("profile", .string("")),
                ]))

        let ready = try json(c.form("/sessions/\(code)", [("redirectUrl", "https://app.test/done")]))
        #expect(ready["actionName"] == .string("authenticate"))
        #expect(ready["actionType"] == .string("interactive"))
        #expect(ready["url"] == .string("/api/v2/authenticate/V2/\(code)"))
        #expect(try json(c.get("/profiles/code/\(code)"))["profiles"] == .dict([]))

        // The second screen: a browser with no client credentials opens the URL.
        var screen = Browser(c.b.mock)
        screen.now = c.b.now
        let hop = screen.get(v2Host + "/api/v2/authenticate/V2/\(code)")
        #expect(hop.status == 302)
        #expect(hop.bodyText == "{}")
        let next = try #require(hop.headers["Location"])
        // Adobe's Location, the SDK's parameters in Adobe's order; the session's code rides in a cookie
        // for that page only, as long as the session lives.
        #expect(
            next == "https://sp.auth.test/authenticate/saml?noflash=true&mso_id=Comcast&requestor_id=V2"
                + "&no_iframe=false&domain_name=passim.test&redirect_url=https%3A%2F%2Fapp.test%2Fdone")
        #expect(hop.headers["Set-Cookie"] == "passim_v2_login=\(code); Path=/authenticate/saml; Max-Age=1800; HttpOnly")
        let start = screen.get(next)
        #expect(start.status == 200)
        let sso = screen.submit(try onlyForm(start))
        let idp = screen.submit(try onlyForm(sso), ["username": "alice", "password": "secret"])
        let done = screen.submit(try onlyForm(idp))
        #expect(done.status == 302)
        #expect(done.headers["Location"] == "https://app.test/done")
        #expect(done.headers["Set-Cookie"] == "passim_v2_login=; Path=/authenticate/saml; Max-Age=0")
        c.b.mock = screen.mock

        let polled = try json(c.get("/profiles/code/\(code)"))
        let profile = try #require(polled["profiles"]?["Comcast"])
        #expect(keys(profile) == ["notBefore", "notAfter", "issuer", "type", "attributes"])
        #expect(profile["type"] == .string("regular"))
        #expect(profile["issuer"] == .string("Comcast"))
        #expect(profile["notAfter"] == .int(Int((c.b.now + .hours(2)).milliseconds)))
        #expect(keys(profile["attributes"]) == ["userID", "zip", "maxRating"])
        #expect(
            profile["attributes"]?["userID"]
                == .dict([Value.Entry("value", .string("u-alice")), Value.Entry("state", .string("plain"))]))
        #expect(profile["attributes"]?["zip"]?["state"] == .string("enc"))
        #expect(try json(c.get("/profiles"))["profiles"].map(keys) == ["Comcast"])
        // Another device identifier finds nothing.
        c.device = base64("device-2")
        #expect(try json(c.get("/profiles"))["profiles"] == .dict([]))
        // The login is used up.
        #expect(errorCode(screen.get(v2Host + "/api/v2/authenticate/V2/\(code)")) == "invalid_authentication_session")
    }

    @Test func authorizationPermitsWithAMediaTokenAndDeniesWithTheMVPDsMessage() throws {
        var c = try V2Client()
        _ = try c.login()
        let r = c.decisions(
            "authorize", "Comcast", ["CNN", "ESPN", "<rss><channel><title>HBO</title></channel></rss>"])
        #expect(r.status == 200)
        let decisions = try #require(try json(r)["decisions"]?.listValue)
        #expect(decisions.count == 3)
        #expect(
            keys(decisions[0]) == [
                "resource", "serviceProvider", "mvpd", "source", "authorized", "token", "notBefore", "notAfter",
            ])
        #expect(decisions[0]["source"] == .string("mvpd"))
        #expect(decisions[0]["authorized"] == .bool(true))
        let token = try #require(decisions[0]["token"])
        #expect(token["notAfter"] == .int(Int((c.b.now + .minutes(7)).milliseconds)))
        let media = try ShortMediaTokenXML.deserialize(try #require(token["serializedToken"]?.stringValue))
        #expect(media.resourceID == "CNN")
        #expect(media.requestorID == "V2")
        #expect(decisions[0]["notAfter"] == .int(Int((c.b.now + .hours(1)).milliseconds)))
        #expect(decisions[1]["authorized"] == .bool(false))
        #expect(decisions[1]["error"]?["code"] == .string("authorization_denied_by_mvpd"))
        #expect(decisions[1]["error"]?["details"] == .string("Upgrade your package"))
        #expect(decisions[1]["error"]?["status"] == .int(403))
        #expect(decisions[2]["authorized"] == .bool(true))

        let pre = try #require(
            try json(c.decisions("preauthorize", "Comcast", ["CNN", "ESPN"]))["decisions"]?.listValue)
        #expect(pre[0]["token"] == nil)
        #expect(pre[0]["authorized"] == .bool(true))
        #expect(pre[1]["error"]?["code"] == .string("preauthorization_denied_by_mvpd"))
    }

    @Test func withoutAProfileEachDecisionSaysMissingThenExpired() throws {
        var c = try V2Client()
        #expect(errorCode(c.decisions("authorize", "Comcast", ["CNN"])) == "authenticated_profile_missing")
        _ = try c.login()
        c.b.now = c.b.now + .hours(2)
        // The access token (1 h) has ended too: a new one, as a client would get.
        c.token = try c.b.accessToken(statement: "statement-v2")
        let r = c.decisions("authorize", "Comcast", ["CNN"])
        #expect(r.status == 200)
        #expect(errorCode(r) == "authenticated_profile_expired")
        #expect(try json(r)["decisions"]?.listValue?.first?["error"]?["action"] == .string("authentication"))
    }

    @Test func logoutAnswersEachActionPair() throws {
        var c = try V2Client()
        let none = try json(c.get("/logout/Comcast?redirectUrl=https%3A%2F%2Fapp.test%2Fbye"))
        #expect(
            none["logouts"]?["Comcast"]
                == .dict([
                    Value.Entry("actionName", .string("invalid")),
                    Value.Entry("actionType", .string("none")),
                    Value.Entry("mvpd", .string("Comcast")),
                ]))
        _ = try c.login()
        let out = try json(c.get("/logout/Comcast?redirectUrl=https%3A%2F%2Fapp.test%2Fbye"))["logouts"]?["Comcast"]
        #expect(out?["actionName"] == .string("logout"))
        #expect(out?["actionType"] == .string("interactive"))
        let url = try #require(out?["url"]?.stringValue)
        #expect(
            url == "https://sp.auth.test/logout?noflash=true&mso_id=Comcast&requestor_id=V2"
                + "&redirect_url=https%3A%2F%2Fapp.test%2Fbye")
        #expect(try json(c.get("/profiles"))["profiles"] == .dict([]))
        // The user agent's SAML logout then runs through the IdP and back to redirectUrl.
        let slo = c.b.get(url)
        #expect(slo.status == 200)
        let back = c.b.submit(try onlyForm(c.b.submit(try onlyForm(slo))))
        #expect(back.headers["Location"] == "https://app.test/bye")

        _ = try json(
            c.form("/sessions", [("mvpd", "TempPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")]))
        let temp = try json(c.get("/logout/TempPass?redirectUrl=https%3A%2F%2Fa.test"))["logouts"]?["TempPass"]
        #expect(temp?["actionName"] == .string("complete"))
        #expect(temp?["actionType"] == .string("none"))
    }

    @Test func tempPassAuthorizesUntilItEndsAndALogoutDoesNotRestartIt() throws {
        var c = try V2Client()
        let session = try json(
            c.form("/sessions", [("mvpd", "TempPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")]))
        #expect(session["actionName"] == .string("authorize"))
        #expect(session["reasonType"] == .string("temporary"))
        let started = c.b.now
        let profile = try #require(try json(c.get("/profiles/TempPass"))["profiles"]?["TempPass"])
        #expect(profile["notAfter"] == .int(Int((started + .minutes(10)).milliseconds)))
        let d = try #require(try json(c.decisions("authorize", "TempPass", ["ANY"]))["decisions"]?.listValue?.first)
        #expect(d["source"] == .string("temppass"))
        #expect(d["authorized"] == .bool(true))
        #expect(d["notAfter"] == .int(Int((started + .minutes(10)).milliseconds)))
        _ = c.get("/logout/TempPass?redirectUrl=https%3A%2F%2Fa.test")
        c.b.now = started + .minutes(10)
        let again = c.form("/sessions", [("mvpd", "TempPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")])
        #expect(again.status == 403)
        #expect(errorCode(again) == "temporary_access_duration_limit_exceeded")
    }

    @Test func promotionalTempPassIsPerIdentityAndAResourceLimitCounts() throws {
        var w = v2World()
        w.restV2.tempPassResourceLimits = [.init(mvpdID: "TempPass", resources: 2)]
        var c = try V2Client(world: w)
        let fields = [("mvpd", "PromoPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")]
        #expect(errorCode(c.form("/sessions", fields)) == "invalid_header_identity_for_temporary_access")
        c.extraHeaders = [("AP-TempPass-Identity", "%%%")]
        #expect(errorCode(c.form("/sessions", fields)) == "invalid_header_identity_for_temporary_access")
        c.extraHeaders = [("AP-TempPass-Identity", base64(#"{"email":"a@b.test"}"#))]
        #expect(try json(c.form("/sessions", fields))["reasonType"] == .string("temporary"))
        c.b.now = c.b.now + .minutes(5)
        #expect(errorCode(c.form("/sessions", fields)) == "temporary_access_duration_limit_exceeded")
        c.extraHeaders = [("AP-TempPass-Identity", base64(#"{"email":"other@b.test"}"#))]
        #expect(try json(c.form("/sessions", fields))["actionName"] == .string("authorize"))

        c.extraHeaders = []
        _ = c.form("/sessions", [("mvpd", "TempPass"), ("domainName", "d"), ("redirectUrl", "https://a.test")])
        let two = try #require(try json(c.decisions("authorize", "TempPass", ["A", "B", "A"]))["decisions"]?.listValue)
        #expect(two.map { $0["authorized"] } == [.bool(true), .bool(true), .bool(true)])
        #expect(errorCode(c.decisions("authorize", "TempPass", ["C"])) == "temporary_access_resources_limit_exceeded")
    }

    @Test func appleSSOChecksTheFrameworkStatusAndAnswers201() throws {
        var c = try V2Client()
        func pfs(_ status: String, id: String? = "comcast-apple-id", expires: Int64? = nil) -> HTTPHeaders {
            var provider: [Value.Entry] = []
            if let id { provider.append(Value.Entry("id", .string(id))) }
            if let expires { provider.append(Value.Entry("expirationDate", .string(String(expires)))) }
            let json = Value.dict([
                Value.Entry("frameworkPermissionInfo", .dict([Value.Entry("accessStatus", .string(status))])),
                Value.Entry("frameworkProviderInfo", .dict(provider)),
            ]).jsonText
            return [("AP-Partner-Framework-Status", base64(json))]
        }
        let fields = [("domainName", "passim.test"), ("redirectUrl", "https://app.test/done")]
        // A status that does not grant access falls back to a basic session (Adobe's partner request
        // page, `pfs_fallback`), for the provider's MVPD when it names one; a granted status naming
        // no MVPD and an unknown partner are refused.
        var answers: [String?] = []
        for (headers, partner) in [
            ([], "Apple"), (pfs("notDetermined"), "Apple"), (pfs("denied"), "Apple"),
            (pfs("restricted"), "Apple"), (pfs("granted", id: nil), "Apple"),
            (pfs("granted", id: "nobody"), "Apple"),
            (pfs("granted", expires: c.b.now.milliseconds - 1), "Apple"),
            (pfs("granted"), "Roku"),
        ] as [(HTTPHeaders, String)] {
            c.extraHeaders = headers
            let r = c.form("/sessions/sso/\(partner)", fields)
            if r.status != 200 {
                answers.append(errorCode(r))
            } else {
                let body = try json(r)
                answers.append(
                    [body["actionName"], body["reasonType"], body["mvpd"]].map { $0?.stringValue ?? "-" }.joined(
                        separator: " "))
            }
        }
        #expect(
            answers == [
                "resume pfs_fallback -", "authenticate pfs_fallback Comcast", "authenticate pfs_fallback Comcast",
                "authenticate pfs_fallback Comcast", "resume pfs_fallback -", "invalid_header_pfs_provider_id_mismatch",
                "authenticate pfs_fallback Comcast", "invalid_parameter_partner",
            ])
        c.extraHeaders = pfs("granted", expires: c.b.now.milliseconds + 60_000)
        let session = try json(c.form("/sessions/sso/Apple", fields))
        #expect(session["actionName"] == .string("partner_profile"))
        #expect(session["mvpd"] == .string("Comcast"))
        #expect(session["url"] == .string("/api/v2/V2/profiles/sso/Apple"))
        #expect(session["authenticationRequest"]?["type"] == .string("saml"))
        let request = try #require(session["authenticationRequest"]?["request"]?.stringValue)
        let xml = try #require(Data(base64Encoded: request))
        #expect(try SAML.parseAuthnRequest(Array(xml)).issuer == SDKFamily.platformAudience)

        #expect(
            errorCode(c.form("/profiles/sso/Apple", [("SAMLResponse", "bm90IFNBTUw=")]))
                == "invalid_parameter_saml_response")
        // Apple's framework's assertion: the IdP's platform-sso stands in for it.
        let token = c.b.post("https://comcast.idp.test/platform-sso", [("username", "alice"), ("password", "secret")])
        #expect(token.status == 200)
        let created = c.form("/profiles/sso/Apple", [("SAMLResponse", SAML.encodeForPost(token.bodyText))])
        #expect(created.status == 201)
        let profile = try #require(try json(created)["profiles"]?["Comcast"])
        #expect(profile["type"] == .string("appleSSO"))
        #expect(profile["issuer"] == .string("Apple"))
        #expect(try json(c.form("/sessions/sso/Apple", fields))["reasonType"] == .string("authenticatedSSO"))
        #expect(
            try json(c.decisions("authorize", "Comcast", ["CNN"]))["decisions"]?.listValue?.first?["authorized"]
                == .bool(true))
        // Once the user withdraws the app's access in Settings, the SSO profile no longer authorizes.
        c.extraHeaders = pfs("denied")
        #expect(
            errorCode(c.decisions("authorize", "Comcast", ["CNN"]))
                == "invalid_header_pfs_permission_access_not_granted")
        c.extraHeaders = pfs("granted", id: "another-provider")
        #expect(errorCode(c.decisions("authorize", "Comcast", ["CNN"])) == "invalid_header_pfs_provider_id_mismatch")
        c.extraHeaders = pfs("granted")
        let out = try json(c.get("/logout/Comcast?redirectUrl=https%3A%2F%2Fa.test"))["logouts"]?["Comcast"]
        #expect(out?["actionName"] == .string("partner_logout"))
        #expect(out?["actionType"] == .string("partner_interactive"))
    }

    @Test func worldConditionsAnswerDegradationDummyParentalControlsAndFaults() throws {
        var w = v2World()
        w.restV2.degradations = [.init(mvpdID: "Dish", rule: .authenticateAll)]
        w.restV2.parentalControls = [.init(mvpdID: "Comcast", userName: "alice", resource: "HBO")]
        var c = try V2Client(world: w)
        let degraded = try json(
            c.form("/sessions", [("mvpd", "Dish"), ("domainName", "d"), ("redirectUrl", "https://a.test")]))
        #expect(degraded["reasonType"] == .string("degraded"))
        let d = try #require(try json(c.decisions("authorize", "Dish", ["X"]))["decisions"]?.listValue?.first)
        #expect(d["source"] == .string("degradation"))
        #expect(d["authorized"] == .bool(true))
        _ = try c.login()
        #expect(errorCode(c.decisions("authorize", "Comcast", ["HBO"])) == "authorization_denied_by_parental_controls")

        for (rule, expected) in [(RESTv2Options.Degradation.Rule.deny, "authorization_denied_by_degradation_rule")] {
            var w2 = v2World()
            w2.restV2.degradations = [.init(mvpdID: "Comcast", rule: rule)]
            var c2 = try V2Client(world: w2)
            let r = try #require(try json(c2.decisions("authorize", "Comcast", ["CNN"]))["decisions"]?.listValue?.first)
            #expect(r["source"] == .string("degradation"))
            #expect(r["error"]?["code"] == .string(expected))
        }
        var w3 = v2World()
        w3.restV2.dummyAuthorization = ["Comcast"]
        var c3 = try V2Client(world: w3)
        _ = try c3.login()
        #expect(
            try json(c3.decisions("authorize", "Comcast", ["ESPN"]))["decisions"]?.listValue?.first?["source"]
                == .string("dummy"))
    }

    /// Every code the world's `faults` can produce, through the call that meets it.
    @Test(
        arguments: V2ErrorCode.allCases.filter {
            ([.retry, .configuration, .authentication].contains($0.action) && $0 != .tooManyResources)
                || $0 == .internalServerError
        })
    func aFaultOfTheWorldAnswersItsCode(code: V2ErrorCode) throws {
        var w = v2World()
        w.restV2.faults = [.init(mvpdID: "Comcast", code: code.rawValue)]
        var c = try V2Client(world: w)
        if code.action == .configuration || code.status == 500 {
            let r = c.form("/sessions", [("mvpd", "Comcast")])
            #expect(r.status == code.status)
            #expect(try json(r)["action"] == .string(code.action.rawValue))
            #expect(errorCode(r) == code.rawValue)
        } else {
            _ = try c.login()
            let r = c.decisions("authorize", "Comcast", ["CNN"])
            #expect(r.status == 200)
            #expect(try json(r)["decisions"]?.listValue?.first?["error"]?["action"] == .string(code.action.rawValue))
            #expect(errorCode(r) == code.rawValue)
        }
    }

    @Test func v1AndV2ShareUsersButNotAuthentication() throws {
        var c = try V2Client()
        // A v1/SDK login in the same browser gives v2 nothing…
        _ = try c.b.login()
        #expect(try json(c.get("/profiles"))["profiles"] == .dict([]))
        // …and a v2 login leaves no SP session behind for the SDK family.
        var d = try V2Client()
        _ = try d.login()
        #expect(try d.b.sessionDevice() == .none)
    }

    @Test func theSameSeedGivesTheSameAnswersByteForByte() throws {
        func transcript() throws -> [String] {
            var c = try V2Client(seed: 9)
            var out: [String] = []
            out.append(c.form("/sessions", [("mvpd", "Comcast")]).bodyText)
            out.append(c.get("/sessions/NOPE123").bodyText)
            _ = try c.login()
            out.append(c.decisions("authorize", "Comcast", ["CNN", "ESPN"]).bodyText)
            return out
        }
        let a = try transcript()
        #expect(a == (try transcript()))
        #expect(a[1].contains("\"trace\":\""))
    }
}

/// An MVPD whose IdP speaks OAuth2 with PKCE (server 3.7.0) behind the same `authenticate/{sp}/{code}`.
@Suite struct RESTv2OAuthTests {
    @Test func theLoginGoesThroughOAuth2WithAnS256ChallengeAndTheCodeIsRedeemedOnce() throws {
        var w = v2World()
        w.restV2.oauth2MVPDs = ["Dish"]
        var c = try V2Client(world: w)
        let session = try json(
            c.form("/sessions", [("mvpd", "Dish"), ("domainName", "d"), ("redirectUrl", "https://app.test/done")]))
        var screen = Browser(c.b.mock)
        screen.now = c.b.now
        let hop = screen.get(v2Host + (session["url"]?.stringValue ?? ""))
        #expect(hop.status == 302)
        let authorize = try #require(hop.headers["Location"])
        #expect(
            authorize.hasPrefix(
                "https://dish.idp.test/oauth2/authorize?response_type=code&client_id=https%3A%2F%2Fsp.auth.test&"))
        let query = Dictionary(uniqueKeysWithValues: (URLParts(authorize)?.query ?? []).map { ($0.0, $0.1) })
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["code_challenge"]?.count == 43)
        #expect(query["redirect_uri"] == "https://sp.auth.test/api/v2/oauth2/callback")
        let form = try onlyForm(screen.get(authorize))
        #expect(form.action == "https://dish.idp.test/oauth2/login")
        #expect(
            try page(screen.submit(form, ["username": "bob", "password": "wrong"])).message
                == IdPFamily.invalidCredentials)
        let back = screen.submit(form, ["username": "bob", "password": "hunter2"])
        #expect(back.status == 302)
        let callback = try #require(back.headers["Location"])
        #expect(callback.hasPrefix("https://sp.auth.test/api/v2/oauth2/callback?code="))
        let code = try #require(URLParts(callback)?.query.first { $0.0 == "code" }?.1)
        // Someone who intercepted the code cannot redeem it without the SP's verifier (and it is then used up).
        var thief = Browser(screen.mock)
        thief.now = screen.now
        let stolen = thief.post(
            "https://dish.idp.test/oauth2/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", "https://sp.auth.test"),
                ("redirect_uri", "https://sp.auth.test/api/v2/oauth2/callback"),
                ("code_verifier", String(repeating: "x", count: 64)),
            ])
        #expect(stolen.status == 400)
        #expect(try json(stolen)["error"] == .string("invalid_grant"))
        // The SP redeems it with its verifier: the device's profile, then redirectUrl.
        let done = screen.get(callback)
        #expect(done.status == 302)
        #expect(done.headers["Location"] == "https://app.test/done")
        c.b.mock = screen.mock
        let profile = try #require(try json(c.get("/profiles/Dish"))["profiles"]?["Dish"])
        #expect(profile["type"] == .string("regular"))
        #expect(profile["attributes"]?["userID"]?["value"] == .string("bob"))
        // A replayed callback finds the login done.
        #expect(errorCode(screen.get(callback)) == "invalid_authentication_session")
        let out = try json(c.get("/logout/Dish?redirectUrl=https%3A%2F%2Fapp.test%2Fbye"))["logouts"]?["Dish"]
        let url = try #require(out?["url"]?.stringValue)
        #expect(
            url.hasPrefix(
                "https://dish.idp.test/oauth2/logout?client_id=https%3A%2F%2Fsp.auth.test&redirect_uri=https%3A%2F%2Fsp.auth.test%2Fapi%2Fv2%2Foauth2%2Fcallback&state=logout-"
            ))
        // Through the IdP back to the SP's callback, which sends the user agent on to redirectUrl.
        let home = try #require(c.b.get(url).headers["Location"])
        #expect(c.b.get(home).headers["Location"] == "https://app.test/bye")
    }

    @Test func theChallengeIsRFC7636sExample() {
        // RFC 7636, appendix B.
        #expect(
            V2OAuth.challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }
}
