import PassModel
import PassXML

/// The IdP's side of an MVPD that speaks OAuth2 with PKCE (`V2OAuth`): its login page, the code its
/// login issues, the token endpoint that redeems it, and its logout back to a registered client.
extension IdPFamily {
    /// `/oauth2/authorize` (GET: the login page), `/oauth2/login` (POST: the credentials), `/oauth2/token`
    /// (POST: a code and its verifier for an access token), `/oauth2/logout` (GET: back to a registered
    /// client's `redirect_uri`).
    mutating func handleOAuthIdP(
        _ route: IdPRoute, _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        try r.expect(route.method)
        try IdPFamily.oauthAdmit(r, json: route == .oauth2Token)
        switch route {
        case .oauth2Authorize:
            return try IdPFamily.oauthLoginPage(idp, r, message: nil, in: context)
        case .oauth2Login:
            return try oauthLogin(idp, r, in: &context, at: now)
        case .oauth2Token:
            let user = try redeemOAuthCode(
                try r.required("code"), mvpdID: idp.mvpdID, clientID: try r.required("client_id"),
                redirectURI: try r.required("redirect_uri"), verifier: try r.required("code_verifier"), at: now)
            return HTTPResponse(
                status: 200, contentType: Reply.json,
                text: Value.dict([
                    Value.Entry("access_token", .string(context.random.hex(32))),
                    Value.Entry("token_type", .string("Bearer")), Value.Entry("expires_in", .int(3600)),
                    Value.Entry(
                        "sub", .string(nameID(mvpdID: idp.mvpdID, userName: user.userName, random: &context.random))),
                ]).jsonText)
        case .oauth2Logout:
            // Back only to a registered client's callback, as a code goes (RFC 6749 4.1.2.1; OpenID
            // Connect RP-Initiated Logout's registered post-logout URI): an open redirect let any page
            // send a user from the MVPD's own domain anywhere (docs/CONFORMANCE.md, choice 96).
            let redirect = try r.required("redirect_uri")
            guard
                IdPFamily.oauthIsRegistered(
                    idp, clientID: r.parameter("client_id") ?? "", redirectURI: redirect, in: context.world)
            else {
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
    static func oauthIsRegistered(
        _ idp: World.IdentityProvider, clientID: String, redirectURI: String, in world: World
    ) -> Bool {
        world.serviceProviders.contains { sp in
            sp.mvpds.contains { $0.id == idp.mvpdID } && sp.url.withoutTrailingSlashes == clientID
                && RESTv2Family.v2Origin(sp) + V2OAuth.callbackPath == redirectURI
        }
    }

    /// The login form, the authorization request riding along in hidden fields. Only S256 is taken:
    /// `plain` gives no protection, and OAuth 2.1 drops it.
    private static func oauthLoginPage(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, message: String?, in context: MockContext
    ) throws(HandlerFailure) -> HTTPResponse {
        guard r.parameter("response_type") == "code" else { throw .badRequest("response_type must be code") }
        guard r.parameter("code_challenge_method") == "S256", let c = r.parameter("code_challenge"), c.count >= 43,
            c.count <= 128
        else {
            throw .badRequest("a PKCE code_challenge with code_challenge_method S256 is required")
        }
        guard let redirect = r.parameter("redirect_uri"), URLParts(redirect)?.isHTTP == true else {
            throw .badRequest("redirect_uri must be an http(s) URL")
        }
        guard
            oauthIsRegistered(idp, clientID: r.parameter("client_id") ?? "", redirectURI: redirect, in: context.world)
        else {
            throw .badRequest("client_id and redirect_uri are not a client registered with this IdP")
        }
        var fields = [FormField(name: "username", value: ""), FormField(name: "password", value: "")]
        for name in IdPFamily.oauthFields { fields.append(FormField(name: name, value: r.parameter(name) ?? "")) }
        let form = HTMLForm(
            action: joinURL(idp.url, IdPRoute.oauth2Login.path), method: IdPRoute.oauth2Login.method, fields: fields,
            autoSubmit: false)
        return Reply.page(
            HTMLPage(title: "Sign in to \(idp.mvpdID)", message: message, forms: [form]), bodyless: context.typedRun)
    }

    private mutating func oauthLogin(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let name = r.parameter("username") ?? "", password = r.parameter("password") ?? ""
        guard !name.isEmpty, let user = context.world.user(mvpdID: idp.mvpdID, name: name), user.password == password
        else {
            return try IdPFamily.oauthLoginPage(idp, r, message: IdPFamily.invalidCredentials, in: context)
        }
        // The same checks of the request as the page made.
        _ = try IdPFamily.oauthLoginPage(idp, r, message: nil, in: context)
        let code = context.random.hex(24)
        oauthCodes.set(
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
    ) throws(HandlerFailure) -> IdPFamily.UserKey {
        guard let grant = oauthCodes.value(code, at: now), grant.mvpdID == mvpdID else {
            throw .oauth(400, "invalid_grant", "unknown, used or expired authorization code")
        }
        oauthCodes.remove(code)
        guard grant.clientID == clientID, grant.redirectURI == redirectURI else {
            throw .oauth(400, "invalid_grant", "the code was issued to another client or redirect_uri")
        }
        guard V2OAuth.challenge(verifier) == grant.challenge else {
            throw .oauth(400, "invalid_grant", "the code_verifier does not match the code_challenge")
        }
        return IdPFamily.UserKey(mvpdID: mvpdID, userName: grant.userName)
    }
}
