import PassModel
import PassXML

/// The AccessEnabler SDK's own wire (docs/WIRE.md): XML configuration, the SAML login in the
/// browser, `sessionDevice`, `authorizeDevice` then `deviceShortAuthorize`, forms everywhere, and the
/// tvOS registration code whose calls the deprecated key pair signs.
struct SDKDialect: WireDialect {
    // MARK: Startup

    func configurationRequest(requestorID: String, sp: String, _ core: EngineCore) -> WireRequest {
        WireRequest(
            http: HTTPRequest(
                method: Route.config.method, url: Route.config.url(sp, requestorID),
                headers: HTTPHeaders([HTTPHeader("Accept", "application/xml")])))
    }

    func configuration(in result: HTTPResult, _ core: EngineCore) -> SPConfiguration? {
        guard case .response(let r) = result, r.status == 200 else { return nil }
        return r.decoded(orParse: ConfigurationXML.parse)
    }

    // MARK: Authentication

    /// The SDK answers `checkAuthentication` from its store.
    func profileCheckRequest(mvpd: String, _ core: EngineCore) -> WireRequest? { nil }

    func checkedProfile(in result: HTTPResult, mvpd: String, _ core: EngineCore, at now: Instant) -> ProfileCheckAnswer
    {
        .unusable  // never asked
    }

