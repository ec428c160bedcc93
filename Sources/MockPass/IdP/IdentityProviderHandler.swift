import PassModel
import PassXML

/// An MVPD's identity provider: `/sso` (login page), `/login` (credentials), `/slo` (logout),
/// `/platform-sso` (Apple SSO's stand-in).
extension MockPass {
    static let invalidCredentials = "Invalid user name or password."

    mutating func handleIdentityProvider(
        _ idp: World.IdentityProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        try MockLimits.admitParameters(r)
        guard case .idp(let route) = r.endpoint else { throw .notFound() }
        switch route {
        case .sso:
            try r.expect(route.method)
            return try sso(idp, r, at: now)
        case .login:
            try r.expect(route.method)
            return try login(idp, r, at: now)
        case .slo:
            try r.expect(route.method)
            return try singleLogout(idp, r, at: now)
        case .platformSSO:
            try r.expect(route.method)
            return try platformSSO(idp, r, at: now)
        case .oauth2Authorize, .oauth2Login, .oauth2Token, .oauth2Logout:
            // An OAuth2 + PKCE IdP for REST v2 logins (RESTv2/V2OAuth.swift), for the MVPDs declared so.
            guard world.restV2.oauth2MVPDs.contains(idp.mvpdID) else { throw .notFound() }
            return try handleOAuthIdP(route, idp, r, at: now)
        }
    }

    /// The login page. The IdP keeps no state until a login succeeds: the AuthnRequest travels in the
    /// form. Its destination and issuer are not checked (any SP may ask); only that it parses.
    func sso(_ idp: World.IdentityProvider, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure)
        -> HTTPResponse
    {
        let encoded = try r.required("SAMLRequest")
        _ = try authnRequest(encoded, r, at: now)
        return loginPage(idp, samlRequest: encoded, relayState: r.parameter("RelayState"), message: nil)
    }

    /// Checks the credentials against the users of this MVPD. Empty or missing ones are simply wrong.
    /// A user who logs in again keeps their NameID and gets a new SessionIndex (a new IdP session).
    /// The assertion carries `userID` (the user's `userID` metadata when it is a string, else their
    /// name) and the user's other metadata whose values are strings, numbers, booleans or lists of those.
    mutating func login(_ idp: World.IdentityProvider, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure)
        -> HTTPResponse
    {
        let encoded = try r.required("SAMLRequest")
        let request = try authnRequest(encoded, r, at: now)
        let relay = r.parameter("RelayState")
        let name = r.parameter("username") ?? ""
        let password = r.parameter("password") ?? ""
        guard !name.isEmpty,
            let user = world.users.first(where: {
                $0.mvpdID == idp.mvpdID && $0.name == name && $0.password == password
            })
        else {
            return loginPage(idp, samlRequest: encoded, relayState: relay, message: MockPass.invalidCredentials)
        }
        guard let acs = URLParts(request.assertionConsumerServiceURL), acs.isHTTP else {
            throw .badRequest("the AuthnRequest's AssertionConsumerServiceURL is not an http(s) URL")
        }
        let response = signIn(
            user, at: idp, inResponseTo: request.id, destination: request.assertionConsumerServiceURL,
            audience: request.issuer, at: now)
        var fields = [FormField(name: "SAMLResponse", value: try responseField(response, from: idp))]
        if let relay { fields.append(FormField(name: "RelayState", value: relay)) }
        return Reply.autoPost(
            title: "Signing you in", to: request.assertionConsumerServiceURL, fields: fields,
            bodyless: typedRun)
    }

    /// Opens an IdP session for `user` and answers with a successful SAML Response carrying an
    /// assertion valid 5 minutes (a login through the browser, or Apple's token for the device).
    /// An IdP set to misbehave with `expired` or `wrong-audience` writes the assertion that way.
    mutating func signIn(
        _ user: World.User, at idp: World.IdentityProvider, inResponseTo: String, destination: String,
        audience: String, at now: Instant
    ) -> SAMLResponse {
        var issued = now
        var audience = audience
        switch idp.saml {
        case .expired: issued = now + Millis(-MockPass.slowIdPClock.value)
        case .wrongAudience: audience = MockPass.foreignAudience
        case .signed, .unsigned, .tampered: break
        }
        let issuer = idp.url.withoutTrailingSlashes
        let session = IdPSession(
            mvpdID: idp.mvpdID, userName: user.name,
            nameID: nameID(mvpdID: idp.mvpdID, userName: user.name),
            sessionIndex: "_" + random.hex(32))
        idps.sessions.set(session.sessionIndex, session, until: now + limits.idpSessionTTL)
        let assertion = Assertion(
            id: samlID(), issueInstant: issued, issuer: issuer, nameID: session.nameID,
            sessionIndex: session.sessionIndex, notOnOrAfter: issued + MockPass.assertionLifetime,
            audience: audience, attributes: MockPass.attributes(of: user))
        return SAMLResponse(
            id: samlID(), inResponseTo: inResponseTo, issueInstant: now, issuer: issuer,
            destination: destination, success: true, assertion: assertion)
    }

    /// How long an assertion is valid from its IssueInstant.
    static let assertionLifetime = Millis.minutes(5)
    /// How far behind the clock of an IdP with `saml expired` runs: more than `assertionLifetime`.
    static let slowIdPClock = Millis.minutes(10)
    /// The audience an IdP with `saml wrong-audience` writes: an SP that is none of ours.
    static let foreignAudience = "https://sp.other-federation.invalid"

