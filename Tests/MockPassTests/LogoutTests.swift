import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct LogoutTests {
    func logoutURL(_ token: AuthnToken, mvpd: String? = nil, redirectURL: String? = redirect) -> String {
        var q = [
            ("mso_id", mvpd ?? token.mvpdID), ("requestor_id", "REQ1"), ("name_id", token.nameID),
            ("session_index", token.sessionIndex), ("authentication_token", "ignored"),
        ]
        if let redirectURL { q.append(("redirect_url", redirectURL)) }
        return "https://sp.auth.test/logout?" + FormCoding.encode(q)
    }

    @Test func samlLogoutRoundTripEndsTheSessions() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 11))
        #expect(try b.login().status == 302)
        guard case .token(let token) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(b.mock.idps.sessions.count == 1)

        // A browser without the login's cookie (the SP session must end through the SAML round trip).
        let start = b.get(logoutURL(token), withCookies: false)
        #expect(start.status == 200)
        let toIdP = try onlyForm(start)
        #expect(toIdP.autoSubmit)
        #expect(toIdP.action == "https://comcast.idp.test/slo")
        #expect(toIdP.fieldNames == ["SAMLRequest", "RelayState"])
        let request = try SAML.parseLogoutRequest(try decoded(toIdP.field("SAMLRequest")))
        #expect(request.nameID == token.nameID)
        #expect(request.sessionIndex == token.sessionIndex)
        #expect(request.issuer == "https://sp.auth.test")
        #expect(request.destination == "https://comcast.idp.test/slo")

        let slo = b.submit(toIdP, withCookies: false)
        #expect(slo.status == 200)
        #expect(b.mock.idps.sessions.count == 0)
        let toSP = try onlyForm(slo)
        #expect(toSP.autoSubmit)
        #expect(toSP.action == "https://sp.auth.test/sp/saml/LogoutServiceHTTPRedirectResponse")
        #expect(toSP.field("RelayState") == toIdP.field("RelayState"))
        let response = try SAML.parseLogoutResponse(try decoded(toSP.field("SAMLResponse")))
        #expect(response.inResponseTo == request.id)
        #expect(response.issuer == "https://comcast.idp.test")
        #expect(response.success)

        // Until the SP hears back, the login session is still there, reporting the logout under way.
        #expect(try b.sessionDevice() == .pendingLogout)
        let done = b.submit(toSP, withCookies: false)
        #expect(done.status == 302)
        #expect(done.headers["Location"] == redirect)
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
        // The logout session is used up.
        #expect(b.submit(toSP, withCookies: false).status == 400)
    }

    @Test func logoutWithTheCookieEndsTheSessionAtOnce() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 12))
        #expect(try b.login().status == 302)
        guard case .token(let token) = try b.sessionDevice() else { Issue.record("no token"); return }
        #expect(try onlyForm(b.get(logoutURL(token))).action == "https://comcast.idp.test/slo")
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
    }

    @Test func sloWithoutAMatchingSessionStillSucceeds() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 13))
        let fake = AuthnToken(
            guid: "g", requestorID: "REQ1", domainName: "adobe.com", expires: b.now, mvpdID: "Comcast",
            deviceID: "d", nameID: "nobody", sessionIndex: "none")
        let slo = b.submit(try onlyForm(b.get(logoutURL(fake))))
        let response = try SAML.parseLogoutResponse(try decoded(try onlyForm(slo).field("SAMLResponse")))
        #expect(response.success)
        #expect(b.submit(try onlyForm(slo)).headers["Location"] == redirect)
    }

    @Test func logoutWithoutSAMLRedirectsStraightBack() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 14))
        #expect(try b.login().status == 302)
        for url in [
            "https://sp.auth.test/logout?redirect_url=adobepass%3A%2F%2Fios.app",
            "https://sp.auth.test/logout?mso_id=Comcast&requestor_id=REQ1&redirect_url=adobepass%3A%2F%2Fios.app",
            "https://sp.auth.test/logout?mso_id=TempPass&name_id=a&session_index=b&redirect_url=adobepass%3A%2F%2Fios.app",
            "https://sp.auth.test/logout?mso_id=Verizon&name_id=a&session_index=b&redirect_url=adobepass%3A%2F%2Fios.app",
        ] {
            let r = b.get(url)
            #expect(r.status == 302, "\(url)")
            #expect(r.headers["Location"] == redirect)
        }
        #expect(try b.sessionDevice() == SessionDeviceXML.Content.none)
        let missing = b.get("https://sp.auth.test/logout?mso_id=Comcast&name_id=a&session_index=b")
        #expect(missing.status == 400)
        #expect(missing.bodyText.contains("redirect_url"))
    }

    @Test func aLogoutResponseMustAnswerTheLogoutRequest() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 15))
        #expect(try b.login().status == 302)
        guard case .token(let token) = try b.sessionDevice() else { Issue.record("no token"); return }
        let toIdP = try onlyForm(b.get(logoutURL(token), withCookies: false))
        let relay = try #require(toIdP.field("RelayState"))
        let forged = LogoutResponse(
            id: "_x", inResponseTo: "_not-it", issueInstant: b.now, issuer: "https://comcast.idp.test",
            destination: "https://sp.auth.test/sp/saml/LogoutServiceHTTPRedirectResponse", success: true)
        let r = b.post(
            forged.destination, [("SAMLResponse", SAML.encodeForPost(SAML.build(forged))), ("RelayState", relay)])
        #expect(r.status == 400)
        let unknown = b.post(
            forged.destination, [("SAMLResponse", SAML.encodeForPost(SAML.build(forged))), ("RelayState", "zz")])
        #expect(unknown.status == 400)
        // The forged answers ended nothing: the logout is still under way.
        #expect(try b.sessionDevice() == .pendingLogout)
    }
}
