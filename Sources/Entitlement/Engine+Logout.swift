import PassModel

extension Engine {
    /// `logout`: whether a valid token exists is judged now; everything is cleared at once.
    mutating func logout(at now: Instant) -> [EngineAction] {
        let token = store.validAuthnToken(at: now)
        let mvpd = store.selectedMVPD
        var actions = abandonLogin()
        store.clearTokens()
        store.selectedMVPD = nil

        guard let token else {
            // No valid token: straight to the redirect URL (other SDKs).
            logoutState = .awaitingRedirect
            actions.append(.deliver(.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)))
            return actions
        }
        let tokenMVPD = startup.configuration?.mvpd(token.mvpdID) ?? mvpd
        let svc = tokenMVPD.map(usesSVC) ?? false
        let sp = tokenMVPD?.spURL ?? EngineConfiguration.normalizeSP(configuration.defaultServiceProvider)
        let query: [(String, String)] = [
            ("mso_id", token.mvpdID), ("requestor_id", startup.configuration?.requestorID ?? token.requestorID),
            ("name_id", token.nameID), ("session_index", token.sessionIndex),
            ("redirect_url", svc ? configuration.svcScheme : Constants.adobePassRedirectURL),
        ]
        logoutState = .awaitingRedirect
        actions.append(.deliver(.navigateToUrl(sp + "/logout?" + FormCoding.encode(query), useSVC: svc ? true : nil)))
        return actions
    }
}