    /// tvOS asks for a registration code; iOS opens the SAML login in the browser.
    func loginOpening(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> LoginOpening {
        if core.configuration.platform == .tvos {
            let fields = [("deviceId", core.configuration.deviceID), ("mvpd", mvpd.id)]
            let url = Route.registrationCode.url(core.spURL(forMVPD: mvpd.id), core.requestorID)
            return .request(WireRequest(http: .form(url, fields), signed: true), kind: .registrationCode)
        }
        var query: [(String, String)] = [
            ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"),
            ("mso_id", mvpd.id), ("requestor_id", core.requestorID),
            ("redirect_url", mvpd.requiresSVC ? core.configuration.svcScheme : Constants.adobePassRedirectURL),
            ("client_type", core.configuration.platform.osName), ("client_version", core.configuration.clientVersion),
        ]
        if let data { query.append(("generic_data", data.jsonText)) }
        return .browser(url: Route.authenticateSAML.url(core.spURL(forMVPD: mvpd.id), query: query))
    }

    func tempPassRequest(for mvpd: MVPD, data: Value?, _ core: EngineCore) -> WireRequest {
        var fields = [
            ("requestor_id", core.requestorID), ("mso_id", mvpd.id), ("device_id", core.configuration.deviceID),
        ]
        if let data { fields.append(("generic_data", data.jsonText)) }
        return WireRequest(http: .form(Route.freePreview.url(core.spURL(forMVPD: mvpd.id)), fields))
    }

    func platformSSORequest(for mvpd: MVPD, appleToken: String, _ core: EngineCore, at now: Instant) -> WireRequest {
        let fields = [
            ("requestor", core.requestorID), ("deviceId", core.configuration.deviceID), ("mvpd", mvpd.id),
            ("deviceType", core.configuration.platform.osName), ("SAMLResponse", appleToken),
        ]
        return WireRequest(http: .form(Route.tokenExchange.url(core.spURL(forMVPD: mvpd.id)), fields))
    }

    /// TempPass and Apple's token exchange answer 204, then the token is read; a registration code
    /// answers 201 with its JSON.
    func loginStarted(_ result: HTTPResult, _ start: LoginStartContext, _ core: EngineCore, at now: Instant)
        -> LoginStart
    {
        guard case .response(let r) = result, (200..<300).contains(r.status) else {
            // Refused for want of a signature or an access token (BEHAVIOR.md; the real SDK is
            // reported to crash here, KB-REGCODE).
            let refused = start.kind == .registrationCode && result.status == 401
            return .failed(codeRefused: refused)
        }
        if start.kind == .registrationCode {
            guard let json = try? Value(jsonBytes: r.body), let code = json["code"]?.stringValue,
                let expires = json["expires"]?.intValue
            else { return .failed(codeRefused: false) }
            return .showCode(RegistrationCode(code: code, expires: Instant(milliseconds: Int64(expires))), session: nil)
        }
        let source: TokenSource = start.kind == .platformSSO ? .platformSSO : .sp
        return .readToken(tokenRequest(start.mvpd, signed: false, core), source: source, session: nil)
    }

    func codeCheckRequest(_ code: RegistrationCode, mvpd: MVPD, _ core: EngineCore) -> WireRequest {
        let url = Route.checkAuthentication.url(
            core.spURL(forMVPD: mvpd.id), code.code,
            query: [("requestor", core.requestorID), ("deviceId", core.configuration.deviceID)])
        return WireRequest(http: HTTPRequest(method: Route.checkAuthentication.method, url: url), signed: true)
    }

    /// 200: the code was used (the token is read, signed); 410: the SP says the code is gone.
    func codeChecked(_ result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant) -> CodeCheck {
        switch result.status {
        case 200: .readToken(tokenRequest(context.mvpd, signed: true, core))
        case 410: .gone
        default: .pending
        }
    }

    func tokenRequestAfterBrowser(mvpd: MVPD, session: LoginSession?, _ core: EngineCore) -> WireRequest {
        tokenRequest(mvpd, signed: false, core)
    }

    /// `sessionDevice`; `signed`: the token read of the registration-code flow.
    private func tokenRequest(_ mvpd: MVPD, signed: Bool, _ core: EngineCore) -> WireRequest {
        var fields = [
            ("_method", "GET"), ("requestor_id", core.requestorID), ("device_id", core.configuration.deviceID),
        ]
        if let signedRequestorID = core.signedRequestorID { fields.append(("signed_requestor_id", signedRequestorID)) }
        return WireRequest(http: .form(Route.sessionDevice.url(core.spURL(forMVPD: mvpd.id)), fields), signed: signed)
    }

    func loginToken(in result: HTTPResult, _ context: TokenContext, _ core: EngineCore, at now: Instant)
        -> LoginTokenAnswer
    {
        guard case .response(let r) = result, r.status == 200,
            let answer = r.decoded(orParse: SessionDeviceXML.Answer.parse)
        else { return .none }
        switch answer.content {
        case .token(let token) where token.expires > now:
            return .token(
                LoginToken(token: token, userMeta: answer.userMeta, platformSSO: context.source == .platformSSO))
        case .pendingLogout:
            return .pendingLogout
        case .token, .none:
            return .none
        }
    }

    // MARK: Authorization

    func servingAuthorization(for resource: String, _ core: inout EngineCore, at now: Instant) -> AuthzToken? {
        core.store.validAuthzToken(for: resource, at: now)
    }

    func authorizeRequest(resource: String, data: Value?, token: AuthnToken, _ core: EngineCore) -> WireRequest {
        var fields: [(String, String)] = [
            ("resource_id", resource), ("requestor_id", core.requestorID), ("mso_id", token.mvpdID),
            ("device_id", core.configuration.deviceID), ("userMeta", "1"),
            ("authentication_token", AuthnTokenXML.build(token)),
        ]
        if let data { fields.append(("generic_data", data.jsonText)) }
        return WireRequest(http: .form(Route.authorizeDevice.url(core.spURL(forMVPD: token.mvpdID)), fields))
    }

    func authorizeAnswer(
        _ result: HTTPResult, resource: String, asked: AuthnToken, _ core: EngineCore, at now: Instant
    ) -> AuthorizeAnswer {
        guard case .response(let r) = result, let content = r.decoded(orParse: AuthorizeDeviceXML.parse) else {
            return .unusable
        }
        switch content {
        case .token(let token) where r.status == 200 && token.expires > now:
            return .permitted(token)
        case .error(let body) where r.status == 403 || r.status == 401:
            return .denied(details: body.details)
        default:
            return .unusable
        }
    }

    func mediaTokenRequest(_ authz: AuthzToken, requestorID: String, _ core: EngineCore) -> WireRequest {
        let fields: [(String, String)] = [
            ("session_guid", authz.sessionGUID), ("hashed_guid", "false"), ("authz_token", AuthzTokenXML.build(authz)),
            ("requestor_id", requestorID), ("mso_id", authz.mvpdID), ("device_id", core.configuration.deviceID),
        ]
        return WireRequest(http: .form(Route.deviceShortAuthorize.url(core.spURL(forMVPD: authz.mvpdID)), fields))
    }

    /// The short media token is the body as the SP sent it.
    func mediaTokenAnswer(_ result: HTTPResult) -> MediaTokenAnswer {
        if case .response(let r) = result, r.status == 200, !r.body.isEmpty { return .granted(mediaToken: r.bodyText) }
        if case .response(let r) = result, r.status == 403, let body = r.decoded(orParse: ErrorXML.parse) {
            return .denied(details: body.details)
        }
        return .unusable
    }

    // MARK: Preauthorization

    func preauthorizeRequest(resources: [String], token: AuthnToken, _ core: EngineCore) -> WireRequest {
        let fields: [(String, String)] = [
            ("authentication_token", AuthnTokenXML.build(token)), ("requestor_id", core.requestorID),
        ]
        let url = Route.preauthorize.url(core.spURL(forMVPD: token.mvpdID))
        return WireRequest(http: .form(url, fields + resources.map { ("resource_id", $0) }))
    }

    func decisions(in result: HTTPResult) -> [(resource: String, authorized: Bool)]? {
        guard case .response(let r) = result, r.status == 200, let decisions = r.decoded(orParse: PreauthorizeXML.parse)
        else { return nil }
        return decisions.map { ($0.resourceID, $0.authorized) }
    }

    // MARK: Logout

    /// tvOS asks even with no MVPD: the SP logs the device out of whatever it holds.
    func deviceLogoutRequest(mvpd: String?, sp: String, _ core: EngineCore) -> WireRequest? {
        let url = Route.restLogout.url(
            sp, query: [("requestor", core.requestorID), ("deviceId", core.configuration.deviceID)])
        return WireRequest(http: HTTPRequest(method: Route.restLogout.method, url: url), signed: true)
    }

    func logoutStep(token: AuthnToken, svc: Bool, sp: String, _ core: EngineCore) -> LogoutStep {
        let requestorID = core.requestorID
        let query: [(String, String)] = [
            ("mso_id", token.mvpdID), ("requestor_id", requestorID.isEmpty ? token.requestorID : requestorID),
            ("name_id", token.nameID), ("session_index", token.sessionIndex),
            ("redirect_url", svc ? core.configuration.svcScheme : Constants.adobePassRedirectURL),
        ]
        return .open(url: Route.logout.url(sp, query: query))
    }

    func logoutPage(in result: HTTPResult, mvpd: String) -> String? { nil }  // never asked

    // MARK: Metadata

    func deviceIDQuery(_ core: EngineCore) -> DeviceIDQuery {
        let fields = [("requestor_id", core.requestorID), ("device_id", core.configuration.deviceID)]
        let sp = core.store.authnToken.map { core.spURL(forMVPD: $0.mvpdID) } ?? core.defaultSP
        return .ask(WireRequest(http: .form(Route.getMetadataDevice.url(sp), fields)))
    }

    func deviceID(in result: HTTPResult) -> String? {
        guard case .response(let r) = result, r.status == 200 else { return nil }
        return try? MetadataXML.parse(r.body)
    }
}
