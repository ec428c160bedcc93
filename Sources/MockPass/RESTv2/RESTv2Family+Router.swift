import PassModel
import PassXML

/// REST API v2 (rest-api-v2.md): `/api/v2/...` at the root of every SP host, answered from this
/// family's own sessions and profiles and the world's users, MVPDs and clock. Every refusal is an
/// enhanced error code (`V2ErrorCode`) as JSON; a path it does not know is a JSON 404.
extension RESTv2Family {
    /// Throttle first (Adobe counts every call, good or bad), then the route, the method, the
    /// programmer and its client, then the operation.
    /// `route`: what `prepare` recognised (`Endpoint.restV2`), nil when no operation has the path.
    /// `clients`: whose access tokens admit a programmer's callers (`v2Admit`); `idps`: the OAuth2
    /// IdPs the SP's callback redeems a code at, and the SAML IdPs whose NameIDs Apple's assertion names.
    mutating func handle(
        _ route: V2Route?, _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        clients: ClientAdmission, idps: inout IdPFamily, at now: Instant
    ) -> HTTPResponse {
        if context.world.restV2.throttling, let refusal = throttle(r, at: now) { return refusal }
        guard let route else {
            return Self.v2Plain(404, "no REST API v2 operation has this path (docs/WIRE.md, \"REST API v2\")")
        }
        guard route.allowed.contains(r.method) else {
            var response = Self.v2Plain(405, "use " + route.allowed.joined(separator: ", "))
            response.headers.add("Allow", route.allowed.joined(separator: ", "))
            return response
        }
        do throws(V2Failure) {
            return try handleV2(route, sp, r, in: &context, clients: clients, idps: &idps, at: now)
        } catch {
            return error.response(trace: context.random.guid())
        }
    }

    private mutating func handleV2(
        _ route: V2Route, _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        clients: ClientAdmission, idps: inout IdPFamily, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        if case .oauthCallback = route { return try v2OAuthCallback(sp, r, in: &context, idps: &idps, at: now) }
        let requestor = try v2Requestor(route.serviceProvider, at: sp, in: context)
        // The user agent's page is the one call without a client: a browser opens it.
        if case .authenticate(_, let code) = route {
            return try v2Authenticate(sp, requestor, code: code, r, in: &context, at: now)
        }
        try RESTv2Family.v2Admit(r, requestor: requestor, clients: clients, at: now)
        switch route {
        case .configuration: return RESTv2Family.v2Configuration(sp, requestor, r, in: context)
        case .createSession: return try v2CreateSession(sp, requestor, r, in: &context, at: now)
        case .resumeSession(_, let code):
            return try v2ResumeSession(sp, requestor, code: code, r, in: &context, at: now)
        case .sessionStatus(_, let code): return try v2SessionStatus(requestor, code: code, at: now)
        case .authenticate, .oauthCallback: throw V2Failure(.internalServerError)
        case .profiles: return try v2Profiles(sp, requestor, mvpd: nil, r, in: &context, at: now)
        case .profile(_, let mvpd): return try v2Profiles(sp, requestor, mvpd: mvpd, r, in: &context, at: now)
        case .profileForCode(_, let code):
            return try v2ProfileForCode(sp, requestor, code: code, r, in: &context, at: now)
        case .authorize(_, let mvpd):
            return try v2Decisions(.authorize, sp, requestor, mvpdID: mvpd, r, in: &context, at: now)
        case .preauthorize(_, let mvpd):
            return try v2Decisions(.preauthorize, sp, requestor, mvpdID: mvpd, r, in: &context, at: now)
        case .logout(_, let mvpd): return try v2Logout(sp, requestor, mvpdID: mvpd, r, in: &context, at: now)
        case .partnerSession(_, let partner):
            return try v2PartnerSession(sp, requestor, partner: partner, r, in: &context, at: now)
        case .partnerProfile(_, let partner):
            return try v2PartnerProfile(sp, requestor, partner: partner, r, in: &context, idps: idps, at: now)
        }
    }

