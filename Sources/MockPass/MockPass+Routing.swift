import PassModel
import PassXML

/// How a request reaches its family: an IdP's host goes to `IdPFamily` (`MockPass.answer`); an SP's
/// goes, in order, to REST API v2, the throttle and the client gate, REST API v1, then one switch
/// over every other endpoint (the SDK's device and web families, DCR, individualisation). Each
/// family's handler takes the shared `MockContext` and exactly the other families it reads or
/// changes, so these calls are where every dependency between families shows.
extension MockPass {
    /// The SP host's families in order: REST API v2, the throttle, the client gate, REST API v1, then
    /// the one switch over every other endpoint (`handleServiceProvider`). What a family needs of
    /// another is passed to it here: REST v2 reads client admission's access tokens and redeems the
    /// OAuth2 IdPs' codes; REST v1 answers from the SDK's device-bound sessions.
    mutating func handleServiceProviderHost(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        // REST API v2 has its own client check, errors and throttle (RESTv2/).
        if case .restV2(let route) = r.endpoint {
            return v2.handle(route, sp, r, in: &context, clients: clients, idps: &idps, at: now)
        }
        if world.restV2.throttleLegacy, RESTv2Family.isThrottledLegacyPath(r.path),
            let refusal = v2.throttle(r, at: now)
        {
            return refusal
        }
        do throws(HandlerFailure) {
            // The /config hot path pays for the gate only when some requestor is gated; the check
            // that the request names one requestor is a scan of its parameters, and runs always.
            try MockLimits.admitParameters(r)
            if gatesClients {
                try clients.admit(r, in: context, at: now)
            } else {
                _ = try ClientAdmission.requestorNamed(by: r)
            }
        } catch {
            if r.endpoint.isClientRegistration { throw error.inDCRForm }
            throw ClientAdmission.isSecondScreenPath(r.path) ? error.rest(RestFormat.of(r).format) : error
        }
        if r.path.hasPrefix(RoutePrefix.restV1) {
            // REST v1 may name its format in a path suffix: its family is recognised without it.
            let (format, restPath) = RestFormat.of(r)
            let endpoint = restPath == r.path ? r.endpoint : Endpoint(spMethod: r.method, path: restPath)
            if let route = RESTv1Family.route(r.method, endpoint) {
                do throws(HandlerFailure) {
                    // `tokens/authn` also takes POST (Apple SSO's exchange, routed elsewhere).
                    if case .authnToken = route, r.method != "GET" { throw .methodNotAllowed("GET, POST") }
                    try r.expect(route.method)
                    return try restV1.handle(route, sp, r, format: format, in: &context, sdk: &sdk, at: now)
                } catch {
                    throw error.rest(format)
                }
            }
        }
        return try handleServiceProvider(sp, r, at: now)
    }

    /// The one dispatch point of an SP's endpoints besides REST v1 and v2: one switch over what
    /// `prepare` recognised (`Endpoint`: paths matched exactly and case-sensitively, with no trailing
    /// slash and no percent-decoding, after `HostTable` dropped a `/1.0` segment and doubled slashes).
    /// Each family answers its refusals in its own form (`handleRoute`, `SDKFamily.handleWebEndpoint`).
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
            return try sdk.handleWebEndpoint(service, sp, r, in: &context, at: now)
        case .secondScreenLogin:
            try r.expect(service.method)
            return try sdk.authenticateWithCode(sp, r, in: &context, at: now)
        case .assertionConsumer:
            try r.expect(service.method)
            return try sdk.assertionConsumer(sp, r, in: &context, idps: idps, v2: &v2, at: now)
        case .completePassiveAuthentication:
            try r.expect(service.method)
            return Reply.page(HTMLPage(title: "Passive authentication complete", forms: []), bodyless: typedRun)
        case .logoutResponse:
            try r.expect(service.method)
            return try sdk.logoutResponse(sp, r, in: context, at: now)
        case .individualisation:
            try r.expect(service.method)
            return try ClientAdmission.individualiseDevice(r)
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

    /// The endpoints of `Route` (the ones the engine calls): the SDK device family's token endpoints
    /// (facts §1, §3-4: the paths of AccessEnablerConstants.h and AND-1.8), the endpoints the engine
    /// calls beside them (TempPass, tvOS, Apple SSO, client registration) and the SDK's browser pages.
    /// The token endpoints answer refusals with `ErrorXML` bodies, except a wrong method (405, text).
    private mutating func handleRoute(
        _ route: Route, _ parameter: String?, _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        // REST v1's, answered before this (`handleServiceProviderHost`): not reached.
        if route == .restLogout { throw .notFound(MockPass.spFamilies) }
        try r.expect(route.method)
        switch route {
        case .config: return try sdk.config(sp, requestorID: parameter ?? "", in: context)
        case .authenticateSAML: return try sdk.authenticate(sp, r, in: &context, v2: v2, at: now)
        case .logout: return try sdk.logout(sp, r, in: &context, v2: &v2, at: now)
        case .clientRegister: return try clients.registerClient(r, in: &context, at: now)
        case .clientToken: return try clients.issueAccessToken(r, in: &context, at: now)
        case .restLogout: throw .notFound(MockPass.spFamilies)
        case .sessionDevice, .userMetadata, .authorizeDevice, .deviceShortAuthorize, .preauthorize, .getMetadataDevice,
            .freePreview, .registrationCode, .checkAuthentication, .tokenExchange:
            break
        }
        do throws(HandlerFailure) {
            switch route {
            case .sessionDevice: return try sdk.sessionDevice(sp, r, in: &context, at: now)
            case .userMetadata: return try sdk.userMetadata(sp, r, in: context, at: now)
            case .authorizeDevice: return try sdk.authorizeDevice(sp, r, in: context, at: now)
            case .deviceShortAuthorize: return try sdk.deviceShortAuthorize(r, at: now)
            case .preauthorize: return try sdk.preauthorize(sp, r, in: context, at: now)
            case .getMetadataDevice: return try sdk.metadataDevice(sp, r, in: context, at: now)
            case .freePreview: return try sdk.freePreview(sp, r, in: &context, at: now)
            case .registrationCode:
                return try sdk.createRegistrationCode(sp, r, requestorID: parameter ?? "", in: &context, at: now)
            case .checkAuthentication: return try sdk.checkAuthentication(r, code: parameter ?? "", at: now)
            case .tokenExchange: return try sdk.exchangePlatformToken(sp, r, in: &context, idps: idps, at: now)
            case .config, .authenticateSAML, .logout, .clientRegister, .clientToken, .restLogout:
                throw .notFound(MockPass.spFamilies)  // answered above
            }
        } catch {
            throw error.inXML
        }
    }
}
