import PassModel
import PassXML

/// Authentication sessions and the user agent's way to the MVPD.
extension RESTv2Family {
    /// `POST /{sp}/sessions` (form `mvpd`, `domainName`, `redirectUrl`, each optional). A device that
    /// already has a live profile for the MVPD, a TempPass and an `authenticate-all` degraded MVPD
    /// answer `authorize` at once; otherwise a session code, `resume` while parameters are missing,
    /// `authenticate` with the user agent's URL when none is.
    mutating func v2CreateSession(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let device = try V2Device.from(r.request.headers)
        let parameters = V2SessionParameters.from(r)
        if let redirect = parameters.redirectUrl { try Self.v2CheckRedirect(redirect) }
        if let mvpdID = parameters.mvpd {
            let mvpd = try v2MVPD(mvpdID, sp, requestor, in: context)
            if let direct = try v2DirectAccess(mvpd, requestor, deviceID: device.id, r, in: &context, at: now) {
                return direct
            }
        }
        let sso = r.request.headers.ssoIdentities(context.world.restV2, at: now)
        // Stored first, then answered: as the argument of a method of `self`, the store's change was
        // made on a copy of the family held for that call, and so copied the whole session store
        // (20,000 sessions) on every new session once it was full.
        let session = v2NewSession(sp, requestor, device, parameters, sso: sso, in: &context, at: now)
        return v2SessionAnswer(session, missingAction: "resume")
    }

    /// A new authentication session under a fresh code, stored.
    mutating func v2NewSession(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, _ device: V2Device,
        _ parameters: V2SessionParameters, sso: [V2SSOIdentity] = [], in context: inout MockContext, at now: Instant
    ) -> V2AuthSession {
        var code = context.random.code(V2Limits.codeLength)
        while sessions.value(code, at: now) != nil { code = context.random.code(V2Limits.codeLength) }
        let session = V2AuthSession(
            code: code, sessionID: context.random.guid(), requestorID: requestor.id, spName: sp.name,
            deviceID: device.id, deviceInfo: device.info, parameters: parameters, notBefore: now,
            notAfter: now + context.world.restV2.sessionTTL, state: parameters.missing.isEmpty ? .ready : .collecting,
            sso: sso)
        sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
        return session
    }

    /// `POST /{sp}/sessions/{code}`: adds the parameters given that the session lacks; one it has,
    /// given with another value, is refused (`V2SessionParameters.conflict`). Still incomplete →
    /// `retry` with what is missing; complete → as a new session would answer.
    mutating func v2ResumeSession(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, code: String,
        _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        var session = try v2Session(code, requestor, at: now)
        let given = V2SessionParameters.from(r)
        if let redirect = given.redirectUrl { try Self.v2CheckRedirect(redirect) }
        if let conflict = session.parameters.conflict(with: given) { throw conflict }
        let merged = session.parameters.merged(with: given)
        if let mvpdID = merged.mvpd {
            let mvpd = try v2MVPD(mvpdID, sp, requestor, in: context)
            if let direct = try v2DirectAccess(mvpd, requestor, deviceID: session.deviceID, r, in: &context, at: now) {
                // The code lives on: `profiles/code/{code}` answers the profile it ended with, as a
                // login's does (Adobe's profiles-by-code samples for TempPass and degradation).
                session.parameters = merged
                session.state = .authenticated(V2AuthSession.Authenticated(mvpdID: mvpdID, at: now))
                sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
                return direct
            }
        }
        if case .collecting = session.state {
            session.state = merged.missing.isEmpty ? .ready : .collecting
        }
        session.parameters = merged
        for identity in r.request.headers.ssoIdentities(context.world.restV2, at: now)
        where !session.sso.contains(identity) {
            session.sso.append(identity)
        }
        sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
        return v2SessionAnswer(session, missingAction: "retry")
    }