    /// The SAMLResponse field of a browser login: a handle in a typed run (`typedResponse`), else
    /// base64 of the XML `responseXML` writes.
    mutating func responseField(_ response: SAMLResponse, from idp: World.IdentityProvider) throws(HandlerFailure)
        -> String
    {
        if let typed = try typedResponse(response, from: idp) { return typedMessages.keep(typed) }
        return SAML.encodeForPost(try responseXML(response, from: idp))
    }

    /// In a typed run, where the IdP signs nothing: the Response as the SP would read it back from
    /// what `responseXML` writes (tampered as the bytes are), with what the SP's check of its
    /// signature would conclude. nil in any other run, or when the value would not read back exactly
    /// (`SAML.readsBack`): the bytes go then.
    func typedResponse(_ response: SAMLResponse, from idp: World.IdentityProvider) throws(HandlerFailure) -> TypedSAML?
    {
        guard typedRun else { return nil }
        guard let index = IdPSigningKey.index(seed: seed, mvpdID: idp.mvpdID) else { throw MockPass.noSigningKey }
        let typed: TypedSAML
        switch idp.saml {
        case .unsigned: typed = .response(response, .unsigned)
        case .tampered: typed = .response(MockPass.tampered(response), .altered)
        case .signed, .expired, .wrongAudience: typed = .response(response, .signed(keyIndex: index))
        }
        return typed.readsBack ? typed : nil
    }

    static let noSigningKey = HandlerFailure(status: 500, message: "the identity provider has no signing key")

    /// What `saml tampered` changes after signing: the assertion's NotOnOrAfter, an hour later (the
    /// change an attacker wants).
    static func tampered(_ response: SAMLResponse) -> SAMLResponse {
        var altered = response
        if let a = altered.assertion { altered.assertion?.notOnOrAfter = a.notOnOrAfter + .hours(1) }
        return altered
    }

    /// The Response as `idp` sends it: its assertion signed with its key, or misbehaving as the
    /// world says. Signing fails only if the committed key pool does (500, never a silent unsigned answer).
    func responseXML(_ response: SAMLResponse, from idp: World.IdentityProvider) throws(HandlerFailure) -> String {
        guard let key = IdPSigningKey.key(seed: seed, mvpdID: idp.mvpdID) else { throw MockPass.noSigningKey }
        do throws(PassXMLError) {
            switch idp.saml {
            case .unsigned:
                return SAML.build(response)
            case .tampered:
                let signature = try SAML.assertionSignature(response, signer: key.signer)
                return SAML.build(MockPass.tampered(response), assertionSignature: signature)
            case .signed, .expired, .wrongAudience:
                return try SAML.build(response, signedBy: key.signer)
            }
        } catch {
            throw HandlerFailure(status: 500, message: "signing the SAML Response failed: \(error.message)")
        }
    }

    /// Ends the IdP sessions with the request's NameID and SessionIndex (none is fine: the answer is
    /// success either way) and answers at the issuer's logout-response endpoint.
    mutating func singleLogout(_ idp: World.IdentityProvider, _ r: IncomingRequest, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        let encoded = try r.required("SAMLRequest")
        let request = try logoutRequest(encoded, r, at: now)
        guard let issuer = URLParts(request.issuer), issuer.isHTTP else {
            throw .badRequest("the LogoutRequest's issuer is not an http(s) URL")
        }
        if let session = idps.sessions.value(request.sessionIndex, at: now),
            session.mvpdID == idp.mvpdID, session.nameID == request.nameID
        {
            idps.sessions.remove(request.sessionIndex)
        }
        let destination = joinURL(request.issuer, ServiceRoute.logoutResponse.path())
        let response = LogoutResponse(
            id: samlID(), inResponseTo: request.id, issueInstant: now,
            issuer: idp.url.withoutTrailingSlashes, destination: destination, success: true)
        var fields = [
            FormField(name: "SAMLResponse", value: try samlField(.logoutResponse(response)) { SAML.build(response) })
        ]
        if let relay = r.parameter("RelayState") { fields.append(FormField(name: "RelayState", value: relay)) }
        return Reply.autoPost(title: "Signing out", to: destination, fields: fields, bodyless: typedRun)
    }

    /// A form the user fills in (not auto-submitted); the SAML fields ride along hidden.
    func loginPage(_ idp: World.IdentityProvider, samlRequest: String, relayState: String?, message: String?)
        -> HTTPResponse
    {
        var fields = [
            FormField(name: "username", value: ""), FormField(name: "password", value: ""),
            FormField(name: "SAMLRequest", value: samlRequest),
        ]
        if let relayState { fields.append(FormField(name: "RelayState", value: relayState)) }
        let form = HTMLForm(
            action: joinURL(idp.url, IdPRoute.login.path), method: IdPRoute.login.method, fields: fields,
            autoSubmit: false)
        return Reply.page(
            HTMLPage(title: "Sign in to \(idp.mvpdID)", message: message, forms: [form]), bodyless: typedRun)
    }

    static func attributes(of user: World.User) -> [SAMLAttribute] {
        let userID = user.meta.first { $0.key == "userID" }?.value.stringValue ?? user.name
        var out = [SAMLAttribute(name: "userID", values: [userID])]
        for entry in user.meta where entry.key != "userID" {
            if let values = attributeValues(entry.value) { out.append(SAMLAttribute(name: entry.key, values: values)) }
        }
        return out
    }

    private static func attributeValues(_ v: Value) -> [String]? {
        switch v {
        case .string(let s): return [s]
        case .int(let i): return [String(i)]
        case .bool(let b): return [b ? "true" : "false"]
        case .list(let items):
            var out: [String] = []
            for item in items {
                guard let one = attributeValues(item), one.count == 1 else { return nil }
                out += one
            }
            return out
        default: return nil
        }
    }
}
