import Crypto
import PassModel
import PassXML

/// REST API v2 (rest-api-v2.md 1.3–1.7): every request at the SP's origin root, naming the
/// requestor as Adobe's "service provider", with the device's two headers; every login starts with
/// `POST sessions`, the browser (iOS) or a second screen (tvOS, polling the code) logs in at
/// `/authenticate/{sp}/{code}`, the MVPD's profile becomes the authN token and its attributes the
/// user metadata, and a decision carries its media token, so the callbacks are the SDK wire's. The
/// requests go through `send` as the SDK wire's do: they carry the app's options, wait for the
/// origin's registration and its Bearer token after `init(softwareStatement:)`, and have their deadline.
struct RESTv2Dialect: WireDialect {
    /// `AP-Device-Identifier` and `X-Device-Info`, made once (a hash and a Base64 JSON).
    let deviceIdentifier: String
    let deviceInfo: String

    init(_ configuration: EngineConfiguration) {
        deviceIdentifier = Self.deviceIdentifier(configuration)
        deviceInfo = Self.deviceInfo(configuration)
    }

    /// A request for `route` at the SP whose base URL is `sp`: a form (`form`), a JSON body
    /// (`json`), or nothing; `headers` beside the device's.
    func request(
        _ route: V2Route, sp: String, query: [(String, String)] = [], form: [(String, String)]? = nil,
        json: Value? = nil, headers: [(String, String)] = []
    ) -> WireRequest {
        var h = HTTPHeaders([HTTPHeader("Accept", "application/json")])
        h.add("AP-Device-Identifier", deviceIdentifier)
        h.add("X-Device-Info", deviceInfo)
        for (name, value) in headers { h.add(name, value) }
        let url = route.url(atSP: sp, query: query)
        if let form { return WireRequest(http: .form(url, form, headers: h)) }
        guard let json else { return WireRequest(http: HTTPRequest(method: route.method, url: url, headers: h)) }
        h.add("Content-Type", "application/json")
        return WireRequest(
            http: HTTPRequest(method: route.method, url: url, headers: h, body: json.jsonUTF8))
    }

    /// `fingerprint` and the SHA-256 of the device id, as Adobe recommends for the IDFV (rest-api-v2.md
    /// 1.4): the same device is the same identifier on every call, and a changed one loses the profiles.
    static func deviceIdentifier(_ configuration: EngineConfiguration) -> String {
        "fingerprint " + ClientlessSignature.base64(Array(SHA256.hash(data: Array(configuration.deviceID.utf8))))
    }

    /// `X-Device-Info`: Base64 of the JSON Adobe requires (`model`, `version`, `osName`, `osVersion`,
    /// `connectionType`), the hardware type from the device type.
    static func deviceInfo(_ configuration: EngineConfiguration) -> String {
        let tv = configuration.platform == .tvos
        let hardware: String =
            switch configuration.deviceType {
            case .mobile: "MobilePhone"
            case .tablet: "Tablet"
            case .gameconsole: tv ? "MediaPlayer" : "GamesConsole"
            case .computer: "Desktop"
            case .unknown: "Unknown"
            }
        let info = Value.dict([
            Value.Entry("primaryHardwareType", .string(hardware)),
            Value.Entry("model", .string(tv ? "AppleTV" : "iPhone")),
            Value.Entry("version", .string(configuration.clientVersion)),
            Value.Entry("osName", .string(configuration.platform.osName)),
            Value.Entry("osVersion", .string("17.0")),
            Value.Entry("connectionType", .string("WiFi")),
        ])
        return ClientlessSignature.base64(info.jsonUTF8)
    }

    /// A promotional TempPass's identity header: its data as Base64 JSON (rest-api-v2.md 1.4).
    static func tempPassIdentity(_ identity: Value) -> (String, String) {
        ("AP-TempPass-Identity", ClientlessSignature.base64(identity.jsonUTF8))
    }

    /// A decision about a promotional TempPass names its identity, as its session did.
    private func tempPassHeaders(_ core: EngineCore) -> [(String, String)] {
        core.store.tempPassIdentity.map { [Self.tempPassIdentity($0)] } ?? []
    }