    /// A 429 when the device's bucket is empty (`V2Bucket`), or when it has none and the table is
    /// full of live buckets (`V2BucketTable`), else nil. Also the legacy paths' throttle
    /// (`isThrottledLegacyPath`), which `MockPass` asks before the other families answer.
    mutating func throttle(_ r: IncomingRequest, at now: Instant) -> HTTPResponse? {
        guard !buckets.take(r.request.headers.throttleKey, at: now) else { return nil }
        var response = Self.v2Plain(429, "too many requests: wait at least one second")
        response.headers.add("Retry-After", "1")
        return response
    }

    /// Whether Adobe throttles this non-v2 path (rest-api-v2.md 1.10): DCR, REST v1, the SDK's
    /// `config/{requestor}` and the regcode service (paths as `HostTable` gives them).
    static func isThrottledLegacyPath(_ path: String) -> Bool {
        path.hasPrefix(RoutePrefix.clientRegistration) || path.hasPrefix(RoutePrefix.restV1)
            || path.hasPrefix(RoutePrefix.config)
            || (path.hasPrefix(RoutePrefix.registrationServiceV1) && path.hasSuffix(Route.registrationCode.pathEnding))
    }

    /// A JSON answer for what has no enhanced error code (an unknown path, a wrong method, a throttled call).
    static func v2Plain(_ status: Int, _ details: String) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: Reply.json,
            text: Value.dict([
                Value.Entry("status", .int(status)), Value.Entry("details", .string(details)),
            ]).jsonText)
    }

    /// REST v2's `{serviceProvider}` is the programmer's id (Adobe calls the requestor a service provider).
    func v2Requestor(_ id: String, at sp: World.ServiceProvider, in context: MockContext) throws(V2Failure)
        -> World.Requestor
    {
        guard let requestor = context.world.requestor(id), requestor.isAt(sp) else {
            throw V2Failure(.invalidParameterServiceProvider, "unknown service provider \(id.prefix(64))")
        }
        return requestor
    }

    /// The Bearer token of a client registered through DCR (`ClientAdmission`), for a
    /// programmer declared with a software statement: missing, unknown or expired →
    /// `invalid_access_token_client_application`; a client of another programmer's statement →
    /// `invalid_access_token_service_provider` (the token's scope). A programmer without a
    /// statement takes calls without a token, as the v1 families do (docs/WIRE.md).
    static func v2Admit(_ r: IncomingRequest, requestor: World.Requestor, clients: ClientAdmission, at now: Instant)
        throws(V2Failure)
    {
        guard let statement = requestor.softwareStatement else { return }
        guard let header = r.request.headers.first(lowercased: "authorization") else {
            throw V2Failure(.accessTokenClientApplication, "missing Authorization: Bearer access token")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw V2Failure(.accessTokenClientApplication, "Authorization is not a Bearer access token")
        }
        guard let access = clients.accessTokens.value(String(parts[1]).trimmingSpaces, at: now) else {
            throw V2Failure(.accessTokenClientApplication, "unknown or expired access token")
        }
        guard access.softwareStatement == statement else {
            throw V2Failure(
                .accessTokenServiceProvider, "the access token was issued to a client of another service provider")
        }
    }

    /// An MVPD the SP offers the programmer, else `invalid_parameter_mvpd`; then the world's
    /// platform faults for it (`configuration` class and 500s fail the whole call).
    /// A TempPass's own configuration fault is not the integration's: it surfaces where the
    /// temporary profile is read (`v2TempPassProfile`).
    func v2MVPD(_ id: String, _ sp: World.ServiceProvider, _ requestor: World.Requestor, in context: MockContext)
        throws(V2Failure) -> MVPD
    {
        let world = context.world
        guard let mvpd = world.mvpds(offeredBy: sp, to: requestor).first(where: { $0.id == id }) else {
            throw V2Failure(.invalidParameterMVPD, "MVPD \(id.prefix(64)) is not integrated with \(requestor.id)")
        }
        if let fault = world.restV2.fault(of: id), fault.action == .configuration || fault.status == 500,
            !(fault == .configurationTemporaryAccess && world.tempPass(for: id) != nil)
        {
            throw V2Failure(fault, "the world's fault for \(id)")
        }
        return mvpd
    }

    /// A redirect URL must be an absolute URL (RFC 3986's `scheme:`, no spaces) of the web (http(s)
    /// with a host) or of an app (a custom scheme, how a device app gets its user agent back). The
    /// schemes a browser runs, reads locally or renders itself are refused (docs/CONFORMANCE.md,
    /// choice 92): the SP's last answer is a `Location:` to this URL, and `javascript:` there would
    /// run whatever any client holding the session's code wrote.
    static func v2CheckRedirect(_ url: String) throws(V2Failure) {
        guard url.utf8.count <= V2Limits.valueBytes else {
            throw V2Failure(
                .invalidParameterRedirectURL,
                "redirectUrl is longer than \(V2Limits.valueBytes) bytes (limit: mock-v2-value-bytes)")
        }
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex,
            url.first.map({ $0.isASCII && $0.isLetter }) == true,
            url[..<colon].allSatisfy({
                $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")
            }),
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else {
            throw V2Failure(.invalidParameterRedirectURL, "redirectUrl is not an absolute URL")
        }
        let scheme = url[..<colon].lowercased()
        guard !v2RefusedRedirectSchemes.contains(scheme) else {
            throw V2Failure(.invalidParameterRedirectURL, "redirectUrl's scheme \(scheme) is not a web or app scheme")
        }
        if scheme == "http" || scheme == "https",
            !url[url.index(after: colon)...].hasPrefix("//") || URLParts(url)?.authority.isEmpty != false
        {
            throw V2Failure(.invalidParameterRedirectURL, "redirectUrl is an http(s) URL without a host")
        }
    }

    /// Schemes that are no place to send a user agent back to: script (`javascript`, `vbscript`),
    /// content the URL itself carries (`data`, `blob`), the local machine (`file`, `filesystem`) and
    /// the browser's own pages (`about`, `view-source`, `chrome`, `edge`).
    static let v2RefusedRedirectSchemes: Set<String> = [
        "javascript", "vbscript", "data", "blob", "file", "filesystem", "about", "view-source", "chrome", "edge",
    ]

    /// A JSON answer, keys in the order given.
    static func v2JSON(_ entries: [Value.Entry], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: Reply.json, text: Value.dict(entries).jsonText)
    }

    /// Millisecond timestamps: integers in profiles and decisions, strings in sessions, as the contract
    /// types them (rest-api-v2.md 1.2, first quirk).
    static func v2Millis(_ t: Instant) -> Value { .int(Int(t.milliseconds)) }
    static func v2MillisText(_ t: Instant) -> Value { .string(String(t.milliseconds)) }

    /// The live profile of (device, programmer, MVPD), or nil.
    /// The device's live profile, else one shared with it through an SSO identity the request
    /// carries (`V2SSO`): another app's login, with the type of its method.
    func v2Profile(_ key: V2ProfileKey, _ r: IncomingRequest, in context: MockContext, at now: Instant) -> V2Profile? {
        if let own = v2LiveProfile(key, at: now) { return own }
        for identity in r.request.headers.ssoIdentities(context.world.restV2, at: now) {
            if let grant = ssoGrants.value(V2SSOKey(identity: identity, mvpdID: key.mvpdID), at: now),
                now < grant.notAfter
            {
                return V2Profile(
                    origin: .sso(identity, grant.subscriber), sessionID: grant.sessionID, notBefore: grant.notBefore,
                    notAfter: grant.notAfter)
            }
        }
        return nil
    }

    func v2LiveProfile(_ key: V2ProfileKey, at now: Instant) -> V2Profile? {
        guard let profile = profiles.value(key, at: now), now < profile.notAfter else { return nil }
        return profile
    }

    /// Stores a profile, kept `expiredMemory` past its end so it answers "expired" rather than "missing".
    mutating func v2Store(_ profile: V2Profile, _ key: V2ProfileKey, limits: MockLimits) {
        profiles.set(key, profile, until: profile.notAfter + limits.expiredMemory)
    }

    /// A profile's lifetime: the world's for that MVPD, else the programmer's `authn-ttl`.
    func v2ProfileTTL(_ requestor: World.Requestor, mvpdID: String, in context: MockContext) -> Millis {
        context.world.restV2.profileTTLs.first { $0.mvpdID == mvpdID }?.ttl ?? requestor.authnTTL
    }
}
