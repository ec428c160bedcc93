import PassModel
import PassXML

/// The SP's configuration and its SAML login and logout (facts §1-4, §12), relative to its base URL
/// and without a version segment.
extension SDKFamily {
    /// The configuration XML. The requestor's name is its id and `device`/`clientType`/`os` are left
    /// out: the world holds neither, and the engine takes them from its own options.
    /// The answer depends only on the (immutable) world, the SP and the requestor, so it is built once
    /// per pair and kept (building it was most of the cost of a `/config` request). Only answers for
    /// declared requestors are kept, so what a client can make the mock store stays bounded.
    mutating func config(_ sp: World.ServiceProvider, requestorID: String, in context: MockContext)
        throws(HandlerFailure) -> HTTPResponse
    {
        let key = SDKFamily.ConfigKey(spName: sp.name, requestorID: requestorID)
        if let cached = configResponses[key] { return cached }
        // `literalRange`: what Foundation's `contains` finds, without bridging the text per request.
        guard !requestorID.isEmpty, requestorID.literalRange(of: "/") == nil else { throw .notFound() }
        guard let requestor = context.world.requestor(requestorID), requestor.isAt(sp) else {
            throw .notFound("unknown requestor \(requestorID)")
        }
        let c = SPConfiguration(
            requestorID: requestor.id, requestorName: requestor.id,
            mvpds: context.world.mvpds(offeredBy: sp, to: requestor))
        let response: HTTPResponse
        if context.typedRun, ConfigurationXML.readsBack(c) {
            // A typed run's engine reads the value; the bytes would parse back to it exactly.
            response = Reply.xml("", decoded: c)
        } else {
            let body = ConfigurationXML.build(c)
            // Read back from its own bytes, once per pair as the answer is kept: exactly what a reader parses.
            response = Reply.xml(body, decoded: try? ConfigurationXML.parse(Array(body.utf8)))
        }
        configResponses[key] = response
        return response
    }

    /// Starts (or restarts) the cookie's login session and sends the browser to the MVPD's IdP.
    /// Restarting forgets any earlier authentication and token of that session: the new login may
    /// be for another MVPD or requestor. An MVPD without an IdP (a TempPass) is refused with 400.
    /// `domain_name`, `client_type` and friends are only logged. `v2`: the REST v2 session whose
    /// user agent this is, if any (read only: the login completes it, `assertionConsumer`).
    mutating func authenticate(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, v2: RESTv2Family,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor_id")
        let mvpdID = try r.required("mso_id")
        let redirectURL = try r.required("redirect_url")
        // yt-dlp since 2025-05 starts the login with its registration code, then finds it by that code.
        let regCode = r.parameter("reg_code").flatMap { $0.isEmpty ? nil : $0 }
        if let regCode { try requireLiveCode(regCode, requestorID: requestorID, at: now) }
        // REST v2's `authenticate/{sp}/{code}` redirects here, its code in a cookie (`loginLink`).
        let link = v2.loginLink(r.cookies, requestorID: requestorID, mvpdID: mvpdID, at: now)
        return try startLogin(
            sp, r, requestorID: requestorID, mvpdID: mvpdID, redirectURL: redirectURL,
            regCode: regCode, v2: link, in: &context, at: now)
    }