    // MARK: Startup

    func configurationRequest(requestorID: String, sp: String, _ core: EngineCore) -> WireRequest {
        request(.configuration(serviceProvider: requestorID), sp: sp)
    }

    func configuration(in result: HTTPResult, _ core: EngineCore) -> SPConfiguration? {
        V2Answer.configuration(result, promotional: core.configuration.promotionalTempPasses)
    }

    // MARK: Authentication

    /// Adobe maps `checkAuthentication` to the profiles endpoints (rest-api-v2.md 1.7): the answer
    /// is the device's profile as the SP holds it now, not the app's store.
    func profileCheckRequest(mvpd: String, _ core: EngineCore) -> WireRequest? {
        request(.profile(serviceProvider: core.requestorID, mvpd: mvpd), sp: core.spURL(forMVPD: mvpd))
    }

    func checkedProfile(in result: HTTPResult, mvpd: String, _ core: EngineCore, at now: Instant) -> ProfileCheckAnswer
    {
        guard let profiles = V2Answer.profiles(result) else { return .unusable }
        guard let profile = profiles.first(where: { $0.mvpd == mvpd }), profile.notAfter > now else { return .none }
        let token = V2Answer.token(
            profile, sessionID: profile.impliedSessionID, requestorID: core.requestorID,
            deviceID: core.configuration.deviceID)
        return .profile(LoginToken(token: token, userMeta: profile.userMeta, platformSSO: profile.type == "appleSSO"))
    }

