import Crypto
import PassModel
import PassXML

/// An MVPD whose IdP speaks OAuth2 with PKCE instead of SAML (Adobe server 3.7.0; rest-api-v2.md 1.1),
/// behind the same `authenticate/{sp}/{code}`: the SP sends the user agent to the IdP's
/// `/oauth2/authorize` with an S256 `code_challenge`, the IdP's login answers the SP's callback with an
/// authorization code, and the SP redeems it with the `code_verifier` only it holds.
enum V2OAuth {
    /// The SP's redirect URI, at its origin's root like the rest of REST v2.
    static let callbackPath = V2Route.oauthCallback.path
    /// How long an authorization code may wait to be redeemed (RFC 6749 recommends at most 10 minutes).
    static let codeTTL = Millis.minutes(5)
    /// What a logout's `state` starts with, so the callback tells it from a login's (`CODE.RANDOM`).
    static let logoutStatePrefix = "logout-"

    /// BASE64URL(SHA-256(verifier)), no padding (RFC 7636 4.2).
    static func challenge(_ verifier: String) -> String {
        base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var i = 0
        while i + 3 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            out += [table[n >> 18 & 63], table[n >> 12 & 63], table[n >> 6 & 63], table[n & 63]]
            i += 3
        }
        switch bytes.count - i {
        case 1:
            let n = Int(bytes[i]) << 16
            out += [table[n >> 18 & 63], table[n >> 12 & 63]]
        case 2:
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8
            out += [table[n >> 18 & 63], table[n >> 12 & 63], table[n >> 6 & 63]]
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// What the SP keeps while the user agent is at an OAuth2 IdP: the verifier and the `state` it sent.
struct V2OAuthPending: Sendable, Equatable {
    var verifier: String
    var state: String
}

/// An authorization code the IdP issued, until redeemed or `V2OAuth.codeTTL` passed.
struct V2OAuthGrant: Sendable {
    var mvpdID: String
    var userName: String
    var clientID: String
    var redirectURI: String
    var challenge: String
}

extension MockPass {
    /// The SP's side, first leg: where `authenticate/{sp}/{code}` sends the user agent for an OAuth2 MVPD.
    mutating func v2OAuthStart(
        _ sp: World.ServiceProvider, _ idp: World.IdentityProvider, session: inout V2AuthSession,
        at now: Instant
    ) -> HTTPResponse {
        let pending = V2OAuthPending(verifier: random.hex(32), state: session.code + "." + random.hex(16))
        session.state = .loggingIn(V2AuthSession.LoggingIn(started: now, oauth: pending))
        let location =
            joinURL(idp.url, IdPRoute.oauth2Authorize.path) + "?"
            + FormCoding.encode([
                ("response_type", "code"), ("client_id", sp.url.withoutTrailingSlashes),
                ("redirect_uri", MockPass.v2Origin(sp) + V2OAuth.callbackPath), ("state", pending.state),
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
    mutating func v2OAuthCallback(_ sp: World.ServiceProvider, _ r: IncomingRequest, at now: Instant) throws(V2Failure)
        -> HTTPResponse
    {
        let state = r.parameter("state") ?? ""
        if state.hasPrefix(V2OAuth.logoutStatePrefix) { return try v2OAuthLogoutReturn(state: state, at: now) }
        let code = String(state.prefix { $0 != "." })
        guard var session = v2.sessions.value(code, at: now), now < session.notAfter, session.spName == sp.name,
            case .loggingIn(let login) = session.state, let pending = login.oauth, pending.state == state,
            let mvpdID = session.parameters.mvpd, let redirect = session.parameters.redirectUrl,
            let requestor = world.requestor(session.requestorID)
        else {
            throw V2Failure(.invalidAuthenticationSession, "no OAuth2 login is waiting for this state")
        }
        guard let authorization = r.parameter("code"), !authorization.isEmpty else {
            throw V2Failure(
                .identityNotRecognizedByMVPD,
                "the MVPD answered without an authorization code: \(r.parameter("error") ?? "")")
        }
        let user: IdPState.UserKey
        do throws(HandlerFailure) {
            user = try redeemOAuthCode(
                authorization, mvpdID: mvpdID, clientID: sp.url.withoutTrailingSlashes,
                redirectURI: MockPass.v2Origin(sp) + V2OAuth.callbackPath, verifier: pending.verifier, at: now)
        } catch {
            throw V2Failure(.identityNotRecognizedByMVPD, error.message)
        }
        let subscriber = V2Profile.Subscriber(
            user: user, nameID: nameID(mvpdID: mvpdID, userName: user.userName), sessionIndex: "")
        v2LoggedIn(&session, subscriber, requestor, mvpdID: mvpdID, at: now)
        v2.sessions.set(code, session, until: session.notAfter + limits.expiredMemory)
        return .redirect(redirect)
    }

    /// The SP's side of a logout: the user agent back from the IdP's `/oauth2/logout` at the same
    /// callback, with the `state` the logout answer gave it, goes on to the app's `redirectUrl` the
    /// SP kept for that state (once). The IdP only ever returns to this callback, so an app's URL
    /// never passes through the IdP (docs/CONFORMANCE.md, choice 96).
    mutating func v2OAuthLogoutReturn(state: String, at now: Instant) throws(V2Failure) -> HTTPResponse {
        guard let redirect = v2.oauthLogouts.value(state, at: now) else {
            throw V2Failure(.invalidAuthenticationSession, "no OAuth2 logout is waiting for this state")
        }
        v2.oauthLogouts.remove(state)
        return .redirect(redirect)
    }

    /// The IdP logout URL a v2 logout answers for an OAuth2 MVPD: back to the SP's one registered
    /// callback, with a `state` under which the SP keeps the app's `redirectUrl` until the user
    /// agent returns (`mock-logout-session-ttl`).
    mutating func v2OAuthLogoutURL(
        _ sp: World.ServiceProvider, _ idp: World.IdentityProvider, redirect: String, at now: Instant
    ) -> String {
        let state = V2OAuth.logoutStatePrefix + random.hex(16)
        v2.oauthLogouts.set(state, redirect, until: now + limits.logoutSessionTTL)
        return joinURL(idp.url, IdPRoute.oauth2Logout.path) + "?"
            + FormCoding.encode([
                ("client_id", sp.url.withoutTrailingSlashes),
                ("redirect_uri", MockPass.v2Origin(sp) + V2OAuth.callbackPath), ("state", state),
            ])
    }

    // MARK: - The IdP's side

    /// `/oauth2/authorize` (GET: the login page), `/oauth2/login` (POST: the credentials), `/oauth2/token`
    /// (POST: a code and its verifier for an access token), `/oauth2/logout` (GET: back to a registered
    /// client's `redirect_uri`).
    mutating func handleOAuthIdP(
        _ route: IdPRoute, _ idp: World.IdentityProvider, _ r: IncomingRequest, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        try r.expect(route.method)
        try MockPass.oauthAdmit(r, json: route == .oauth2Token)
        switch route {
        case .oauth2Authorize:
            return try oauthLoginPage(idp, r, message: nil)
        case .oauth2Login:
            return try oauthLogin(idp, r, at: now)
        case .oauth2Token:
            let user = try redeemOAuthCode(
                try r.required("code"), mvpdID: idp.mvpdID, clientID: try r.required("client_id"),
                redirectURI: try r.required("redirect_uri"), verifier: try r.required("code_verifier"), at: now)
            return HTTPResponse(
                status: 200, contentType: Reply.json,
                text: Value.dict([
                    Value.Entry("access_token", .string(random.hex(32))), Value.Entry("token_type", .string("Bearer")),
                    Value.Entry("expires_in", .int(3600)),
                    Value.Entry("sub", .string(nameID(mvpdID: idp.mvpdID, userName: user.userName))),
                ]).jsonText)
        case .oauth2Logout:
            // Back only to a registered client's callback, as a code goes (RFC 6749 4.1.2.1; OpenID
            // Connect RP-Initiated Logout's registered post-logout URI): an open redirect let any page
            // send a user from the MVPD's own domain anywhere (docs/CONFORMANCE.md, choice 96).
            let redirect = try r.required("redirect_uri")
            guard oauthIsRegistered(idp, clientID: r.parameter("client_id") ?? "", redirectURI: redirect) else {
                throw .badRequest("client_id and redirect_uri are not a client registered with this IdP")
            }
            guard let state = r.parameter("state") else { return .redirect(redirect) }
            return .redirect(redirect + (redirect.contains("?") ? "&" : "?") + FormCoding.encode([("state", state)]))
        case .sso, .login, .slo, .platformSSO:
            throw .notFound()  // SAML's, not handed over
        }
    }

    static let oauthFields = [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method",
    ]

    /// Every parameter the OAuth2 IdP reads, held to `mock-v2-value-bytes` before anything is kept
    /// (a code keeps its `redirect_uri`, `client_id` and challenge): a 400, the token endpoint's
    /// as RFC 6749 5.2's `invalid_request`.
    static func oauthAdmit(_ r: IncomingRequest, json: Bool) throws(HandlerFailure) {
        for name in oauthFields + ["code", "code_verifier", "grant_type", "username", "password"] {
            guard let value = r.parameter(name), value.utf8.count > V2Limits.valueBytes else { continue }
            let message =
                "\(name) is \(value.utf8.count) bytes, over the limit of \(V2Limits.valueBytes) "
                + "(limit: mock-v2-value-bytes)"
            throw json ? .oauth(400, "invalid_request", message) : .badRequest(message)
        }
    }

    /// The clients this IdP knows: each SP that offers its MVPD, under its base URL, with its one
    /// callback (`v2OAuthStart` sends exactly these). A code goes to no one else (RFC 6749 4.1.2.1:
    /// an unknown client or redirect is told on the IdP's page, never redirected to).
    func oauthIsRegistered(_ idp: World.IdentityProvider, clientID: String, redirectURI: String) -> Bool {
        world.serviceProviders.contains { sp in
            sp.mvpds.contains { $0.id == idp.mvpdID } && sp.url.withoutTrailingSlashes == clientID
                && MockPass.v2Origin(sp) + V2OAuth.callbackPath == redirectURI
        }
    }

    /// The login form, the authorization request riding along in hidden fields. Only S256 is taken:
    /// `plain` gives no protection, and OAuth 2.1 drops it.
    private func oauthLoginPage(_ idp: World.IdentityProvider, _ r: IncomingRequest, message: String?)
        throws(HandlerFailure) -> HTTPResponse
    {
        guard r.parameter("response_type") == "code" else { throw .badRequest("response_type must be code") }
        guard r.parameter("code_challenge_method") == "S256", let c = r.parameter("code_challenge"), c.count >= 43,
            c.count <= 128
        else {
            throw .badRequest("a PKCE code_challenge with code_challenge_method S256 is required")
        }
        guard let redirect = r.parameter("redirect_uri"), URLParts(redirect)?.isHTTP == true else {
            throw .badRequest("redirect_uri must be an http(s) URL")
        }
        guard oauthIsRegistered(idp, clientID: r.parameter("client_id") ?? "", redirectURI: redirect) else {
            throw .badRequest("client_id and redirect_uri are not a client registered with this IdP")
        }
        var fields = [FormField(name: "username", value: ""), FormField(name: "password", value: "")]
        for name in MockPass.oauthFields { fields.append(FormField(name: name, value: r.parameter(name) ?? "")) }
        let form = HTMLForm(
            action: joinURL(idp.url, IdPRoute.oauth2Login.path), method: IdPRoute.oauth2Login.method, fields: fields,
            autoSubmit: false)
        return Reply.page(
            HTMLPage(title: "Sign in to \(idp.mvpdID)", message: message, forms: [form]), bodyless: typedRun)
    }

    private mutating func oauthLogin(_ idp: World.IdentityProvider, _ r: IncomingRequest, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        let name = r.parameter("username") ?? "", password = r.parameter("password") ?? ""
        guard !name.isEmpty, let user = world.user(mvpdID: idp.mvpdID, name: name), user.password == password else {
            return try oauthLoginPage(idp, r, message: MockPass.invalidCredentials)
        }
        _ = try oauthLoginPage(idp, r, message: nil)  // the same checks of the request as the page made
        let code = random.hex(24)
        v2.oauthCodes.set(
            code,
            V2OAuthGrant(
                mvpdID: idp.mvpdID, userName: user.name, clientID: r.parameter("client_id") ?? "",
                redirectURI: try r.required("redirect_uri"), challenge: try r.required("code_challenge")),
            until: now + V2OAuth.codeTTL)
        let redirect = try r.required("redirect_uri")
        return .redirect(
            redirect + (redirect.contains("?") ? "&" : "?")
                + FormCoding.encode([("code", code), ("state", r.parameter("state") ?? "")]))
    }

    /// A code is redeemed once, by the client and redirect URI it was issued to, with the verifier whose
    /// S256 challenge it was issued for (RFC 7636 4.6); anything else is 400 `invalid_grant` and uses it up.
    mutating func redeemOAuthCode(
        _ code: String, mvpdID: String, clientID: String, redirectURI: String, verifier: String,
        at now: Instant
    ) throws(HandlerFailure) -> IdPState.UserKey {
        guard let grant = v2.oauthCodes.value(code, at: now), grant.mvpdID == mvpdID else {
            throw .oauth(400, "invalid_grant", "unknown, used or expired authorization code")
        }
        v2.oauthCodes.remove(code)
        guard grant.clientID == clientID, grant.redirectURI == redirectURI else {
            throw .oauth(400, "invalid_grant", "the code was issued to another client or redirect_uri")
        }
        guard V2OAuth.challenge(verifier) == grant.challenge else {
            throw .oauth(400, "invalid_grant", "the code_verifier does not match the code_challenge")
        }
        return IdPState.UserKey(mvpdID: mvpdID, userName: grant.userName)
    }
}