    /// The login both `authenticate/saml` and the second screen's `/api/v1/authenticate` start.
    mutating func startLogin(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, requestorID: String, mvpdID: String,
        redirectURL: String, regCode: String?, v2: V2LoginLink? = nil, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        guard let requestor = context.world.requestor(requestorID), requestor.isAt(sp) else {
            throw .badRequest("unknown requestor \(requestorID)")
        }
        guard context.world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }) else {
            throw .badRequest("MVPD \(mvpdID) is not offered to \(requestorID)")
        }
        guard let idp = context.world.identityProvider(for: mvpdID) else {
            throw .badRequest("MVPD \(mvpdID) has no identity provider")
        }
        let existing = loginSession(of: sp, cookies: r.cookies, at: now)
        let sessionID = existing?.id ?? context.random.hex(32)
        let sso = joinURL(idp.url, IdPRoute.sso.path)
        let request = AuthnRequest(
            id: context.samlID(), issueInstant: now, issuer: sp.url.withoutTrailingSlashes,
            destination: sso,
            assertionConsumerServiceURL: joinURL(sp.url, ServiceRoute.assertionConsumer.path()),
            forceAuthn: false)
        loginSessions.set(
            sessionID,
            LoginSession(
                id: sessionID, spName: sp.name, requestorID: requestorID, mvpdID: mvpdID, redirectURL: redirectURL,
                pendingAuthnRequestID: request.id, regCode: regCode, v2: v2),
            until: now + context.limits.loginSessionTTL)
        let field = try context.samlField(.authnRequest(request)) { SAML.build(request) }
        return Reply.autoPost(
            title: "Redirecting to your TV provider", to: sso,
            fields: [
                FormField(name: "SAMLRequest", value: field),
                FormField(name: "RelayState", value: sessionID),
            ],
            headers: [("Set-Cookie", Cookies.setSession(sessionID))], bodyless: context.typedRun)
    }

    /// Accepts the IdP's answer. The session comes from the cookie, else from RelayState (then the
    /// cookie is set again, so the following `sessionDevice` finds it). A session accepts one answer
    /// per AuthnRequest: a replayed SAMLResponse is refused. The user is the one the mock's IdP gave
    /// the assertion's NameID to; a NameID it never issued for this MVPD is refused. A second-screen
    /// login also uses up its registration code and binds the user to the code's device.
    /// `idps`: whose NameIDs name the users; `v2`: where a REST v2 session's login completes.
    mutating func assertionConsumer(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, idps: IdPFamily,
        v2: inout RESTv2Family, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLResponse")
        let byCookie = loginSession(of: sp, cookies: r.cookies, at: now)
        let byRelay = r.parameter("RelayState").flatMap { id in
            loginSessions.value(id, at: now).flatMap { $0.spName == sp.name ? $0 : nil }
        }
        guard var session = byCookie ?? byRelay else { throw .badRequest("no login session for this browser") }
        let (response, verdict) = try context.samlResponse(encoded, r, at: now)
        guard let pending = session.pendingAuthnRequestID else {
            throw .badRequest("no login is pending in this session")
        }
        guard response.inResponseTo == pending else {
            throw .badRequest("InResponseTo does not match the pending AuthnRequest")
        }
        guard let idp = context.world.identityProvider(for: session.mvpdID),
            response.issuer == idp.url.withoutTrailingSlashes
        else {
            throw .badRequest("issuer is not the identity provider of \(session.mvpdID)")
        }
        guard response.success else { throw .badRequest("the identity provider refused the login") }
        guard let assertion = response.assertion else { throw .badRequest("the response has no assertion") }
        if let problem = context.assertionProblem(
            assertion, verdict: verdict, from: idp, audience: sp.url.withoutTrailingSlashes,
            at: now)
        {
            throw .badRequest(problem)
        }
        guard let user = idps.user(nameID: assertion.nameID), user.mvpdID == session.mvpdID else {
            throw .badRequest("unknown NameID")
        }
        if let link = session.v2 {
            // A REST v2 login gives the v2 session's device a profile and nothing else: the SP's
            // browser session ends here, so no SDK or v1 call can use it (rest-api-v2.md 1.1).
            try v2.completeLogin(
                link, user: user, assertion: assertion, mvpdID: session.mvpdID, browser: session.id, in: context,
                at: now)
            loginSessions.remove(session.id)
            return .redirect(session.redirectURL, headers: [("Set-Cookie", RESTv2Family.v2EndLoginCookie(sp))])
        }
        if let code = session.regCode {
            try completeCodeLogin(
                code, user: user, assertion: assertion, mvpdID: session.mvpdID, in: &context, at: now)
            session.regCode = nil
        }
        session.pendingAuthnRequestID = nil
        session.authentication = .init(
            userName: user.userName, nameID: assertion.nameID,
            sessionIndex: assertion.sessionIndex)
        session.token = nil
        // Authenticated, the session lasts as long as the authN token it will give out.
        let authnTTL = context.world.requestor(session.requestorID)?.authnTTL ?? .hours(24)
        loginSessions.set(session.id, session, until: now + max(authnTTL, context.limits.loginSessionTTL))
        var headers: HTTPHeaders = []
        if byCookie == nil { headers.add("Set-Cookie", Cookies.setSession(session.id)) }
        return .redirect(session.redirectURL, headers: headers)
    }

    /// `sessionDevice`: the token of `currentLogin`, else `<result/>` (what the engine reads as
    /// "no token"). A `reg_code` whose login has not completed is 401 "Data not found".
    mutating func sessionDevice(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch currentLogin(sp, r, in: &context, at: now) {
        case .token(let token, let subject): return tokenReply(token, subject: subject, in: context, at: now)
        case .pendingLogout:
            return Reply.xml(
                SessionDeviceXML.build(.pendingLogout), decoded: SessionDeviceXML.Answer(content: .pendingLogout))
        case .none: return Reply.xml(SessionDeviceXML.build(.none), decoded: SessionDeviceXML.Answer(content: .none))
        case .codeNotFound: throw .xml(401, SDKFamily.dataNotFound)
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
    mutating func currentLogin(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) -> CurrentLogin {
        if var session = loginSession(of: sp, cookies: r.cookies, at: now), let auth = session.authentication {
            let user = IdPFamily.UserKey(mvpdID: session.mvpdID, userName: auth.userName)
            let saml = SAMLSessionKey(nameID: auth.nameID, sessionIndex: auth.sessionIndex)
            if pendingLogouts.value(saml, at: now) != nil { return .pendingLogout }
            if let token = session.token {
                if now < token.expires { return .token(token, .user(user)) }
                session.authentication = nil
                session.token = nil
                loginSessions.set(session.id, session, until: now + context.limits.loginSessionTTL)
            } else {
                let ttl = context.world.requestor(session.requestorID)?.authnTTL ?? .hours(24)
                let deviceID =
                    r.parameter("device_id").flatMap { $0.isEmpty ? nil : $0 }
                    ?? SDKFamily.webDevicePrefix + context.random.hex(16)
                let token = AuthnToken(
                    guid: context.random.guid(), requestorID: session.requestorID, domainName: "adobe.com",
                    expires: (now + ttl).wholeSeconds, mvpdID: session.mvpdID,
                    deviceID: deviceID, nameID: auth.nameID, sessionIndex: auth.sessionIndex)
                session.token = token
                loginSessions.set(session.id, session, until: max(token.expires, now + context.limits.loginSessionTTL))
                issuedAuthn.set(token.guid, IssuedAuthn(token: token, subject: .user(user)), until: token.expires)
                return .token(token, .user(user))
            }
        }
        if let code = r.parameter("reg_code"), !code.isEmpty {
            guard let rc = registrationCodes.value(code, at: now), rc.usedWithMVPD != nil,
                let bound = deviceSessions.value(
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
    /// for an MVPD of this SP that has an IdP; `redirect_url` is required either way. `v2`: the REST
    /// v2 logouts this page ends (a single logout by its device, a login by the browser's cookie).
    mutating func logout(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, v2: inout RESTv2Family,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        // A REST v2 single logout names the device (`pt_device_id`); its subscriber and redirect
        // were kept when the logout was asked for (`v2Logout`).
        let single = r.parameter("pt_device_id").flatMap { v2.takeSSOLogout($0, at: now) }
        let redirectURL: String
        if let stored = single?.redirectURL, r.parameter("redirect_url") == nil {
            redirectURL = stored
        } else {
            redirectURL = try r.required("redirect_url")
        }
        if let session = loginSession(of: sp, cookies: r.cookies, at: now) { loginSessions.remove(session.id) }
        // A REST v2 login made in this browser (Adobe's logout URL names no session): by its cookie.
        let browser = v2.takeBrowserLogin(
            cookies: r.cookies.values(Cookies.sessionName), mvpdID: r.parameter("mso_id"), at: now)
        guard let mvpdID = r.parameter("mso_id"), sp.mvpds.contains(where: { $0.id == mvpdID }),
            let idp = context.world.identityProvider(for: mvpdID),
            let nameID = single?.subscriber.nameID ?? r.parameter("name_id") ?? browser?.subscriber.nameID,
            !nameID.isEmpty,
            let sessionIndex = single?.subscriber.sessionIndex ?? r.parameter("session_index")
                ?? browser?.subscriber.sessionIndex, !sessionIndex.isEmpty
        else {
            return .redirect(redirectURL)
        }
        let slo = joinURL(idp.url, IdPRoute.slo.path)
        let request = LogoutRequest(
            id: context.samlID(), issueInstant: now, issuer: sp.url.withoutTrailingSlashes,
            destination: slo, nameID: nameID, sessionIndex: sessionIndex)
        let relay = context.random.hex(32)
        logoutSessions.set(
            relay,
            LogoutSession(
                id: relay, spName: sp.name, redirectURL: redirectURL,
                logoutRequestID: request.id, nameID: nameID, sessionIndex: sessionIndex),
            until: now + context.limits.logoutSessionTTL)
        pendingLogouts.set(
            SAMLSessionKey(nameID: nameID, sessionIndex: sessionIndex), true,
            until: now + context.limits.logoutSessionTTL)
        let field = try context.samlField(.logoutRequest(request)) { SAML.build(request) }
        return Reply.autoPost(
            title: "Signing out of your TV provider", to: slo,
            fields: [
                FormField(name: "SAMLRequest", value: field),
                FormField(name: "RelayState", value: relay),
            ],
            bodyless: context.typedRun)
    }

    /// Ends a logout: the LogoutResponse must answer the logout session's LogoutRequest. Every SP
    /// login session (of any SP) with that NameID and SessionIndex ends. The IdP's success flag is
    /// not checked: the user is logged out of the SP either way.
    mutating func logoutResponse(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let encoded = try r.required("SAMLResponse")
        let relay = try r.required("RelayState")
        guard let logout = logoutSessions.value(relay, at: now), logout.spName == sp.name else {
            throw .badRequest("no logout in progress for this RelayState")
        }
        let response = try context.logoutResponse(encoded, r, at: now)
        guard response.inResponseTo == logout.logoutRequestID else {
            throw .badRequest("InResponseTo does not match the LogoutRequest")
        }
        logoutSessions.remove(relay)
        pendingLogouts.remove(SAMLSessionKey(nameID: logout.nameID, sessionIndex: logout.sessionIndex))
        loginSessions.removeAll { _, s in
            s.authentication.map { $0.nameID == logout.nameID && $0.sessionIndex == logout.sessionIndex } ?? false
        }
        return .redirect(logout.redirectURL)
    }

    /// The first `JSESSIONID` cookie that names a session of this SP.
    func loginSession(of sp: World.ServiceProvider, cookies: Cookies, at now: Instant) -> LoginSession? {
        for id in cookies.values(Cookies.sessionName) {
            if let s = loginSessions.value(id, at: now), s.spName == sp.name { return s }
        }
        return nil
    }
}