    /// Every login starts with a session; tvOS shows its code (rest-api-v2.md 1.5).
    func loginOpening(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> LoginOpening {
        .request(sessionRequest(mvpd, core), kind: core.configuration.platform == .tvos ? .registrationCode : .session)
    }

    /// A promotional pass's data (the e-mail) is its identity header (rest-api-v2.md 1.4).
    func tempPassRequest(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> WireRequest {
        sessionRequest(mvpd, identity: data, core)
    }

    /// `POST sessions` for `mvpd`: the login's start on every platform (rest-api-v2.md 1.5); the
    /// device's redirect URL (the custom scheme for an SVC MVPD, as the SDK wire's login).
    /// `identity`: a promotional TempPass's `AP-TempPass-Identity` (the call's data, as JSON).
    private func sessionRequest(_ mvpd: MVPD, identity: Value? = nil, _ core: EngineCore) -> WireRequest {
        let redirect = mvpd.requiresSVC ? core.configuration.svcScheme : Constants.adobePassRedirectURL
        let headers = identity.map { [Self.tempPassIdentity($0)] }
        return request(
            .createSession(serviceProvider: core.requestorID), sp: core.spURL(forMVPD: mvpd.id),
            form: [("mvpd", mvpd.id), ("domainName", "adobe.com"), ("redirectUrl", redirect)], headers: headers ?? [])
    }

    /// Apple's token for the device's profile (`POST profiles/sso/Apple`, rest-api-v2.md 1.3), with
    /// the partner framework's status: access granted, its provider the MVPD (whose platform mapping
    /// is its id, as the configuration gives none) valid for a day.
    func platformSSORequest(for mvpd: MVPD, appleToken: String, _ core: EngineCore, at now: Instant) -> WireRequest {
        let status = Value.dict([
            Value.Entry("frameworkPermissionInfo", .dict([Value.Entry("accessStatus", .string("granted"))])),
            Value.Entry(
                "frameworkProviderInfo",
                .dict([
                    Value.Entry("id", .string(mvpd.id)),
                    Value.Entry("expirationDate", .string(String((now + .hours(24)).milliseconds))),
                ])),
        ])
        return request(
            .partnerProfile(serviceProvider: core.requestorID, partner: "Apple"), sp: core.spURL(forMVPD: mvpd.id),
            form: [("SAMLResponse", appleToken)],
            headers: [("AP-Partner-Framework-Status", ClientlessSignature.base64(status.jsonUTF8))])
    }

    /// `POST sessions` answers what to do next; `POST profiles/sso/Apple` answers the profile itself.
    func loginStarted(_ result: HTTPResult, _ start: LoginStartContext, _ core: EngineCore, at now: Instant)
        -> LoginStart
    {
        if start.kind == .platformSSO {
            let context = TokenContext(mvpd: start.mvpd, source: .platformSSO, session: nil, data: start.data)
            return .arrived(loginToken(in: result, context, core, at: now))
        }
        guard let session = V2Answer.session(result) else { return .failed(codeRefused: false) }
        switch session.action {
        case .authorize:
            // No login needed (a live profile, a TempPass, a degraded MVPD): the MVPD's profile; a
            // promotional TempPass's is its identity's, so the session's header goes with it.
            let identity = start.kind == .tempPass ? start.data : nil
            let read = request(
                .profile(serviceProvider: core.requestorID, mvpd: start.mvpd.id),
                sp: core.spURL(forMVPD: start.mvpd.id),
                headers: identity.map { [Self.tempPassIdentity($0)] } ?? [])
            return .readToken(read, source: .sp, session: session.sessionID)
        case .authenticate(let url):
            guard let code = session.code, start.kind != .tempPass else { return .failed(codeRefused: false) }
            if start.kind == .registrationCode {
                // The TV shows the code until the session's notAfter; its profile is polled meanwhile.
                let expires = session.notAfter ?? now + .minutes(30)
                return .showCode(RegistrationCode(code: code, expires: expires), session: session.sessionID)
            }
            // Adobe writes the user agent's URL relative to the SP's origin.
            let page = url.hasPrefix("/") ? V2Route.origin(ofSP: core.spURL(forMVPD: start.mvpd.id)) + url : url
            return .browse(url: page, session: LoginSession(code: code, id: session.sessionID))
        }
    }

    func codeCheckRequest(_ code: RegistrationCode, mvpd: MVPD, _ core: EngineCore) -> WireRequest {
        request(.profileForCode(serviceProvider: core.requestorID, code: code.code), sp: core.spURL(forMVPD: mvpd.id))
    }

    /// A profile ends the polling; a refused code (an unknown or expired session: 400) fails the
    /// login; anything else (no profile yet, a server error, throttling, no answer) is asked again.
    func codeChecked(_ result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant) -> CodeCheck {
        if let profiles = V2Answer.profiles(result), !profiles.isEmpty {
            return .arrived(loginToken(in: result, context, core, at: now))
        }
        return result.status == 400 ? .gone : .pending
    }

    /// The browser reached the redirect URL: the session's profile says how the login went.
    func tokenRequestAfterBrowser(mvpd: MVPD, session: LoginSession?, _ core: EngineCore) -> WireRequest {
        let route: V2Route =
            session.map { .profileForCode(serviceProvider: core.requestorID, code: $0.code) }
            ?? .profile(serviceProvider: core.requestorID, mvpd: mvpd.id)
        return request(route, sp: core.spURL(forMVPD: mvpd.id))
    }

    /// The MVPD's live profile becomes the authN token (its GUID the session's id); none, or an
    /// unusable answer, is no token.
    func loginToken(in result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant)
        -> LoginTokenAnswer
    {
        guard let profile = V2Answer.profiles(result)?.first(where: { $0.mvpd == context.mvpd.id }),
            profile.notAfter > now
        else { return .none }
        let token = V2Answer.token(
            profile, sessionID: context.session ?? profile.impliedSessionID, requestorID: core.requestorID,
            deviceID: core.configuration.deviceID)
        // A promotional TempPass's decisions are its identity's: the token keeps the login's data.
        let identity = context.mvpd.tempPass || context.mvpd.promoTempPass ? context.data : nil
        return .token(
            LoginToken(
                token: token, userMeta: profile.userMeta,
                platformSSO: context.source == .platformSSO || profile.type == "appleSSO", tempPassIdentity: identity))
    }

    // MARK: Authorization

    /// None: a decision every time, the media token inside it (rest-api-v2.md 1.7: "always authorize
    /// before playback").
    func servingAuthorization(for resource: String, _ core: inout EngineCore, at now: Instant) -> AuthzToken? {
        nil
    }

    /// v2 carries no generic data.
    func authorizeRequest(resource: String, data: Value?, token: AuthnToken, _ core: EngineCore) -> WireRequest {
        request(
            .authorize(serviceProvider: core.requestorID, mvpd: token.mvpdID), sp: core.spURL(forMVPD: token.mvpdID),
            json: .dict([Value.Entry("resources", .list([.string(resource)]))]), headers: tempPassHeaders(core))
    }

    /// The decision for the resource, with its media token; a denial carries the MVPD's details. The
    /// decision's expiry is the authZ token's (choice 82).
    func authorizeAnswer(
        _ result: HTTPResult, resource: String, asked: AuthnToken, _ core: EngineCore, at now: Instant
    ) -> AuthorizeAnswer {
        guard let decision = V2Answer.decisions(result)?.first(where: { $0.resource == resource }) else {
            return .unusable
        }
        if decision.authorized, let media = decision.mediaToken, !media.isEmpty {
            let authorization = decision.notAfter.map {
                AuthzToken(
                    sessionGUID: asked.guid, requestorID: core.requestorID, resourceID: resource, mvpdID: asked.mvpdID,
                    deviceID: core.configuration.deviceID, expires: $0)
            }
            return .granted(mediaToken: media, authorization: authorization)
        }
        return decision.authorized ? .unusable : .denied(details: decision.details)
    }

    func mediaTokenRequest(_ authz: AuthzToken, requestorID: String, _ core: EngineCore) -> WireRequest {
        // Never asked: the decision carries the media token. Should a flow ask, it asks for a decision.
        request(
            .authorize(serviceProvider: requestorID, mvpd: authz.mvpdID), sp: core.spURL(forMVPD: authz.mvpdID),
            json: .dict([Value.Entry("resources", .list([.string(authz.resourceID)]))]), headers: tempPassHeaders(core))
    }

    func mediaTokenAnswer(_ result: HTTPResult) -> MediaTokenAnswer {
        guard let decision = V2Answer.decisions(result)?.first else { return .unusable }
        if decision.authorized, let media = decision.mediaToken, !media.isEmpty { return .granted(mediaToken: media) }
        return decision.authorized ? .unusable : .denied(details: decision.details)
    }

    // MARK: Preauthorization

    func preauthorizeRequest(resources: [String], token: AuthnToken, _ core: EngineCore) -> WireRequest {
        request(
            .preauthorize(serviceProvider: core.requestorID, mvpd: token.mvpdID), sp: core.spURL(forMVPD: token.mvpdID),
            json: .dict([Value.Entry("resources", .list(resources.map(Value.string)))]), headers: tempPassHeaders(core))
    }

    func decisions(in result: HTTPResult) -> [(resource: String, authorized: Bool)]? {
        V2Answer.decisions(result)?.map { ($0.resource, $0.authorized) }
    }

    // MARK: Logout

    /// No MVPD to log out of: nothing to ask.
    func deviceLogoutRequest(mvpd: String?, sp: String, _ core: EngineCore) -> WireRequest? {
        guard let mvpd else { return nil }
        return request(
            .logout(serviceProvider: core.requestorID, mvpd: mvpd), sp: sp,
            query: [("redirectUrl", Constants.adobePassRedirectURL)])
    }

    /// The SP says which page the browser opens, if any (rest-api-v2.md 1.3).
    func logoutStep(token: AuthnToken, svc: Bool, sp: String, _ core: EngineCore) -> LogoutStep {
        .ask(
            request(
                .logout(serviceProvider: core.requestorID, mvpd: token.mvpdID), sp: sp,
                query: [("redirectUrl", svc ? core.configuration.svcScheme : Constants.adobePassRedirectURL)]))
    }

    func logoutPage(in result: HTTPResult, mvpd: String) -> String? { V2Answer.logout(result, mvpd: mvpd)?.url }

    // MARK: Metadata

    /// REST API v2 has no device metadata: the device id is the app's own, the one its
    /// AP-Device-Identifier is made from (docs/CONFORMANCE.md, choice 67).
    func deviceIDQuery(_ core: EngineCore) -> DeviceIDQuery { .known(core.configuration.deviceID) }

    func deviceID(in result: HTTPResult) -> String? { nil }  // never asked
}
