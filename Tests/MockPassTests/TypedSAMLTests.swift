import PassModel
import PassXML
import Testing
@testable import MockPass

/// A typed run's SAML (`MockPass.typedRun`): the browser forms carry handles to values, the IdPs
/// sign nothing, and every answer is the one the bytes get.
@Suite struct TypedSAMLTests {
    @Test func aTypedLoginPostsHandlesAndSignsNothing() throws {
        var b = Browser(typedMock(typed: true))
        let login = try typedLogin(&b)
        let request = try #require(login.toIdP.field("SAMLRequest"))
        let response = try #require(login.toSP.field("SAMLResponse"))
        for handle in [request, response] {
            #expect(handle.hasPrefix(TypedSAMLStore.prefix) && handle.count < 24, "\(handle)")
            // Not base64 of anything, let alone of signed XML.
            #expect((try? SAML.decodeFromPost(handle)) == nil)
        }
        guard case .response(let value, let verdict)? = b.mock.context.typedMessages.message(response, at: b.now) else {
            throw TestFailure("the handle names no Response")
        }
        #expect(value.assertion?.signature == nil)
        #expect(verdict == .signed(keyIndex: try #require(IdPSigningKey.index(seed: 5, mvpdID: "Comcast"))))
        #expect(login.acs.status == 302)
        #expect(login.acs.headers["Location"] == redirect)
        guard case .token = try b.sessionDevice() else { throw TestFailure("no token after a typed login") }
    }