    /// `GET /{sp}/sessions/{code}`: what the session holds, for a second screen to show: the
    /// parameters given (and the programmer, `serviceProvider`, as Adobe's samples list it), those
    /// missing, and the device that made the session as Adobe describes it (`V2Device.described`).
    func v2SessionStatus(_ requestor: World.Requestor, code: String, at now: Instant) throws(V2Failure) -> HTTPResponse
    {
        let session = try v2Session(code, requestor, at: now)
        let existing = session.parameters.existing + [Value.Entry("serviceProvider", .string(session.requestorID))]
        var entries = [Value.Entry("existingParameters", .dict(existing))]
        let missing = session.parameters.missing
        if !missing.isEmpty { entries.append(Value.Entry("missingParameters", .list(missing.map(Value.string)))) }
        entries.append(Value.Entry("device", V2Device(id: session.deviceID, info: session.deviceInfo).described))
        entries.append(Value.Entry("notBefore", Self.v2MillisText(session.notBefore)))
        entries.append(Value.Entry("notAfter", Self.v2MillisText(session.notAfter)))
        return Self.v2JSON(entries)
    }

    /// A session of this programmer by its code, while it lives (sessions are kept `expiredMemory`
    /// past `notAfter` for this answer); an unknown code →
    /// `invalid_parameter_code`, one past `notAfter` → `invalid_authentication_session`.
    func v2Session(_ code: String, _ requestor: World.Requestor, at now: Instant) throws(V2Failure) -> V2AuthSession {
        guard let session = sessions.value(code, at: now),
            session.requestorID == requestor.id
        else {
            throw V2Failure(.invalidParameterCode, "unknown authentication code")
        }
        guard now < session.notAfter else {
            throw V2Failure(.invalidAuthenticationSession, "the authentication code expired")
        }
        return session
    }

    /// The session answer: `resume`/`retry` with `missingParameters`, or `authenticate` with the
    /// user agent's URL (relative to the SP host, as Adobe writes it). `reason`: why a partner
    /// session fell back to this basic one (`reasonType`), else `none`.
    func v2SessionAnswer(_ s: V2AuthSession, missingAction: String, reason: String = "none") -> HTTPResponse {
        let missing = s.parameters.missing
        var e: [Value.Entry]
        if !missing.isEmpty {
            e = [
                Value.Entry("actionName", .string(missingAction)), Value.Entry("actionType", .string("direct")),
                Value.Entry("reasonType", .string(reason)),
                Value.Entry("url", .string(V2Route.resumeSession(serviceProvider: s.requestorID, code: s.code).path)),
                Value.Entry("missingParameters", .list(missing.map(Value.string))),
            ]
        } else {
            e = [
                Value.Entry("actionName", .string("authenticate")), Value.Entry("actionType", .string("interactive")),
                Value.Entry("reasonType", .string(reason)),
                Value.Entry("url", .string(V2Route.authenticate(serviceProvider: s.requestorID, code: s.code).path)),
            ]
        }
        e.append(Value.Entry("code", .string(s.code)))
        e.append(Value.Entry("sessionId", .string(s.sessionID)))
        if let mvpd = s.parameters.mvpd { e.append(Value.Entry("mvpd", .string(mvpd))) }
        e.append(Value.Entry("serviceProvider", .string(s.requestorID)))
        e.append(Value.Entry("notBefore", Self.v2MillisText(s.notBefore)))
        e.append(Value.Entry("notAfter", Self.v2MillisText(s.notAfter)))
        return Self.v2JSON(e)
    }

