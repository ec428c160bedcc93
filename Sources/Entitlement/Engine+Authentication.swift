import PassModel
import PassXML

extension Engine {
    func status(_ ok: Bool, _ code: String) -> EngineAction {
        .deliver(.setAuthenticationStatus(status: ok ? Constants.statusSuccess : Constants.statusError, errorCode: code))
    }

    func authenticationFailure(_ code: String) -> [EngineAction] {
        [status(false, code), .deliver(tracking.authenticationFailure())]
    }

    /// `checkAuthentication` reads the token store only.
    mutating func checkAuthentication(at now: Instant) -> [EngineAction] {
        if let token = store.validAuthnToken(at: now) {
            return [status(true, Constants.userAuthenticated),
                    .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true))]
        }
        return authenticationFailure(Constants.userNotAuthenticatedError)
    }

    /// `getAuthentication`, and the authentication a `getAuthorization` without a token drives.
    mutating func startLogin(forceAuthn: Bool, data: Value?, filter: Value?, authorization: PendingAuthorization?, at now: Instant) -> [EngineAction] {
        // A new login supersedes a running one, and a logout waiting on its browser, with no callback.
        var actions = abandonLogin()
        if logoutState == .awaitingRedirect { logoutState = .idle }
        if !forceAuthn, authorization == nil, let token = store.validAuthnToken(at: now) {
            return actions + [status(true, Constants.userAuthenticated),
                              .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true))]
        }
        let login = newLogin(forceAuthn: forceAuthn, data: data, authorization: authorization)
        // Promotional TempPass: the data (an email) goes to the SP for the selected pass.
        if data != nil, let selected = store.selectedMVPD, selected.promoTempPass {
            return actions + startTempPass(login, selected, data: data, at: now)
        }
        let mvpds = startup.configuration?.mvpds ?? []
        guard !mvpds.isEmpty else {
            // Nothing to pick from (other SDKs: AND-1.8 and JS answer a generic failure).
            return actions + authenticationFailure(Constants.genericAuthenticationError)
        }
        // A filter that leaves no SSO MVPD is ignored, and the classic dialog follows (BEHAVIOR.md, Apple SSO).
        if mvpds.contains(where: \.enablePlatformServices), case let picker = Engine.picker(mvpds, filter: filter),
           !picker.shown.isEmpty {
            authentication = .picking(login, picker)
            actions.append(.deliver(.presentTvProviderDialog(shown: picker.shown, featured: picker.featured)))
            return actions
        }
        authentication = .selecting(login)
        actions.append(.deliver(.displayProviderDialog(mvpds)))
        return actions
    }

    /// Apple's picker: the SSO MVPDs, filtered (`{TV_PROVIDERS, FEATURED_TV_PROVIDERS}` or a plain
    /// array) with non-SSO MVPDs dropped and the filter's order kept; without one, merged order. A
    /// featured MVPD must also be shown (seeds: "doivent également être spécifiés dans la liste
    /// TV_PROVIDERS"), so one the shown list lacks is dropped from `featured`.
    static func picker(_ mvpds: [MVPD], filter: Value?) -> Picker {
        let sso = mvpds.filter(\.enablePlatformServices)
        func pick(_ ids: [Value]?) -> [MVPD] {
            (ids ?? []).compactMap { v in
                guard let id = v.stringValue ?? (v.mvpdValue?.id) else { return nil }
                return sso.first { $0.id == id }
            }
        }
        switch filter {
        case .list(let ids)?:
            return Picker(shown: pick(ids), featured: [])
        case .dict?:
            let shown = filter?[Constants.tvProviders].map { pick($0.listValue) } ?? sso
            let featured = pick(filter?[Constants.featuredTvProviders]?.listValue).filter { f in shown.contains { $0.id == f.id } }
            return Picker(shown: shown, featured: featured)
        default:
            return Picker(shown: sso, featured: [])
        }
    }

    mutating func setSelectedProvider(_ id: String?, at now: Instant) -> [EngineAction] {
        guard let id, let mvpd = startup.configuration?.mvpd(id) else {
            // nil, or an id the configuration does not offer (other SDKs): reset the authentication
            // state machine. Outside a login the same answer is given (AND-1.8; docs/CONFORMANCE.md).
            // Apple's picker, if up, is taken down first (BEHAVIOR.md, Cancel via nil).
            var actions: [EngineAction] = []
            if case .picking(_, let picker) = authentication {
                actions.append(.deliver(.dismissTvProviderDialog(shown: picker.shown, featured: picker.featured)))
            }
            actions += abandonLogin()
            store.selectedMVPD = nil
            actions += authenticationFailure(Constants.providerNotSelectedError)
            return actions
        }
        var actions = select(mvpd)
        switch authentication {
        case .idle:
            // No flow running: this just selects, and a TempPass authenticates at once.
            if mvpd.tempPass {
                actions += startTempPass(newLogin(forceAuthn: false, data: nil, authorization: nil), mvpd, data: nil, at: now)
            }
        case .selecting(let login), .picking(let login, _), .browsing(let login, _), .awaitingPromotionData(let login, _),
             .starting(let login, _, _, _), .awaitingCode(let login, _, _, _), .fetchingToken(let login, _, _, _):
            // Picking (again) during a login restarts it with this MVPD.
            actions += abandonLogin()
            actions += beginMVPDLogin(login, mvpd, at: now)
        }
        return actions
    }

    /// A different MVPD becomes the stored one, clears the tokens and is tracked (other SDKs).
    mutating func select(_ mvpd: MVPD) -> [EngineAction] {
        defer { store.selectedMVPD = mvpd }
        guard store.selectedMVPD?.id != mvpd.id else { return [] }
        store.clearTokens()
        return [.deliver(tracking.selection(mvpdID: mvpd.id))]
    }

    /// The login with a chosen MVPD: TempPass at once, promotional TempPass waits for its data,
    /// tvOS shows a registration code, iOS opens the browser.
    mutating func beginMVPDLogin(_ login: Login, _ mvpd: MVPD, at now: Instant) -> [EngineAction] {
        if mvpd.tempPass { return startTempPass(login, mvpd, data: nil, at: now) }
        if mvpd.promoTempPass {
            authentication = .awaitingPromotionData(login, mvpd)
            return []
        }
        if configuration.platform == .tvos {
            let fields = [("deviceId", configuration.deviceID), ("mvpd", mvpd.id)]
            let url = spURL(forMVPD: mvpd.id) + "/reggie/v1/" + FormCoding.escape(requestorID) + "/regcode"
            let (id, actions) = send(.form(url, fields), for: .startLogin(loginID: login.id), at: now, signed: true)
            authentication = .starting(login, mvpd, id, .registrationCode)
            return actions
        }
        var query: [(String, String)] = [
            ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"),
            ("mso_id", mvpd.id), ("requestor_id", requestorID),
            ("redirect_url", mvpd.requiresSVC ? configuration.svcScheme : Constants.adobePassRedirectURL),
            ("client_type", configuration.platform.osName), ("client_version", configuration.clientVersion),
        ]
        if let data = login.data { query.append(("generic_data", data.jsonText)) }
        authentication = .browsing(login, mvpd)
        return [openBrowser(spURL(forMVPD: mvpd.id) + "/authenticate/saml?" + FormCoding.encode(query), for: mvpd)]
    }

    /// Where a login or logout page opens: `navigateToUrl(url)` for the app; for an MVPD that requires
    /// SVC, `navigateToUrl(url, true)` under `handleSVC`, else SFSafariViewController presented by the
    /// SDK itself, no callback (BEHAVIOR.md, Authentication 3).
    func openBrowser(_ url: String, for mvpd: MVPD?) -> EngineAction {
        guard let mvpd, mvpd.requiresSVC else { return .deliver(.navigateToUrl(url, useSVC: nil)) }
        let handleSVC = options.first { $0.key == "handleSVC" }?.value == .bool(true)
        return handleSVC ? .deliver(.navigateToUrl(url, useSVC: true)) : .presentBrowser(url: url)
    }

    private mutating func startTempPass(_ login: Login, _ mvpd: MVPD, data: Value?, at now: Instant) -> [EngineAction] {
        var fields = [("requestor_id", requestorID), ("mso_id", mvpd.id), ("device_id", configuration.deviceID)]
        if let data { fields.append(("generic_data", data.jsonText)) }
        let (id, actions) = send(.form(spURL(forMVPD: mvpd.id) + "/authenticate/freepreview", fields),
                                 for: .startLogin(loginID: login.id), at: now)
        authentication = .starting(login, mvpd, id, .tempPass)
        return actions
    }

    /// The user acted in Apple's picker: it is dismissed first, then the outcome is acted on.
    mutating func pickerFinished(_ outcome: PickerOutcome, at now: Instant) -> [EngineAction] {
        guard case .picking(let login, let picker) = authentication else { return [] }
        var actions: [EngineAction] = [.deliver(.dismissTvProviderDialog(shown: picker.shown, featured: picker.featured))]
        switch outcome {
        case .cancelled:
            authentication = .idle
            store.selectedMVPD = nil
            actions.append(.deliver(.status(code: StatusCode.pickerCancelled, message: nil)))
            actions += authenticationFailure(Constants.providerNotSelectedError)
        case .otherProvider:
            authentication = .selecting(login)
            actions.append(.deliver(.status(code: StatusCode.otherProvider, message: nil)))
            actions.append(.deliver(.displayProviderDialog(startup.configuration?.mvpds ?? [])))
        case .picked(let id, let appleToken):
            guard let mvpd = picker.shown.first(where: { $0.id == id }) else {
                authentication = .idle
                actions += authenticationFailure(Constants.providerNotSelectedError)
                return actions
            }
            actions += select(mvpd)
            if mvpd.boardingStatus == .supported, let appleToken {
                let fields = [("requestor", requestorID), ("deviceId", configuration.deviceID), ("mvpd", mvpd.id),
                              ("deviceType", configuration.platform.osName), ("SAMLResponse", appleToken)]
                let (rid, sent) = send(.form(spURL(forMVPD: mvpd.id) + "/api/v1/tokens/authn", fields),
                                       for: .startLogin(loginID: login.id), at: now)
                authentication = .starting(login, mvpd, rid, .platformSSO)
                actions += sent
            } else {
                actions += beginMVPDLogin(login, mvpd, at: now)
            }
        }
        return actions
    }

    /// The answer to the request that starts a login without a browser: TempPass, an Apple token
    /// exchange (both 204), or a tvOS registration code (201 with its JSON).
    mutating func loginStarted(_ result: HTTPResult, loginID: Int, at now: Instant) -> [EngineAction] {
        guard case .starting(let login, let mvpd, _, let kind) = authentication, login.id == loginID else { return [] }
        guard case .response(let r) = result, (200..<300).contains(r.status) else {
            authentication = .idle
            if kind == .registrationCode, case .response(let r) = result, r.status == 401 {
                // Refused for want of a signature or an access token (BEHAVIOR.md; the real SDK is
                // reported to crash here, KB-REGCODE).
                return [.deliver(.status(code: StatusCode.registrationCodeFailed, message: nil))]
                    + authenticationFailure(Constants.genericAuthenticationError)
            }
            return authenticationFailure(Constants.genericAuthenticationError)
        }
        if kind == .registrationCode {
            guard let json = try? Value(jsonText: r.bodyText), let code = json["code"]?.stringValue,
                  let expires = json["expires"]?.intValue else {
                authentication = .idle
                return authenticationFailure(Constants.genericAuthenticationError)
            }
            let (timer, start) = startTimer(.codePoll(loginID: login.id), at: now + Engine.codePollInterval)
            authentication = .awaitingCode(login, mvpd, RegistrationCode(code: code, expires: Instant(milliseconds: Int64(expires))), poll: .waiting(timer))
            return [.deliver(.status(code: StatusCode.registrationCode, message: code)), start]
        }
        return fetchToken(login, mvpd, kind == .platformSSO ? .platformSSO : .sp, at: now)
    }

    /// tvOS polls the SP every 10 s until the code is used (IOS-CONST: CLIENTLESS_POLL_TIMER_INTERVAL).
    static let codePollInterval = Millis.seconds(10)

    mutating func pollCode(loginID: Int, at now: Instant) -> [EngineAction] {
        guard case .awaitingCode(let login, let mvpd, let code, .waiting) = authentication, login.id == loginID else { return [] }
        if now >= code.expires {
            authentication = .idle
            return authenticationFailure(Constants.genericAuthenticationError)
        }
        let url = spURL(forMVPD: mvpd.id) + "/api/v1/checkauthn/" + FormCoding.escape(code.code) + "?"
            + FormCoding.encode([("requestor", requestorID), ("deviceId", configuration.deviceID)])
        let (id, actions) = send(HTTPRequest(method: "GET", url: url), for: .checkCode(loginID: loginID), at: now, signed: true)
        authentication = .awaitingCode(login, mvpd, code, poll: .asking(id, next: now + Engine.codePollInterval))
        return actions
    }

    mutating func codeChecked(_ result: HTTPResult, loginID: Int, at now: Instant) -> [EngineAction] {
        guard case .awaitingCode(let login, let mvpd, let code, .asking(_, let next)) = authentication, login.id == loginID else { return [] }
        if case .response(let r) = result, r.status == 200 {
            return fetchToken(login, mvpd, .sp, signed: true, at: now)
        }
        if case .response(let r) = result, r.status == 410 {
            authentication = .idle
            return authenticationFailure(Constants.genericAuthenticationError)
        }
        // Not used yet (or the poll failed): ask again in 10 s, or give up at the code's expiry.
        let (timer, start) = startTimer(.codePoll(loginID: login.id), at: max(min(next, code.expires), now))
        authentication = .awaitingCode(login, mvpd, code, poll: .waiting(timer))
        return [start]
    }

    /// The app intercepted the redirect. Honoured once per waiting flow; ignored otherwise.
    mutating func handleExternalURL(at now: Instant, loginOnly: Bool = false) -> [EngineAction] {
        if case .browsing(let login, let mvpd) = authentication {
            return fetchToken(login, mvpd, .sp, at: now)
        }
        if !loginOnly, logoutState == .awaitingRedirect {
            logoutState = .idle
            return [status(false, Constants.userNotAuthenticatedError)]
        }
        return []
    }

    /// `signed`: the token fetch of the registration-code flow.
    private mutating func fetchToken(_ login: Login, _ mvpd: MVPD, _ source: TokenSource, signed: Bool = false, at now: Instant) -> [EngineAction] {
        var fields = [("_method", "GET"), ("requestor_id", requestorID), ("device_id", configuration.deviceID)]
        if let signedRequestorID { fields.append(("signed_requestor_id", signedRequestorID)) }
        let (id, actions) = send(.form(spURL(forMVPD: mvpd.id) + "/sessionDevice", fields), for: .sessionDevice(loginID: login.id),
                                 at: now, signed: signed)
        authentication = .fetchingToken(login, mvpd, id, source)
        return actions
    }

    /// The authN token request ended: success, no token, a refusal, an error status or a timeout.
    mutating func authnTokenArrived(_ result: HTTPResult, loginID: Int, at now: Instant) -> [EngineAction] {
        guard case .fetchingToken(let login, _, _, let source) = authentication, login.id == loginID else { return [] }
        authentication = .idle
        if case .response(let r) = result, r.status == 200, let content = try? SessionDeviceXML.parse(r.body) {
            switch content {
            case .token(let token) where token.expires > now:
                store.store(token, userMeta: (try? SessionDeviceXML.parseUserMeta(r.body)) ?? nil, fromPlatformSSO: source == .platformSSO)
                var actions: [EngineAction] = [
                    status(true, Constants.userAuthenticated),
                    .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: false)),
                ]
                if let pending = login.authorization {
                    actions += authorize(pending.resource, data: pending.data, at: now)
                }
                return actions
            case .pendingLogout:
                store.clearTokens()
            case .token, .none:
                break
            }
        }
        // A getAuthorization waiting on this login ends with the failure alone (invariant 3).
        return authenticationFailure(Constants.genericAuthenticationError)
    }
}

extension Value {
    var mvpdValue: MVPD? {
        if case .mvpd(let m) = self { return m }
        return nil
    }
}
