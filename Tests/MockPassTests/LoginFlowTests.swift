import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct LoginFlowTests {
    @Test func completeLoginStepByStep() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 7))

        let config = b.get("https://sp.auth.test/config/REQ1")
        #expect(config.status == 200)
        #expect(config.headers["Content-Type"] == "application/xml")
        #expect(try ConfigurationXML.parse(config.body).mvpds.map(\.id) == ["Comcast", "Dish", "TempPass"])

        // authenticate/saml: a session cookie and an auto-post to the IdP.
        let start = b.get(loginURL())
        #expect(start.status == 200)
        let setCookie = try #require(start.headers["Set-Cookie"])
        let session = try #require(b.cookie("JSESSIONID"))
        #expect(setCookie == "JSESSIONID=\(session); Path=/")
        #expect(!session.isEmpty && session.allSatisfy(\.isHexDigit))
        let toIdP = try onlyForm(start)
        #expect(toIdP.autoSubmit)
        #expect(toIdP.method == "POST")
        #expect(toIdP.action == "https://comcast.idp.test/sso")
        #expect(toIdP.fieldNames == ["SAMLRequest", "RelayState"])
        #expect(toIdP.field("RelayState") == session)
        let authn = try SAML.parseAuthnRequest(try decoded(toIdP.field("SAMLRequest")))
        #expect(authn.assertionConsumerServiceURL == "https://sp.auth.test/sp/saml/SAMLAssertionConsumer")
        #expect(authn.issuer == "https://sp.auth.test")
        #expect(authn.destination == "https://comcast.idp.test/sso")
        #expect(authn.forceAuthn == false)
        #expect(authn.issueInstant == b.now)

        // The IdP's login page: a form the user fills in.
        let loginPage = b.submit(toIdP)
        #expect(loginPage.status == 200)
        let loginForm = try onlyForm(loginPage)
        #expect(!loginForm.autoSubmit)
        #expect(loginForm.action == "https://comcast.idp.test/login")
        #expect(loginForm.fieldNames == ["username", "password", "SAMLRequest", "RelayState"])
        #expect(loginForm.field("username") == "")
        #expect(loginForm.field("SAMLRequest") == toIdP.field("SAMLRequest"))
        #expect(try page(loginPage).message == nil)

        // Credentials: an auto-post of the SAML Response to the ACS.
        let afterLogin = b.submit(loginForm, ["username": "alice", "password": "secret"])
        #expect(afterLogin.status == 200)
        let toSP = try onlyForm(afterLogin)
        #expect(toSP.autoSubmit)
        #expect(toSP.action == "https://sp.auth.test/sp/saml/SAMLAssertionConsumer")
        #expect(toSP.field("RelayState") == session)
        let response = try SAML.parseResponse(try decoded(toSP.field("SAMLResponse")))
        #expect(response.inResponseTo == authn.id)
        #expect(response.issuer == "https://comcast.idp.test")
        #expect(response.success)
        let assertion = try #require(response.assertion)
        #expect(!assertion.nameID.isEmpty && assertion.nameID != "alice")
        #expect(!assertion.sessionIndex.isEmpty)
        #expect(assertion.attributes.first { $0.name == "userID" }?.values == ["u-alice"])
        #expect(assertion.attributes.first { $0.name == "zip" }?.values == ["12345"])
        #expect(!assertion.attributes.contains { $0.name == "maxRating" })

        // ACS: back to the app's redirect URL.
        let acs = b.submit(toSP)
        #expect(acs.status == 302)
        #expect(acs.headers["Location"] == redirect)

        // The token, twice the same; none without the cookie.
        b.now = b.now + .seconds(3)
        guard case .token(let token) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(token.requestorID == "REQ1")
        #expect(token.mvpdID == "Comcast")
        #expect(token.domainName == "adobe.com")
        #expect(token.deviceID == "dev-1")
        #expect(token.nameID == assertion.nameID)
        #expect(token.sessionIndex == assertion.sessionIndex)
        #expect(token.expires == b.now + .hours(24))
        #expect(token.guid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        b.now = b.now + .minutes(1)
        #expect(try b.sessionDevice() == .token(token))
        #expect(try b.sessionDevice(withCookies: false) == SessionDeviceXML.Content.none)
    }

    @Test func wrongPasswordShowsTheLoginPageAgain() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        let sso = b.submit(try onlyForm(b.get(loginURL())))
        let form = try onlyForm(sso)
        for (user, password) in [("alice", "wrong"), ("bob", "hunter2"), ("", ""), ("ALICE", "secret")] {
            let again = b.submit(form, ["username": user, "password": password])
            #expect(again.status == 200)
            let p = try page(again)
            #expect(p.message == "Invalid user name or password.")
            let f = try #require(p.forms.first)
            #expect(!f.autoSubmit)
            #expect(f.action == form.action)
            #expect(f.fields == form.fields)
        }
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
        // The right password still works afterwards.
        let ok = b.submit(form, ["username": "alice", "password": "secret"])
        #expect(b.submit(try onlyForm(ok)).status == 302)
        guard case .token = try b.sessionDevice() else { Issue.record("no token after login"); return }
    }

    @Test func nameIDIsStablePerUserAndSessionIndexIsNot() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 3))
        #expect(try b.login().status == 302)
        guard case .token(let first) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(try b.login().status == 302)
        guard case .token(let second) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(first.nameID == second.nameID)
        #expect(first.sessionIndex != second.sessionIndex)
        #expect(first.guid != second.guid)
    }

    @Test func restartingALoginReusesTheSessionCookie() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 4))
        _ = b.get(loginURL())
        let first = try #require(b.cookie("JSESSIONID"))
        let second = b.get(loginURL(mvpd: "Dish"))
        #expect(second.headers["Set-Cookie"] == "JSESSIONID=\(first); Path=/")
        #expect(try onlyForm(second).action == "https://dish.idp.test/sso")
        // A cookie the SP does not know gets a fresh session.
        var stranger = Browser(b.mock)
        stranger.jar = [("JSESSIONID", "0123")]
        _ = stranger.get(loginURL())
        #expect(stranger.cookie("JSESSIONID") != "0123")
        #expect(stranger.cookie("JSESSIONID") != first)
    }

    @Test func assertionConsumerFindsTheSessionByRelayStateWithoutCookie() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 5))
        let start = b.get(loginURL())
        let session = try #require(b.cookie("JSESSIONID"))
        let login = b.submit(try onlyForm(b.submit(try onlyForm(start))), ["username": "alice", "password": "secret"])
        let acs = b.submit(try onlyForm(login), withCookies: false)
        #expect(acs.status == 302)
        #expect(acs.headers["Set-Cookie"] == "JSESSIONID=\(session); Path=/")
        guard case .token = try b.sessionDevice() else { Issue.record("no token"); return }
    }

    @Test func aReplayedOrForeignResponseIsRefused() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 6))
        let start = b.get(loginURL())
        let login = b.submit(try onlyForm(b.submit(try onlyForm(start))), ["username": "alice", "password": "secret"])
        let toSP = try onlyForm(login)
        #expect(b.submit(toSP).status == 302)
        let replay = b.submit(toSP)
        #expect(replay.status == 400)
        #expect(replay.bodyText.contains("no login is pending"))

        // A response from another IdP (Dish) for a Comcast login.
        let restart = b.get(loginURL())
        let authn = try SAML.parseAuthnRequest(try decoded(try onlyForm(restart).field("SAMLRequest")))
        let forged = SAMLResponse(
            id: "_f", inResponseTo: authn.id, issueInstant: b.now, issuer: "https://dish.idp.test",
            destination: authn.assertionConsumerServiceURL, success: true,
            assertion: Assertion(
                id: "_a", issueInstant: b.now, issuer: "https://dish.idp.test",
                nameID: "x", sessionIndex: "y", notOnOrAfter: b.now + .minutes(5),
                audience: "https://sp.auth.test"))
        let r = b.post(authn.assertionConsumerServiceURL, [("SAMLResponse", SAML.encodeForPost(SAML.build(forged)))])
        #expect(r.status == 400)
        #expect(r.bodyText.contains("issuer"))

        // The right issuer but the wrong InResponseTo, or a failure status.
        var wrong = forged
        wrong.issuer = "https://comcast.idp.test"
        wrong.inResponseTo = "_other"
        #expect(
            b.post(authn.assertionConsumerServiceURL, [("SAMLResponse", SAML.encodeForPost(SAML.build(wrong)))]).status
                == 400)
        wrong.inResponseTo = authn.id
        wrong.success = false
        wrong.assertion = nil
        let refused = b.post(
            authn.assertionConsumerServiceURL, [("SAMLResponse", SAML.encodeForPost(SAML.build(wrong)))])
        #expect(refused.status == 400)
        #expect(refused.bodyText.contains("refused"))
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
    }

    @Test func theTokenExpiresWithTheRequestorsTTL() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 8))
        #expect(try b.login(requestor: "REQ2").status == 302)
        guard case .token(let token) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(token.requestorID == "REQ2")
        #expect(token.expires == b.now + .hours(2))
        b.now = b.now + .hours(2)
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
    }

    @Test func loginIsRefusedForMVPDsNotOffered() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 9))
        // Verizon is not at the main SP; REQ2 does not get TempPass; REQ3 is not at main; TempPass has no IdP.
        for url in [
            loginURL(mvpd: "Verizon"), loginURL(mvpd: "TempPass", requestor: "REQ2"),
            loginURL(requestor: "REQ3"), loginURL(mvpd: "TempPass"), loginURL(requestor: "NOPE"),
            "https://sp.auth.test/authenticate/saml?requestor_id=REQ1&redirect_url=x",
            "https://sp.auth.test/authenticate/saml?requestor_id=REQ1&mso_id=Comcast",
        ] {
            let r = b.get(url)
            #expect(r.status == 400, "\(url)")
            #expect(r.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(r.headers["Set-Cookie"] == nil)
        }
        // The second SP, whose base URL has a path.
        #expect(
            try b.login(user: "carol", mvpd: "Verizon", sp: "https://sp2.auth.test/adobe-services", requestor: "REQ3")
                .status == 302)
    }
}