    /// The answers that need no login: a live profile (`authenticated`), a TempPass (`temporary`,
    /// its profile made now) or an `authenticate-all` degradation (`degraded`). nil: a login is needed.
    mutating func v2DirectAccess(
        _ mvpd: MVPD, _ requestor: World.Requestor, deviceID: String, _ r: IncomingRequest,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse? {
        let key = V2ProfileKey(deviceID: deviceID, requestorID: requestor.id, mvpdID: mvpd.id)
        let reason: String
        let sessionID: String
        if let live = v2Profile(key, r, in: context, at: now) {
            switch live.origin {
            case .appleSSO, .sso: reason = "authenticatedSSO"
            case .login, .tempPass, .degraded: reason = "authenticated"
            }
            sessionID = live.sessionID
        } else if let tempPass = context.world.tempPass(for: mvpd.id) {
            reason = "temporary"
            if context.world.restV2.fault(of: mvpd.id) == .configurationTemporaryAccess {
                // Sessions do not check a TempPass's configuration (no sample shows it): the
                // session says `authorize`, and the profile and decisions then answer the fault.
                sessionID = context.random.guid()
            } else {
                sessionID = try v2TempPassProfile(tempPass, key, r, in: &context, at: now).sessionID
            }
        } else if context.world.restV2.degradation(of: mvpd.id) == .authenticateAll {
            sessionID = v2DegradedProfile(requestor, key, in: &context, at: now).sessionID
            reason = "degraded"
        } else {
            return nil
        }
        return Self.v2JSON([
            Value.Entry("actionName", .string("authorize")), Value.Entry("actionType", .string("direct")),
            Value.Entry("reasonType", .string(reason)),
            Value.Entry("url", .string(V2Route.authorize(serviceProvider: requestor.id, mvpd: mvpd.id).path)),
            Value.Entry("sessionId", .string(sessionID)),
            Value.Entry("mvpd", .string(mvpd.id)), Value.Entry("serviceProvider", .string(requestor.id)),
        ])
    }

    /// An AuthNAll degradation's profile for the device, made now and stored (no user, no IdP).
    mutating func v2DegradedProfile(
        _ requestor: World.Requestor, _ key: V2ProfileKey, in context: inout MockContext, at now: Instant
    ) -> V2Profile {
        let profile = V2Profile(
            origin: .degraded, sessionID: context.random.guid(), notBefore: now,
            notAfter: now + v2ProfileTTL(requestor, mvpdID: key.mvpdID, in: context))
        v2Store(profile, key, limits: context.limits)
        return profile
    }

    /// `GET /authenticate/{sp}/{code}`: the user agent (this device's browser or a second screen's)
    /// is sent on, as Adobe's is, to the SP's `authenticate/saml` with the session's parameters in
    /// Adobe's order and its code in a cookie for that page (`V2Route.loginCookie`, until the
    /// session ends); that page starts an SP login bound to the session and posts it to the
    /// MVPD's IdP, whose answer gives the session's device its profile (`completeLogin`) and sends
    /// the browser to `redirectUrl`. An OAuth2 MVPD's user agent goes to its IdP instead (`V2OAuth`).
    /// The 302 carries the JSON body the contract declares for it (an `ErrorInformation`, here with
    /// no fields: nothing went wrong).
    mutating func v2Authenticate(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, code: String,
        _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        var session = try v2Session(code, requestor, at: now)
        guard let mvpdID = session.parameters.mvpd, let redirect = session.parameters.redirectUrl,
            session.parameters.missing.isEmpty
        else {
            throw V2Failure(
                .invalidAuthenticationSession,
                "the session still misses " + session.parameters.missing.joined(separator: ", "))
        }
        if session.isAuthenticated {
            throw V2Failure(.invalidAuthenticationSession, "the session's login already completed")
        }
        _ = try v2MVPD(mvpdID, sp, requestor, in: context)
        guard let idp = context.world.identityProvider(for: mvpdID) else {
            throw V2Failure(.invalidIntegration, "MVPD \(mvpdID) has no login page")
        }
        if context.world.restV2.oauth2MVPDs.contains(mvpdID) {
            let answer = RESTv2Family.v2OAuthStart(sp, idp, session: &session, in: &context, at: now)
            sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
            return answer
        }
        session.state = .loggingIn(V2AuthSession.LoggingIn(started: now))
        sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
        let page = joinURL(sp.url, Route.authenticateSAML.path())
        let location =
            page + "?"
            + FormCoding.encode([
                ("noflash", "true"), ("mso_id", mvpdID), ("requestor_id", requestor.id), ("no_iframe", "false"),
                ("domain_name", session.parameters.domainName ?? ""), ("redirect_url", redirect),
            ])
        let lifetime = max((session.notAfter.milliseconds - now.milliseconds) / 1000, 1)
        let cookie =
            "\(V2Route.loginCookie)=\(code); Path=\(URLParts(page)?.path ?? "/"); Max-Age=\(lifetime); HttpOnly"
        return HTTPResponse(
            status: 302, contentType: Reply.json, text: "{}", headers: [("Location", location), ("Set-Cookie", cookie)])
    }

    /// Forgets the login cookie once its login ended (the SP's answer to the IdP).
    static func v2EndLoginCookie(_ sp: World.ServiceProvider) -> String {
        let page = joinURL(sp.url, Route.authenticateSAML.path())
        return "\(V2Route.loginCookie)=; Path=\(URLParts(page)?.path ?? "/"); Max-Age=0"
    }

    /// The v2 session an `authenticate/saml` logs in for, by the login cookie: one of this programmer
    /// and MVPD whose user agent was sent there and whose login has not completed. nil otherwise: a
    /// cookie left from another login does not stop the browser's own SDK login.
    /// The SDK family's `authenticate/saml` asks this (`SDKFamily.authenticate`).
    func loginLink(_ cookies: Cookies, requestorID: String, mvpdID: String, at now: Instant) -> V2LoginLink? {
        for code in cookies.values(V2Route.loginCookie).reversed() where !code.isEmpty {
            if let session = sessions.value(code, at: now), now < session.notAfter,
                session.requestorID == requestorID,
                session.parameters.mvpd == mvpdID, case .loggingIn(let login) = session.state, login.oauth == nil
            {
                return V2LoginLink(code: code)
            }
        }
        return nil
    }

    /// The SP accepted the IdP's assertion for a login `v2Authenticate` started: the session's
    /// device gets its profile for the MVPD. A session gone by then (expired, or taken by the cap)
    /// fails the login with a 400 page, as an expired SP login does.
    /// `browser`: the SP cookie of the user agent that logged in, for a later logout in it.
    /// The SDK family's assertion consumer calls this (`SDKFamily.assertionConsumer`).
    mutating func completeLogin(
        _ link: V2LoginLink, user: IdPFamily.UserKey, assertion: Assertion, mvpdID: String, browser: String,
        in context: MockContext, at now: Instant
    ) throws(HandlerFailure) {
        guard var session = sessions.value(link.code, at: now), now < session.notAfter,
            session.parameters.mvpd == mvpdID, let requestor = context.world.requestor(session.requestorID)
        else {
            throw .badRequest("the REST API v2 authentication session has expired")
        }
        let subscriber = V2Profile.Subscriber(
            user: user, nameID: assertion.nameID, sessionIndex: assertion.sessionIndex)
        v2LoggedIn(&session, subscriber, requestor, mvpdID: mvpdID, in: context, at: now)
        sessions.set(link.code, session, until: session.notAfter + context.limits.expiredMemory)
        browserLogins.set(
            browser, V2BrowserLogin(mvpdID: mvpdID, subscriber: subscriber),
            until: now + v2ProfileTTL(requestor, mvpdID: mvpdID, in: context))
    }

    /// A login at the MVPD completed for `session`: its device's profile, shared with every SSO
    /// identity the session was made with (`V2SSO`), until the profile's end.
    mutating func v2LoggedIn(
        _ session: inout V2AuthSession, _ subscriber: V2Profile.Subscriber, _ requestor: World.Requestor,
        mvpdID: String, in context: MockContext, at now: Instant
    ) {
        let key = V2ProfileKey(deviceID: session.deviceID, requestorID: session.requestorID, mvpdID: mvpdID)
        let profile = V2Profile(
            origin: .login(subscriber), sessionID: session.sessionID, notBefore: now,
            notAfter: now + v2ProfileTTL(requestor, mvpdID: mvpdID, in: context))
        v2Store(profile, key, limits: context.limits)
        for identity in session.sso {
            ssoGrants.set(
                V2SSOKey(identity: identity, mvpdID: mvpdID),
                V2SSOGrant(
                    subscriber: subscriber, sessionID: session.sessionID, notBefore: profile.notBefore,
                    notAfter: profile.notAfter),
                until: profile.notAfter)
        }
        session.state = .authenticated(V2AuthSession.Authenticated(mvpdID: mvpdID, at: now))
    }
}
