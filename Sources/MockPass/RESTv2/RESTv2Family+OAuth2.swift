import PassModel

/// The SP's side of an OAuth2 MVPD's login and logout (`V2OAuth`): the user agent sent to the IdP,
/// back at the SP's callback, the code redeemed at the IdP (`IdPFamily.redeemOAuthCode`).
extension RESTv2Family {
    /// The SP's side, first leg: where `authenticate/{sp}/{code}` sends the user agent for an OAuth2 MVPD.
    static func v2OAuthStart(
        _ sp: World.ServiceProvider, _ idp: World.IdentityProvider, session: inout V2AuthSession,
        in context: inout MockContext, at now: Instant
    ) -> HTTPResponse {
        let pending = V2OAuthPending(
            verifier: context.random.hex(32), state: session.code + "." + context.random.hex(16))
        session.state = .loggingIn(V2AuthSession.LoggingIn(started: now, oauth: pending))
        let location =
            joinURL(idp.url, IdPRoute.oauth2Authorize.path) + "?"
            + FormCoding.encode([
                ("response_type", "code"), ("client_id", sp.url.withoutTrailingSlashes),
                ("redirect_uri", RESTv2Family.v2Origin(sp) + V2OAuth.callbackPath), ("state", pending.state),
                ("code_challenge", V2OAuth.challenge(pending.verifier)), ("code_challenge_method", "S256"),
            ])
        return HTTPResponse(status: 302, contentType: Reply.json, text: "{}", headers: [("Location", location)])
    }

    /// `scheme://authority` of the SP's base URL: REST v2 lives at the origin's root.
    static func v2Origin(_ sp: World.ServiceProvider) -> String { V2Route.origin(ofSP: sp.url) }

    /// The SP's side, second leg: `GET /api/v2/oauth2/callback?code&state` redeems the code at the IdP
    /// with the verifier (server to server: in the mock, a call into the IdP's token logic), gives the
    /// session's device its profile and sends the user agent to `redirectUrl`. A refusal is a 400
    /// `invalid_authentication_session` (the browser's page), and the session stays as it was.
    /// `idps`: where the code is redeemed, and the user's NameID kept.
    mutating func v2OAuthCallback(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext, idps: inout IdPFamily,
        at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let state = r.parameter("state") ?? ""
        if state.hasPrefix(V2OAuth.logoutStatePrefix) { return try v2OAuthLogoutReturn(state: state, at: now) }
        let code = String(state.prefix { $0 != "." })
        guard var session = sessions.value(code, at: now), now < session.notAfter, session.spName == sp.name,
            case .loggingIn(let login) = session.state, let pending = login.oauth, pending.state == state,
            let mvpdID = session.parameters.mvpd, let redirect = session.parameters.redirectUrl,
            let requestor = context.world.requestor(session.requestorID)
        else {
            throw V2Failure(.invalidAuthenticationSession, "no OAuth2 login is waiting for this state")
        }
        guard let authorization = r.parameter("code"), !authorization.isEmpty else {
            throw V2Failure(
                .identityNotRecognizedByMVPD,
                "the MVPD answered without an authorization code: \(r.parameter("error") ?? "")")
        }
        let user: IdPFamily.UserKey
        do throws(HandlerFailure) {
            user = try idps.redeemOAuthCode(
                authorization, mvpdID: mvpdID, clientID: sp.url.withoutTrailingSlashes,
                redirectURI: RESTv2Family.v2Origin(sp) + V2OAuth.callbackPath, verifier: pending.verifier, at: now)
        } catch {
            throw V2Failure(.identityNotRecognizedByMVPD, error.message)
        }
        let subscriber = V2Profile.Subscriber(
            user: user, nameID: idps.nameID(mvpdID: mvpdID, userName: user.userName, random: &context.random),
            sessionIndex: "")
        v2LoggedIn(&session, subscriber, requestor, mvpdID: mvpdID, in: context, at: now)
        sessions.set(code, session, until: session.notAfter + context.limits.expiredMemory)
        return .redirect(redirect)
    }

    /// The SP's side of a logout: the user agent back from the IdP's `/oauth2/logout` at the same
    /// callback, with the `state` the logout answer gave it, goes on to the app's `redirectUrl` the
    /// SP kept for that state (once). The IdP only ever returns to this callback, so an app's URL
    /// never passes through the IdP (docs/CONFORMANCE.md, choice 96).
    mutating func v2OAuthLogoutReturn(state: String, at now: Instant) throws(V2Failure) -> HTTPResponse {
        guard let redirect = oauthLogouts.value(state, at: now) else {
            throw V2Failure(.invalidAuthenticationSession, "no OAuth2 logout is waiting for this state")
        }
        oauthLogouts.remove(state)
        return .redirect(redirect)
    }

    /// The IdP logout URL a v2 logout answers for an OAuth2 MVPD: back to the SP's one registered
    /// callback, with a `state` under which the SP keeps the app's `redirectUrl` until the user
    /// agent returns (`mock-logout-session-ttl`).
    mutating func v2OAuthLogoutURL(
        _ sp: World.ServiceProvider, _ idp: World.IdentityProvider, redirect: String, in context: inout MockContext,
        at now: Instant
    ) -> String {
        let state = V2OAuth.logoutStatePrefix + context.random.hex(16)
        oauthLogouts.set(state, redirect, until: now + context.limits.logoutSessionTTL)
        return joinURL(idp.url, IdPRoute.oauth2Logout.path) + "?"
            + FormCoding.encode([
                ("client_id", sp.url.withoutTrailingSlashes),
                ("redirect_uri", RESTv2Family.v2Origin(sp) + V2OAuth.callbackPath), ("state", state),
            ])
    }
}
