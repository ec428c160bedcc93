import PassModel
import PassXML

/// The SP's endpoints (facts §1-4, §12), relative to its base URL and without a version segment.
extension MockPass {
    /// The one dispatch point of an SP's endpoints besides REST v1 and v2: one switch over what
    /// `prepare` recognised (`Endpoint`: paths matched exactly and case-sensitively, with no trailing
    /// slash and no percent-decoding, after `HostTable` dropped a `/1.0` segment and doubled slashes).
    /// Each family answers its refusals in its own form (`DeviceEndpoints.swift`, `WebEndpoints.swift`).
    mutating func handleServiceProvider(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch r.endpoint {
        case .route(let route, let parameter): return try handleRoute(route, parameter, sp, r, at: now)
        case .service(let service, _): return try handleService(service, sp, r, at: now)
        case .configFamily:
            // Under `/config/` but no requestor: the configuration's own 404, as it always answered.
            try r.expect(Route.config.method)
            throw .notFound()
        case .restV2, .idp, .unknown: throw .notFound(MockPass.spFamilies)
        }
    }

    /// The endpoints of `ServiceRoute` that are not REST v1's (`handleServiceProviderHost` took those).
    private mutating func handleService(
        _ service: ServiceRoute, _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch service {
        case .webSession, .webAuthorize, .webShortAuthorize, .webGetMetadata:
            return try handleWebEndpoint(service, sp, r, at: now)
        case .secondScreenLogin:
            try r.expect(service.method)
            return try authenticateWithCode(sp, r, at: now)
        case .assertionConsumer:
            try r.expect(service.method)
            return try assertionConsumer(sp, r, at: now)
        case .completePassiveAuthentication:
            try r.expect(service.method)
            return Reply.page(HTMLPage(title: "Passive authentication complete", forms: []), bodyless: typedRun)
        case .logoutResponse:
            try r.expect(service.method)
            return try logoutResponse(sp, r, at: now)
        case .individualisation:
            try r.expect(service.method)
            return try individualiseDevice(r)
        case .restCheckAuthentication, .restAuthorize, .restAuthzToken, .restMediaToken, .restMediaTokenOldName,
            .restPreauthorize, .restUserMetadata, .restFreePreview, .restConfig:
            // REST v1's, answered before this switch; not reached.
            throw .notFound(MockPass.spFamilies)
        }
    }

    /// The 404 body of an SP: what it does serve (docs/WIRE.md has the tables).
    static let spFamilies = """
        no such endpoint. This SP serves, under its base URL (optionally after /1.0): \
        SDK device family: config/{requestor}, authenticate/saml, sessionDevice, authorizeDevice, \
        deviceShortAuthorize, preauthorize, getMetadataDevice, usermetadata, logout, \
        completePassiveAuthentication; \
        web family: session, authorize, shortAuthorize, preauthorize, getMetadata, usermetadata, logout; \
        SAML: sp/saml/SAMLAssertionConsumer, sp/saml/LogoutServiceHTTPRedirectResponse; \
        authenticate/freepreview; at its origin's root: o/client/register, o/client/token, indiv/devices, \
        reggie/v1/{requestor}/regcode, and the REST API v1 (api/v1/config, authenticate, checkauthn, \
        tokens/authn, authorize, tokens/authz, tokens/media, mediatoken, preauthorize, logout, \
        tokens/usermetadata, authenticate/freepreview). See docs/WIRE.md.
        """

    /// The configuration XML. The requestor's name is its id and `device`/`clientType`/`os` are left
    /// out: the world holds neither, and the engine takes them from its own options.
    /// The answer depends only on the (immutable) world, the SP and the requestor, so it is built once
    /// per pair and kept (building it was most of the cost of a `/config` request). Only answers for
    /// declared requestors are kept, so what a client can make the mock store stays bounded.
    mutating func config(_ sp: World.ServiceProvider, requestorID: String) throws(HandlerFailure) -> HTTPResponse {
        let key = SDKState.ConfigKey(spName: sp.name, requestorID: requestorID)
        if let cached = sdk.configResponses[key] { return cached }
        guard !requestorID.isEmpty, !requestorID.contains("/") else { throw .notFound() }
        guard let requestor = world.requestor(requestorID), requestor.isAt(sp) else {
            throw .notFound("unknown requestor \(requestorID)")
        }
        let c = SPConfiguration(
            requestorID: requestor.id, requestorName: requestor.id,
            mvpds: world.mvpds(offeredBy: sp, to: requestor))
        let response: HTTPResponse
        if typedRun, ConfigurationXML.readsBack(c) {
            // A typed run's engine reads the value; the bytes would parse back to it exactly.
            response = Reply.xml("", decoded: c)
        } else {
            let body = ConfigurationXML.build(c)
            // Read back from its own bytes, once per pair as the answer is kept: exactly what a reader parses.
            response = Reply.xml(body, decoded: try? ConfigurationXML.parse(Array(body.utf8)))
        }
        sdk.configResponses[key] = response
        return response
    }

