import PassModel
import PassXML

/// An MVPD's SAML identity provider: `/sso` (login page), `/login` (credentials), `/slo` (logout),
/// `/platform-sso` (Apple SSO's stand-in).
extension IdPFamily {
    /// The login page. The IdP keeps no state until a login succeeds: the AuthnRequest travels in the
    /// form. Its destination and issuer are not checked (any SP may ask); only that it parses.
    func sso(_ idp: World.IdentityProvider, _ r: IncomingRequest, in context: MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        let encoded = try r.required("SAMLRequest")
        _ = try context.authnRequest(encoded, r, at: now)
        return loginPage(
            idp, samlRequest: encoded, relayState: r.parameter("RelayState"), message: nil, in: context)
    }

    /// Checks the credentials against the users of this MVPD. Empty or missing ones are simply wrong.
    /// A user who logs in again keeps their NameID and gets a new SessionIndex (a new IdP session).
    /// The assertion carries `userID` (the user's `userID` metadata when it is a string, else their
    /// name) and the user's other metadata whose values are strings, numbers, booleans or lists of those.
    mutating func login(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLRequest")
        let request = try context.authnRequest(encoded, r, at: now)
        let relay = r.parameter("RelayState")
        let name = r.parameter("username") ?? ""
        let password = r.parameter("password") ?? ""
        guard !name.isEmpty,
            let user = context.world.users.first(where: {
                $0.mvpdID == idp.mvpdID && $0.name == name && $0.password == password
            })
        else {
            return loginPage(
                idp, samlRequest: encoded, relayState: relay, message: IdPFamily.invalidCredentials, in: context)
        }
        guard let acs = URLParts(request.assertionConsumerServiceURL), acs.isHTTP else {
            throw .badRequest("the AuthnRequest's AssertionConsumerServiceURL is not an http(s) URL")
        }
        let response = signIn(
            user, at: idp, inResponseTo: request.id, destination: request.assertionConsumerServiceURL,
            audience: request.issuer, in: &context, at: now)
        var fields = [
            FormField(name: "SAMLResponse", value: try IdPFamily.responseField(response, from: idp, in: &context))
        ]
        if let relay { fields.append(FormField(name: "RelayState", value: relay)) }
        return Reply.autoPost(
            title: "Signing you in", to: request.assertionConsumerServiceURL, fields: fields,
            bodyless: context.typedRun)
    }

    /// Opens an IdP session for `user` and answers with a successful SAML Response carrying an
    /// assertion valid 5 minutes (a login through the browser, or Apple's token for the device).
    /// An IdP set to misbehave with `expired` or `wrong-audience` writes the assertion that way.
    mutating func signIn(
        _ user: World.User, at idp: World.IdentityProvider, inResponseTo: String, destination: String,
        audience: String, in context: inout MockContext, at now: Instant
    ) -> SAMLResponse {
        var issued = now
        var audience = audience
        switch idp.saml {
        case .expired: issued = now + Millis(-IdPFamily.slowIdPClock.value)
        case .wrongAudience: audience = IdPFamily.foreignAudience
        case .signed, .unsigned, .tampered: break
        }
        let issuer = idp.url.withoutTrailingSlashes
        let session = IdPSession(
            mvpdID: idp.mvpdID, userName: user.name,
            nameID: nameID(mvpdID: idp.mvpdID, userName: user.name, random: &context.random),
            sessionIndex: "_" + context.random.hex(32))
        sessions.set(session.sessionIndex, session, until: now + context.limits.idpSessionTTL)
        let assertion = Assertion(
            id: context.samlID(), issueInstant: issued, issuer: issuer, nameID: session.nameID,
            sessionIndex: session.sessionIndex, notOnOrAfter: issued + IdPFamily.assertionLifetime,
            audience: audience, attributes: IdPFamily.attributes(of: user))
        return SAMLResponse(
            id: context.samlID(), inResponseTo: inResponseTo, issueInstant: now, issuer: issuer,
            destination: destination, success: true, assertion: assertion)
    }

    /// `POST {idp}/platform-sso` (username, password) → an unsolicited SAML Response (InResponseTo "",
    /// no Destination) for that user, valid 5 minutes; wrong credentials → 401.
    mutating func platformSSO(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let name = r.parameter("username") ?? ""
        let password = r.parameter("password") ?? ""
        guard !name.isEmpty, let user = context.world.user(mvpdID: idp.mvpdID, name: name), user.password == password
        else {
            throw .xml(401, IdPFamily.invalidCredentials)
        }
        let response = signIn(
            user, at: idp, inResponseTo: "", destination: "", audience: SDKFamily.platformAudience, in: &context,
            at: now)
        if let typed = try IdPFamily.typedResponse(response, from: idp, in: context) {
            // No body: the only reader, a typed run's device (`Simulator.userPick`), takes the value.
            return Reply.xml("", decoded: AppleToken(samlResponse: context.typedMessages.keep(typed)))
        }
        return Reply.xml(try IdPFamily.responseXML(response, from: idp, seed: context.seed))
    }