    /// The default mock (and any not told it runs typed) writes base64 XML, the assertion signed
    /// with the IdP's key and verifying with it.
    @Test func theDefaultMockWritesSignedSAML() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 5))
        #expect(!b.mock.typedRun)
        let login = try typedLogin(&b)
        let request = try SAML.parseAuthnRequest(try decoded(login.toIdP.field("SAMLRequest")))
        #expect(request.issuer == "https://sp.auth.test")
        let response = try SAML.parseResponse(try decoded(login.toSP.field("SAMLResponse")))
        let signed = try #require(response.assertion?.signature)
        #expect(try #require(IdPSigningKey.key(seed: 5, mvpdID: "Comcast")).problem(with: signed) == nil)
        #expect(login.acs.status == 302)
    }

    /// Every `saml` behaviour: the same ACS answer (status, body, headers), the same token after it
    /// (the same draws of the mock's randomness), and the same answer to a replay of the Response.
    @Test(arguments: [World.SAMLBehavior.signed, .unsigned, .tampered, .expired, .wrongAudience])
    func everyBehaviourAnswersAsTheBytesDo(_ behavior: World.SAMLBehavior) throws {
        var answers: [[String]] = []
        for typed in [true, false] {
            var b = Browser(typedMock(behaving(behavior), typed: typed))
            let login = try typedLogin(&b)
            #expect(login.toSP.field("SAMLResponse")?.hasPrefix(TypedSAMLStore.prefix) == typed)
            let replay = b.submit(login.toSP)
            let token = try b.sessionDevice()
            // The other IdP of the world, signing properly, after it.
            let dish = try typedLogin(&b, user: "bob", password: "hunter2", mvpd: "Dish").acs
            answers.append(
                [login.acs, replay, dish].map { "\($0.status) \($0.headers) \($0.bodyText)" } + ["\(token)"])
        }
        #expect(answers[0] == answers[1])
        let expected = behavior == .signed ? "302" : "400"
        #expect(answers[0][0].hasPrefix(expected), "\(answers[0][0])")
        // A replay is refused as the bytes' replay is (the session has no login pending any more).
        #expect(answers[0][1].hasPrefix("400"), "\(answers[0][1])")
    }

    /// A handle the mock does not hold (forged, malformed, or naming another kind of message) is a
    /// malformed field, as garbage is: 400, the field named; the genuine handle works after them.
    @Test func anUnknownHandleIsRefusedAsGarbageIs() throws {
        var b = Browser(typedMock(typed: true))
        let toIdP = try form(b.get(loginURL()))
        let loginForm = try form(b.submit(toIdP))
        let toSP = try form(b.submit(loginForm, ["username": "alice", "password": "secret"]))
        let requestHandle = try #require(toIdP.field("SAMLRequest"))
        let responseHandle = try #require(toSP.field("SAMLResponse"))
        let forged = [
            "passim-typed:999", "passim-typed:", "passim-typed:-1", "passim-typed:+1", "passim-typed:1x",
            "passim-typed:99999999999999999999999999999", "passim-typed:" + String(repeating: "9", count: 5000),
        ]
        for bad in forged + [responseHandle, "%%% not base64"] {
            let sso = b.submit(toIdP, ["SAMLRequest": bad])
            #expect(
                sso.status == 400 && sso.bodyText.hasPrefix("400 Bad Request: malformed SAMLRequest: "),
                "\(bad): \(sso.bodyText)")
        }
        for bad in forged + [requestHandle, "%%% not base64"] {
            let acs = b.submit(toSP, ["SAMLResponse": bad])
            #expect(
                acs.status == 400 && acs.bodyText.hasPrefix("400 Bad Request: malformed SAMLResponse: "),
                "\(bad): \(acs.bodyText)")
        }
        #expect(b.submit(toSP).status == 302)

        // A mock not in typed mode holds no handle: the field is not base64, so it is malformed.
        var plain = Browser(MockPass(world: sampleWorld(), seed: 5))
        let plainForm = try form(plain.get(loginURL()))
        let refused = plain.submit(plainForm, ["SAMLRequest": requestHandle])
        #expect(
            refused.status == 400 && refused.bodyText.hasPrefix("400 Bad Request: malformed SAMLRequest: "),
            "\(refused.bodyText)")
    }

    /// The SP's logout and the IdP's answer pass as handles too, with the bytes' answers.
    @Test func aTypedLogoutAnswersAsTheBytesDo() throws {
        var answers: [[String]] = []
        for typed in [true, false] {
            var b = Browser(typedMock(typed: typed))
            #expect(try typedLogin(&b).acs.status == 302)
            guard case .token(let token) = try b.sessionDevice() else { throw TestFailure("no token") }
            let url =
                "https://sp.auth.test/logout?"
                + FormCoding.encode([
                    ("mso_id", "Comcast"), ("requestor_id", "REQ1"), ("name_id", token.nameID),
                    ("session_index", token.sessionIndex), ("redirect_url", redirect),
                ])
            let toIdP = try form(b.get(url, withCookies: false))
            let toSP = try form(b.submit(toIdP, withCookies: false))
            #expect(toIdP.field("SAMLRequest")?.hasPrefix(TypedSAMLStore.prefix) == typed)
            #expect(toSP.field("SAMLResponse")?.hasPrefix(TypedSAMLStore.prefix) == typed)
            let pending = try b.sessionDevice()
            let done = b.submit(toSP, withCookies: false)
            let again = b.submit(toSP, withCookies: false)
            answers.append(
                ["\(pending)", "\(try b.sessionDevice())"]
                    + [done, again].map { "\($0.status) \($0.headers) \($0.bodyText)" })
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0][2].hasPrefix("302"))
    }

    /// Apple's token: a typed run's IdP answers `/platform-sso` with a handle (`AppleToken`), signing
    /// nothing, and the exchange answers it as it answers the signed bytes, for every behaviour.
    @Test(arguments: [World.SAMLBehavior.signed, .unsigned, .tampered, .expired, .wrongAudience])
    func appleTokensAnswerAsTheBytesDo(_ behavior: World.SAMLBehavior) throws {
        var world = deviceWorld()
        for i in world.identityProviders.indices { world.identityProviders[i].saml = behavior }
        var answers: [String] = []
        for typed in [true, false] {
            var b = Browser(typedMock(world, seed: 63, typed: typed))
            let apple = PlatformSSOTests.appleToken(&b)
            #expect(apple.status == 200)
            let token: String
            if typed {
                token = try #require((apple.decoded as? AppleToken)?.samlResponse)
                #expect(token.hasPrefix(TypedSAMLStore.prefix) && apple.body.isEmpty)
            } else {
                #expect(apple.decoded == nil)
                token = SAML.encodeForPost(apple.bodyText)
            }
            let first = PlatformSSOTests.exchange(&b, token)
            let again = PlatformSSOTests.exchange(&b, token, device: "ipad-2")
            answers.append([first, again].map { "\($0.status) \($0.headers) \($0.bodyText)" }.joined(separator: " | "))
        }
        #expect(answers[0] == answers[1])
        #expect(answers[0].hasPrefix(behavior == .signed ? "204" : "401"), "\(answers[0])")
    }

    /// `typedRun`: a page's body is left empty and its value is the page the HTML would give (but
    /// its SAML fields, handles there).
    @Test func pagesAsValuesCarryThePageAndNoBody() throws {
        func withoutSAML(_ page: HTMLPage?) -> HTMLPage? {
            guard var page else { return nil }
            for f in page.forms.indices {
                for i in page.forms[f].fields.indices where page.forms[f].fields[i].name.hasPrefix("SAML") {
                    page.forms[f].fields[i].value = ""
                }
            }
            return page
        }
        var plain = Browser(MockPass(world: sampleWorld(), seed: 5))
        var valued = MockPass(world: sampleWorld(), seed: 5)
        valued.typedRun = true
        var b = Browser(valued)
        for url in [loginURL(), "https://sp.auth.test/completePassiveAuthentication"] {
            let html = plain.get(url)
            let value = b.get(url)
            #expect(value.status == 200 && value.body.isEmpty && !html.body.isEmpty)
            #expect(value.headers == html.headers)
            #expect(withoutSAML(value.decoded as? HTMLPage) == withoutSAML(try HTMLPageXML.parse(html.body)))
        }
        let sso = try form(b.get(loginURL()))
        let page = b.submit(sso)
        #expect(page.body.isEmpty && (page.decoded as? HTMLPage)?.forms.first?.field("username") == "")
    }

    /// `typedRun`: a configuration that reads back goes as its value, its body empty; the value is
    /// what the bytes parse to.
    @Test func aTypedRunsConfigurationIsItsValue() throws {
        var plain = MockPass(world: sampleWorld(), seed: 5)
        var typed = MockPass(world: sampleWorld(), seed: 5)
        typed.typedRun = true
        let request = HTTPRequest(method: "GET", url: "https://sp.auth.test/config/REQ1")
        let bytes = plain.handle(request, at: .simulationStart)
        let value = typed.handle(request, at: .simulationStart)
        #expect(bytes.status == 200 && !bytes.body.isEmpty)
        #expect(value.status == 200 && value.body.isEmpty && value.headers == bytes.headers)
        let parsed = try ConfigurationXML.parse(bytes.body)
        #expect(value.decoded as? SPConfiguration == parsed)
    }

    /// Handles live until the cap (`mock-typed-saml`) drops the oldest; they count from 1.
    @Test func theStoreIsCappedOldestFirst() {
        var store = TypedSAMLStore(capacity: 2)
        let request = AuthnRequest(
            id: "_1", issueInstant: .simulationStart, issuer: "https://sp.test",
            destination: "https://idp.test/sso", assertionConsumerServiceURL: "https://sp.test/acs")
        let handles = (0..<3).map { _ in store.keep(.authnRequest(request)) }
        #expect(handles == ["passim-typed:1", "passim-typed:2", "passim-typed:3"])
        #expect(store.message(handles[0], at: .simulationStart) == nil)
        #expect(store.message(handles[1], at: .simulationStart) != nil)
        #expect(store.message(handles[2], at: .simulationStart + .hours(10_000)) != nil)
    }
}

