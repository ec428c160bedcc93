import PassModel

extension ClassifiedRequest {
    /// The REST v2 operation and its last path argument (code, MVPD or partner), or nil.
    /// Read through `PassModel.V2Route`, the one definition of REST v2's paths and operations.
    public var v2: (operation: V2Route.Operation, argument: String)? {
        v2Route.map { ($0.operation, $0.argument) }
    }

    /// A REST v2 call a client makes with its access token: every operation but the user agent's
    /// `authenticate` and the OAuth2 callback.
    var isV2ClientCall: Bool {
        guard let op = v2?.operation else { return false }
        return op != .authenticate && op != .oauthCallback
    }

    /// Dynamic Client Registration (`/o/client/...`).
    var isDCR: Bool { request.path.hasPrefix(RoutePrefix.clientRegistration) }

    /// The endpoint of `PassModel.Route` this request is, when its path is exactly one under its SP
    /// (or origin): the one definition of the legacy endpoints the engine calls.
    var route: Route? { spRoute }

    /// The families this request belongs to (DCR serves both REST APIs).
    var families: Set<Family> {
        if request.path.hasPrefix(RoutePrefix.restV2) { return [.restV2] }
        if isDCR { return [.restV2, .restV1] }
        if request.path.hasPrefix(RoutePrefix.restV1) || request.path.hasPrefix(RoutePrefix.registrationServiceV1) {
            return [.restV1]
        }
        // The SDK's and the web flow's endpoints share the SP's base URL; an IdP's pages are the user agent's.
        if case .sp = request.host { return [.sdkWire, .legacyWeb] }
        return []
    }

    /// Adobe throttles these (rest-api-v2.md 1.10): DCR, REST v2 and v1, the SDK's config, the regcode service.
    var isThrottled: Bool {
        request.path.hasPrefix(RoutePrefix.restV2) || isDCR || request.path.hasPrefix(RoutePrefix.restV1)
            || route == .config
            || route == .registrationCode
    }

    /// A request that opens a new authentication session (a code, a login): REST v2 `POST sessions`,
    /// REST v1's regcode, the SDK's and the web flow's SAML authentication start.
    var opensSession: Bool {
        if v2?.operation == .createSession || v2?.operation == .partnerSession { return true }
        if request.method == "POST", route == .registrationCode { return true }
        // The login page a v2 session's user agent is sent to (its code in `V2Route.loginCookie`)
        // continues the session POST sessions opened: counting it too would count every v2 login
        // twice on one device.
        if route == .authenticateSAML { return !(header("cookie") ?? "").contains(V2Route.loginCookie + "=") }
        return ServiceRoute.route(atSPPath: request.path)?.route == .secondScreenLogin
    }

    /// A poll of an authentication code: REST v2 `profiles/code/{code}`, REST v1 `checkauthn/{code}`.
    var polledCode: String? {
        if let v2, v2.operation == .profileForCode { return v2.argument }
        if request.method == "GET", let (route, code) = Route.route(atSPPath: request.path),
            route == .checkAuthentication
        {
            return code
        }
        return nil
    }
}