    /// How long an assertion is valid from its IssueInstant.
    static let assertionLifetime = Millis.minutes(5)
    /// How far behind the clock of an IdP with `saml expired` runs: more than `assertionLifetime`.
    static let slowIdPClock = Millis.minutes(10)
    /// The audience an IdP with `saml wrong-audience` writes: an SP that is none of ours.
    static let foreignAudience = "https://sp.other-federation.invalid"

    /// The SAMLResponse field of a browser login: a handle in a typed run (`typedResponse`), else
    /// base64 of the XML `responseXML` writes.
    static func responseField(
        _ response: SAMLResponse, from idp: World.IdentityProvider, in context: inout MockContext
    ) throws(HandlerFailure) -> String {
        if let typed = try typedResponse(response, from: idp, in: context) { return context.typedMessages.keep(typed) }
        return SAML.encodeForPost(try responseXML(response, from: idp, seed: context.seed))
    }

    /// In a typed run, where the IdP signs nothing: the Response as the SP would read it back from
    /// what `responseXML` writes (tampered as the bytes are), with what the SP's check of its
    /// signature would conclude. nil in any other run, or when the value would not read back exactly
    /// (`SAML.readsBack`): the bytes go then.
    static func typedResponse(_ response: SAMLResponse, from idp: World.IdentityProvider, in context: MockContext)
        throws(HandlerFailure) -> TypedSAML?
    {
        guard context.typedRun else { return nil }
        guard let index = IdPSigningKey.index(seed: context.seed, mvpdID: idp.mvpdID) else {
            throw IdPFamily.noSigningKey
        }
        let typed: TypedSAML
        switch idp.saml {
        case .unsigned: typed = .response(response, .unsigned)
        case .tampered: typed = .response(IdPFamily.tampered(response), .altered)
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
    static func responseXML(_ response: SAMLResponse, from idp: World.IdentityProvider, seed: UInt64)
        throws(HandlerFailure) -> String
    {
        guard let key = IdPSigningKey.key(seed: seed, mvpdID: idp.mvpdID) else { throw IdPFamily.noSigningKey }
        do throws(PassXMLError) {
            switch idp.saml {
            case .unsigned:
                return SAML.build(response)
            case .tampered:
                let signature = try SAML.assertionSignature(response, signer: key.signer)
                return SAML.build(IdPFamily.tampered(response), assertionSignature: signature)
            case .signed, .expired, .wrongAudience:
                return try SAML.build(response, signedBy: key.signer)
            }
        } catch {
            throw HandlerFailure(status: 500, message: "signing the SAML Response failed: \(error.message)")
        }
    }

    /// Ends the IdP sessions with the request's NameID and SessionIndex (none is fine: the answer is
    /// success either way) and answers at the issuer's logout-response endpoint.
    mutating func singleLogout(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLRequest")
        let request = try context.logoutRequest(encoded, r, at: now)
        guard let issuer = URLParts(request.issuer), issuer.isHTTP else {
            throw .badRequest("the LogoutRequest's issuer is not an http(s) URL")
        }
        if let session = sessions.value(request.sessionIndex, at: now),
            session.mvpdID == idp.mvpdID, session.nameID == request.nameID
        {
            sessions.remove(request.sessionIndex)
        }
        let destination = joinURL(request.issuer, ServiceRoute.logoutResponse.path())
        let response = LogoutResponse(
            id: context.samlID(), inResponseTo: request.id, issueInstant: now,
            issuer: idp.url.withoutTrailingSlashes, destination: destination, success: true)
        var fields = [
            FormField(
                name: "SAMLResponse", value: try context.samlField(.logoutResponse(response)) { SAML.build(response) })
        ]
        if let relay = r.parameter("RelayState") { fields.append(FormField(name: "RelayState", value: relay)) }
        return Reply.autoPost(title: "Signing out", to: destination, fields: fields, bodyless: context.typedRun)
    }

    /// A form the user fills in (not auto-submitted); the SAML fields ride along hidden.
    func loginPage(
        _ idp: World.IdentityProvider, samlRequest: String, relayState: String?, message: String?,
        in context: MockContext
    ) -> HTTPResponse {
        var fields = [
            FormField(name: "username", value: ""), FormField(name: "password", value: ""),
            FormField(name: "SAMLRequest", value: samlRequest),
        ]
        if let relayState { fields.append(FormField(name: "RelayState", value: relayState)) }
        let form = HTMLForm(
            action: joinURL(idp.url, IdPRoute.login.path), method: IdPRoute.login.method, fields: fields,
            autoSubmit: false)
        return Reply.page(
            HTMLPage(title: "Sign in to \(idp.mvpdID)", message: message, forms: [form]), bodyless: context.typedRun)
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
