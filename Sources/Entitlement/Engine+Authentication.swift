import PassModel
import PassXML

extension Engine {
    func status(_ ok: Bool, _ code: String) -> EngineAction {
        .deliver(.setAuthenticationStatus(status: ok ? Constants.statusSuccess : Constants.statusError, errorCode: code))
    }

    /// `checkAuthentication` reads the token store only.
    mutating func checkAuthentication(at now: Instant) -> [EngineAction] {
        if let token = store.validAuthnToken(at: now) {
            return [status(true, Constants.userAuthenticated),
                    .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true))]
        }
        return [status(false, Constants.userNotAuthenticatedError), .deliver(tracking.authenticationFailure())]
    }

    mutating func getAuthentication(forceAuthn: Bool, data: Value?, at now: Instant) -> [EngineAction] {
        // A new getAuthentication supersedes a running login, and a logout waiting on its browser,
        // with no callback (choice, docs/CONFORMANCE.md).
        var actions = abandonLogin()
        logoutState = .idle
        if !forceAuthn, let token = store.validAuthnToken(at: now) {
            return actions + [status(true, Constants.userAuthenticated),
                              .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true))]
        }
        let mvpds = startup.configuration?.mvpds ?? []
        guard !mvpds.isEmpty else {
            // Nothing to pick from (other SDKs: AND-1.8 and JS answer a generic failure).
            return actions + [status(false, Constants.genericAuthenticationError), .deliver(tracking.authenticationFailure())]
        }
        authentication = .selecting(newLogin(forceAuthn: forceAuthn, data: data))
        actions.append(.deliver(.displayProviderDialog(mvpds)))
        return actions
    }

    mutating func setSelectedProvider(_ id: String?, at now: Instant) -> [EngineAction] {
        guard let id, let mvpd = startup.configuration?.mvpd(id) else {
            // nil, or an id the configuration does not offer (other SDKs): reset the authentication
            // state machine. Outside a login the same answer is given (AND-1.8; docs/CONFORMANCE.md).
            var actions = abandonLogin()
            store.selectedMVPD = nil
            actions += [status(false, Constants.providerNotSelectedError), .deliver(tracking.authenticationFailure())]
            return actions
        }
        var actions: [EngineAction] = []
        if store.selectedMVPD?.id != mvpd.id {
            store.clearTokens()
            actions.append(.deliver(tracking.selection(mvpdID: mvpd.id)))
        }
        store.selectedMVPD = mvpd
        switch authentication {
        case .selecting(let login), .browsing(let login, _):
            // Picking again while the browser is open restarts the login with the new pick.
            actions += navigateToLogin(login, mvpd)
        case .fetchingToken(let login, _, _):
            actions += abandonLogin()
            actions += navigateToLogin(login, mvpd)
        case .idle:
            break  // no flow running: this just selects
        }
        return actions
    }

    private mutating func navigateToLogin(_ login: Login, _ mvpd: MVPD) -> [EngineAction] {
        let svc = usesSVC(mvpd)
        let sp = mvpd.spURL ?? EngineConfiguration.normalizeSP(configuration.defaultServiceProvider)
        var query: [(String, String)] = [
            ("domain_name", "adobe.com"), ("noflash", "true"), ("no_iframe", "true"),
            ("mso_id", mvpd.id), ("requestor_id", startup.configuration?.requestorID ?? ""),
            ("redirect_url", svc ? configuration.svcScheme : Constants.adobePassRedirectURL),
            ("client_type", configuration.platform.osName), ("client_version", configuration.clientVersion),
        ]
        if let data = login.data { query.append(("generic_data", data.description)) }
        authentication = .browsing(login, mvpd)
        return [.deliver(.navigateToUrl(sp + "/authenticate/saml?" + FormCoding.encode(query), useSVC: svc ? true : nil))]
    }

    func usesSVC(_ mvpd: MVPD) -> Bool {
        mvpd.requiresSVC && options.first { $0.key == "handleSVC" }?.value == .bool(true)
    }

    /// The app intercepted the redirect. Honoured once per waiting flow; ignored otherwise.
    mutating func handleExternalURL(at now: Instant) -> [EngineAction] {
        if case .browsing(let login, let mvpd) = authentication {
            let sp = mvpd.spURL ?? EngineConfiguration.normalizeSP(configuration.defaultServiceProvider)
            let request = HTTPRequest.form(sp + "/sessionDevice", [
                ("_method", "GET"), ("requestor_id", startup.configuration?.requestorID ?? ""),
                ("device_id", configuration.deviceID),
            ])
            let (id, actions) = send(request, for: .sessionDevice(loginID: login.id), at: now)
            authentication = .fetchingToken(login, mvpd, id)
            return actions
        }
        if logoutState == .awaitingRedirect {
            logoutState = .idle
            return [status(false, Constants.userNotAuthenticatedError)]
        }
        return []
    }

    /// The authN token request ended: success, no token, a refusal, an error status or a timeout.
    mutating func authnTokenArrived(_ result: HTTPResult, loginID: Int, at now: Instant) -> [EngineAction] {
        guard case .fetchingToken(let login, _, _) = authentication, login.id == loginID else { return [] }
        authentication = .idle
        if case .response(let r) = result, r.status == 200, let content = try? SessionDeviceXML.parse(r.body) {
            switch content {
            case .token(let token) where token.expires > now:
                store.store(token)
                return [status(true, Constants.userAuthenticated),
                        .deliver(tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: false))]
            case .pendingLogout:
                store.clearTokens()
            case .token, .none:
                break
            }
        }
        return [status(false, Constants.genericAuthenticationError), .deliver(tracking.authenticationFailure())]
    }
}