private func typedMock(_ world: World = sampleWorld(), seed: UInt64 = 5, typed: Bool) -> MockPass {
    var mock = MockPass(world: world, seed: seed)
    mock.typedRun = typed
    return mock
}

private func behaving(_ behavior: World.SAMLBehavior) -> World {
    var world = sampleWorld()
    for i in world.identityProviders.indices where world.identityProviders[i].mvpdID == "Comcast" {
        world.identityProviders[i].saml = behavior
    }
    return world
}

/// The page's one form, read as a typed run's browser reads it (the value when there is one).
private func form(_ r: HTTPResponse) throws -> HTMLForm {
    guard let page = r.decoded(orParse: HTMLPageXML.parse) else {
        throw TestFailure("no page: \(r.status) \(r.bodyText)")
    }
    guard page.forms.count == 1 else { throw TestFailure("expected one form, got \(page.forms.count)") }
    return page.forms[0]
}

private struct Login {
    var toIdP: HTMLForm
    var toSP: HTMLForm
    var acs: HTTPResponse
}

/// A whole login (authenticate/saml, sso, login, ACS), each form read from its page.
private func typedLogin(
    _ b: inout Browser, user: String = "alice", password: String = "secret",
    mvpd: String = "Comcast"
) throws -> Login {
    let toIdP = try form(b.get(loginURL(mvpd: mvpd)))
    let loginForm = try form(b.submit(toIdP))
    let toSP = try form(b.submit(loginForm, ["username": user, "password": password]))
    return Login(toIdP: toIdP, toSP: toSP, acs: b.submit(toSP))
}