    /// Starts (or restarts) the cookie's login session and sends the browser to the MVPD's IdP.
    /// Restarting forgets any earlier authentication and token of that session: the new login may
    /// be for another MVPD or requestor. An MVPD without an IdP (a TempPass) is refused with 400.
    /// `domain_name`, `client_type` and friends are only logged.
    mutating func authenticate(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor_id")
        let mvpdID = try r.required("mso_id")
        let redirectURL = try r.required("redirect_url")
        // yt-dlp since 2025-05 starts the login with its registration code, then finds it by that code.
        let regCode = r.parameter("reg_code").flatMap { $0.isEmpty ? nil : $0 }
        if let regCode { try requireLiveCode(regCode, requestorID: requestorID, at: now) }
        // REST v2's `authenticate/{sp}/{code}` redirects here, its code in a cookie (`v2LoginLink`).
        let v2 = v2LoginLink(r.cookies, requestorID: requestorID, mvpdID: mvpdID, at: now)
        return try startLogin(
            sp, r, requestorID: requestorID, mvpdID: mvpdID, redirectURL: redirectURL,
            regCode: regCode, v2: v2, at: now)
    }

    /// The login both `authenticate/saml` and the second screen's `/api/v1/authenticate` start.
    mutating func startLogin(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, requestorID: String, mvpdID: String,
        redirectURL: String, regCode: String?, v2: V2LoginLink? = nil,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        guard let requestor = world.requestor(requestorID), requestor.isAt(sp) else {
            throw .badRequest("unknown requestor \(requestorID)")
        }
        guard world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }) else {
            throw .badRequest("MVPD \(mvpdID) is not offered to \(requestorID)")
        }
        guard let idp = world.identityProvider(for: mvpdID) else {
            throw .badRequest("MVPD \(mvpdID) has no identity provider")
        }
        let existing = loginSession(of: sp, cookies: r.cookies, at: now)
        let sessionID = existing?.id ?? random.hex(32)
        let sso = joinURL(idp.url, IdPRoute.sso.path)
        let request = AuthnRequest(
            id: samlID(), issueInstant: now, issuer: sp.url.withoutTrailingSlashes,
            destination: sso,
            assertionConsumerServiceURL: joinURL(sp.url, ServiceRoute.assertionConsumer.path()),
            forceAuthn: false)
        sdk.loginSessions.set(
            sessionID,
            LoginSession(
                id: sessionID, spName: sp.name, requestorID: requestorID, mvpdID: mvpdID, redirectURL: redirectURL,
                pendingAuthnRequestID: request.id, regCode: regCode, v2: v2), until: now + limits.loginSessionTTL)
        let field = try samlField(.authnRequest(request)) { SAML.build(request) }
        return Reply.autoPost(
            title: "Redirecting to your TV provider", to: sso,
            fields: [
                FormField(name: "SAMLRequest", value: field),
                FormField(name: "RelayState", value: sessionID),
            ],
            headers: [("Set-Cookie", Cookies.setSession(sessionID))], bodyless: typedRun)
    }

    /// Accepts the IdP's answer. The session comes from the cookie, else from RelayState (then the
    /// cookie is set again, so the following `sessionDevice` finds it). A session accepts one answer
    /// per AuthnRequest: a replayed SAMLResponse is refused. The user is the one the mock's IdP gave
    /// the assertion's NameID to; a NameID it never issued for this MVPD is refused. A second-screen
    /// login also uses up its registration code and binds the user to the code's device.
    mutating func assertionConsumer(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLResponse")
        let byCookie = loginSession(of: sp, cookies: r.cookies, at: now)
        let byRelay = r.parameter("RelayState").flatMap { id in
            sdk.loginSessions.value(id, at: now).flatMap { $0.spName == sp.name ? $0 : nil }
        }
        guard var session = byCookie ?? byRelay else { throw .badRequest("no login session for this browser") }
        let (response, verdict) = try samlResponse(encoded, r, at: now)
        guard let pending = session.pendingAuthnRequestID else {
            throw .badRequest("no login is pending in this session")
        }
        guard response.inResponseTo == pending else {
            throw .badRequest("InResponseTo does not match the pending AuthnRequest")
        }
        guard let idp = world.identityProvider(for: session.mvpdID),
            response.issuer == idp.url.withoutTrailingSlashes
        else {
            throw .badRequest("issuer is not the identity provider of \(session.mvpdID)")
        }
        guard response.success else { throw .badRequest("the identity provider refused the login") }
        guard let assertion = response.assertion else { throw .badRequest("the response has no assertion") }
        if let problem = assertionProblem(
            assertion, verdict: verdict, from: idp, audience: sp.url.withoutTrailingSlashes,
            at: now)
        {
            throw .badRequest(problem)
        }
        guard let user = idps.usersByNameID[assertion.nameID], user.mvpdID == session.mvpdID else {
            throw .badRequest("unknown NameID")
        }
        if let link = session.v2 {
            // A REST v2 login gives the v2 session's device a profile and nothing else: the SP's
            // browser session ends here, so no SDK or v1 call can use it (rest-api-v2.md 1.1).
            try completeV2Login(
                link, user: user, assertion: assertion, mvpdID: session.mvpdID, browser: session.id, at: now)
            sdk.loginSessions.remove(session.id)
            return .redirect(session.redirectURL, headers: [("Set-Cookie", MockPass.v2EndLoginCookie(sp))])
        }
        if let code = session.regCode {
            try completeCodeLogin(code, user: user, assertion: assertion, mvpdID: session.mvpdID, at: now)
            session.regCode = nil
        }
        session.pendingAuthnRequestID = nil
        session.authentication = .init(
            userName: user.userName, nameID: assertion.nameID,
            sessionIndex: assertion.sessionIndex)
        session.token = nil
        // Authenticated, the session lasts as long as the authN token it will give out.
        let authnTTL = world.requestor(session.requestorID)?.authnTTL ?? .hours(24)
        sdk.loginSessions.set(session.id, session, until: now + max(authnTTL, limits.loginSessionTTL))
        var headers: HTTPHeaders = []
        if byCookie == nil { headers.add("Set-Cookie", Cookies.setSession(session.id)) }
        return .redirect(session.redirectURL, headers: headers)
    }

    /// `sessionDevice`: the token of `currentLogin`, else `<result/>` (what the engine reads as
    /// "no token"). A `reg_code` whose login has not completed is 401 "Data not found".
    mutating func sessionDevice(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch currentLogin(sp, r, at: now) {
        case .token(let token, let subject): return tokenReply(token, subject: subject, at: now)
        case .pendingLogout:
            return Reply.xml(
                SessionDeviceXML.build(.pendingLogout), decoded: SessionDeviceXML.Answer(content: .pendingLogout))
        case .none: return Reply.xml(SessionDeviceXML.build(.none), decoded: SessionDeviceXML.Answer(content: .none))
        case .codeNotFound: throw .xml(401, MockPass.dataNotFound)
        }
    }

    enum CurrentLogin {
        case token(AuthnToken, TokenSubject)
        /// The cookie's login is being logged out through its IdP (from another client).
        case pendingLogout
        case none
        /// A `reg_code` was sent and no completed login is bound to it.
        case codeNotFound
    }

    /// The authN token of the login a request belongs to, looked up in order: the cookie's
    /// authenticated SP session; the login started with `reg_code` (found by the code alone, from a
    /// client without the browser's cookies: the second-screen model); the device-bound session of
    /// (`device_id`, `requestor_id`).
    /// A cookie session's token is made on the first request and handed out again (by both
    /// families); once it has expired the SP session is over. Its requestor and TTL are the login's;
    /// the request's `requestor_id` is only logged. Without a `device_id` (web clients) the token
    /// carries a fresh `web-…` id (CONFORMANCE.md, "Tokens without a device id").
    mutating func currentLogin(_ sp: World.ServiceProvider, _ r: IncomingRequest, at now: Instant) -> CurrentLogin {
        if var session = loginSession(of: sp, cookies: r.cookies, at: now), let auth = session.authentication {
            let user = IdPState.UserKey(mvpdID: session.mvpdID, userName: auth.userName)
            let saml = SAMLSessionKey(nameID: auth.nameID, sessionIndex: auth.sessionIndex)
            if sdk.pendingLogouts.value(saml, at: now) != nil { return .pendingLogout }
            if let token = session.token {
                if now < token.expires { return .token(token, .user(user)) }
                session.authentication = nil
                session.token = nil
                sdk.loginSessions.set(session.id, session, until: now + limits.loginSessionTTL)
            } else {
                let ttl = world.requestor(session.requestorID)?.authnTTL ?? .hours(24)
                let deviceID =
                    r.parameter("device_id").flatMap { $0.isEmpty ? nil : $0 }
                    ?? MockPass.webDevicePrefix + random.hex(16)
                let token = AuthnToken(
                    guid: random.guid(), requestorID: session.requestorID, domainName: "adobe.com",
                    expires: (now + ttl).wholeSeconds, mvpdID: session.mvpdID,
                    deviceID: deviceID, nameID: auth.nameID, sessionIndex: auth.sessionIndex)
                session.token = token
                sdk.loginSessions.set(session.id, session, until: max(token.expires, now + limits.loginSessionTTL))
                sdk.issuedAuthn.set(token.guid, IssuedAuthn(token: token, subject: .user(user)), until: token.expires)
                return .token(token, .user(user))
            }
        }
        if let code = r.parameter("reg_code"), !code.isEmpty {
            guard let rc = sdk.registrationCodes.value(code, at: now), rc.usedWithMVPD != nil,
                let bound = sdk.deviceSessions.value(
                    DeviceKey(deviceID: rc.deviceID, requestorID: rc.requestorID), at: now),
                now < bound.token.expires
            else { return .codeNotFound }
            return .token(bound.token, bound.subject)
        }
        if let bound = deviceBoundSession(r, at: now) { return .token(bound.token, bound.subject) }
        return .none
    }

    /// What real servers answer for a session they do not hold (a client documents it).
    static let dataNotFound = "Data not found"
    /// The device id of a token issued to a client that sent none.
    static let webDevicePrefix = "web-"

    /// Logs out. The cookie's SP session ends at once (whatever the browser does next); sessions
    /// found by NameID and SessionIndex answer `<pendingLogout>` until the IdP answers, then end. The SAML round trip happens only
    /// for an MVPD of this SP that has an IdP; `redirect_url` is required either way.
    mutating func logout(_ sp: World.ServiceProvider, _ r: IncomingRequest, at now: Instant) throws(HandlerFailure)
        -> HTTPResponse
    {
        // A REST v2 single logout names the device (`pt_device_id`); its subscriber and redirect
        // were kept when the logout was asked for (`v2Logout`).
        let single = r.parameter("pt_device_id").flatMap { v2.ssoLogouts.value($0, at: now) }
        if let id = r.parameter("pt_device_id"), single != nil { v2.ssoLogouts.remove(id) }
        let redirectURL: String
        if let stored = single?.redirectURL, r.parameter("redirect_url") == nil {
            redirectURL = stored
        } else {
            redirectURL = try r.required("redirect_url")
        }
        if let session = loginSession(of: sp, cookies: r.cookies, at: now) { sdk.loginSessions.remove(session.id) }
        // A REST v2 login made in this browser (Adobe's logout URL names no session): by its cookie.
        let browserID = r.cookies.values(Cookies.sessionName).last {
            v2.browserLogins.value($0, at: now)?.mvpdID == r.parameter("mso_id")
        }
        let browser = browserID.flatMap { v2.browserLogins.value($0, at: now) }
        if let browserID { v2.browserLogins.remove(browserID) }
        guard let mvpdID = r.parameter("mso_id"), sp.mvpds.contains(where: { $0.id == mvpdID }),
            let idp = world.identityProvider(for: mvpdID),
            let nameID = single?.subscriber.nameID ?? r.parameter("name_id") ?? browser?.subscriber.nameID,
            !nameID.isEmpty,
            let sessionIndex = single?.subscriber.sessionIndex ?? r.parameter("session_index")
                ?? browser?.subscriber.sessionIndex, !sessionIndex.isEmpty
        else {
            return .redirect(redirectURL)
        }
        let slo = joinURL(idp.url, IdPRoute.slo.path)
        let request = LogoutRequest(
            id: samlID(), issueInstant: now, issuer: sp.url.withoutTrailingSlashes,
            destination: slo, nameID: nameID, sessionIndex: sessionIndex)
        let relay = random.hex(32)
        sdk.logoutSessions.set(
            relay,
            LogoutSession(
                id: relay, spName: sp.name, redirectURL: redirectURL,
                logoutRequestID: request.id, nameID: nameID, sessionIndex: sessionIndex),
            until: now + limits.logoutSessionTTL)
        sdk.pendingLogouts.set(
            SAMLSessionKey(nameID: nameID, sessionIndex: sessionIndex), true,
            until: now + limits.logoutSessionTTL)
        let field = try samlField(.logoutRequest(request)) { SAML.build(request) }
        return Reply.autoPost(
            title: "Signing out of your TV provider", to: slo,
            fields: [
                FormField(name: "SAMLRequest", value: field),
                FormField(name: "RelayState", value: relay),
            ],
            bodyless: typedRun)
    }

    /// Ends a logout: the LogoutResponse must answer the logout session's LogoutRequest. Every SP
    /// login session (of any SP) with that NameID and SessionIndex ends. The IdP's success flag is
    /// not checked: the user is logged out of the SP either way.
    mutating func logoutResponse(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLResponse")
        let relay = try r.required("RelayState")
        guard let logout = sdk.logoutSessions.value(relay, at: now), logout.spName == sp.name else {
            throw .badRequest("no logout in progress for this RelayState")
        }
        let response = try logoutResponse(encoded, r, at: now)
        guard response.inResponseTo == logout.logoutRequestID else {
            throw .badRequest("InResponseTo does not match the LogoutRequest")
        }
        sdk.logoutSessions.remove(relay)
        sdk.pendingLogouts.remove(SAMLSessionKey(nameID: logout.nameID, sessionIndex: logout.sessionIndex))
        sdk.loginSessions.removeAll { _, s in
            s.authentication.map { $0.nameID == logout.nameID && $0.sessionIndex == logout.sessionIndex } ?? false
        }
        return .redirect(logout.redirectURL)
    }

    /// Why an SP refuses `assertion` from `idp` (nil: it accepts it), checked in this order: signed
    /// with the IdP's key (digest, then signature; the key is the one the SP knows for that IdP,
    /// never one the message carries), meant for `audience`, not expired at `now`. `verdict`: a
    /// typed run's, standing for the parsed signature's check (the same refusals, in the same order).
    func assertionProblem(
        _ assertion: Assertion, verdict: SignatureVerdict? = nil, from idp: World.IdentityProvider,
        audience: String, at now: Instant
    ) -> String? {
        if verdict == .unsigned || (verdict == nil && assertion.signature == nil) {
            return "the assertion is not signed"
        }
        guard let index = IdPSigningKey.index(seed: seed, mvpdID: idp.mvpdID) else {
            return "no signing key is known for the identity provider of \(idp.mvpdID)"
        }
        switch verdict {
        case .signed(let signer)?:
            // The digest holds whoever signed; the signature only with the SP's key for this IdP.
            if signer != index { return IdPSigningKey.signatureMismatch }
        case .altered?:
            return IdPSigningKey.digestMismatch
        case .unsigned?, nil:
            if let signed = assertion.signature, let problem = IdPSigningKey.pool[index].problem(with: signed) {
                return problem
            }
        }
        guard assertion.audience == audience else {
            return "the assertion is for the audience \(assertion.audience), not \(audience)"
        }
        guard now < assertion.notOnOrAfter else { return "the assertion has expired" }
        return nil
    }

    /// The first `JSESSIONID` cookie that names a session of this SP.
    func loginSession(of sp: World.ServiceProvider, cookies: Cookies, at now: Instant) -> LoginSession? {
        for id in cookies.values(Cookies.sessionName) {
            if let s = sdk.loginSessions.value(id, at: now), s.spName == sp.name { return s }
        }
        return nil
    }
}
