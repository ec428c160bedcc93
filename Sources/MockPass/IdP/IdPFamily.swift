import PassModel

/// The MVPDs' identity providers: what they keep (their SAML sessions, the authorization codes of the
/// OAuth2 ones, each user's opaque NameID) and their pages (`IdPFamily+SAML.swift`,
/// `IdPFamily+OAuth2.swift`). The SPs read the NameIDs back (an assertion names its user only by it),
/// so the table is the IdPs' and the SPs only look it up (`user(nameID:)`); REST v2's SP redeems an
/// OAuth2 code here (`redeemOAuthCode`), as a server-to-server call to the IdP would.
struct IdPFamily: Sendable {
    /// IdP sessions by SessionIndex.
    var sessions: ExpiringStore<String, IdPSession>
    /// Authorization codes the OAuth2 IdPs issued (`V2OAuth`), until redeemed or expired.
    var oauthCodes: ExpiringStore<String, V2OAuthGrant>
    /// The IdPs' opaque NameID for each (MVPD, user), and back (bounded by the world's users).
    private(set) var nameIDs: [UserKey: String] = [:]
    private(set) var usersByNameID: [String: UserKey] = [:]

    struct UserKey: Hashable, Sendable {
        var mvpdID: String
        var userName: String
    }

    init(limits: MockLimits) {
        sessions = ExpiringStore(capacity: limits.idpSessions, maxBytes: limits.storeBytes)
        oauthCodes = ExpiringStore(capacity: V2Limits.oauthCodes, maxBytes: limits.storeBytes)
    }

    /// The user an IdP gave `nameID` to, if any (what an SP checks an assertion's NameID against).
    func user(nameID: String) -> UserKey? { usersByNameID[nameID] }

    /// The IdP's NameID for a user: drawn from `random` on first login, then the same for that user.
    mutating func nameID(mvpdID: String, userName: String, random: inout SeededRandom) -> String {
        let key = UserKey(mvpdID: mvpdID, userName: userName)
        if let id = nameIDs[key] { return id }
        let id = random.hex(32)
        nameIDs[key] = id
        usersByNameID[id] = key
        return id
    }

    mutating func expire(at now: Instant) {
        sessions.expire(at: now)
        oauthCodes.expire(at: now)
    }

    static let invalidCredentials = "Invalid user name or password."

    /// An IdP's host: `/sso` (login page), `/login` (credentials), `/slo` (logout), `/platform-sso`
    /// (Apple SSO's stand-in), and the OAuth2 pages of an MVPD declared so.
    mutating func handle(
        _ idp: World.IdentityProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        try MockLimits.admitParameters(r)
        guard case .idp(let route) = r.endpoint else { throw .notFound() }
        switch route {
        case .sso:
            try r.expect(route.method)
            return try sso(idp, r, in: context, at: now)
        case .login:
            try r.expect(route.method)
            return try login(idp, r, in: &context, at: now)
        case .slo:
            try r.expect(route.method)
            return try singleLogout(idp, r, in: &context, at: now)
        case .platformSSO:
            try r.expect(route.method)
            return try platformSSO(idp, r, in: &context, at: now)
        case .oauth2Authorize, .oauth2Login, .oauth2Token, .oauth2Logout:
            // An OAuth2 + PKCE IdP for REST v2 logins (`IdPFamily+OAuth2.swift`), for the MVPDs declared so.
            guard context.world.restV2.oauth2MVPDs.contains(idp.mvpdID) else { throw .notFound() }
            return try handleOAuthIdP(route, idp, r, in: &context, at: now)
        }
    }
}
