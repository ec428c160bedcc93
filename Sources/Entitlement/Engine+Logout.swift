import PassModel
import PassXML

extension Engine {
    /// `logout`: whether a valid token exists is judged now; everything is cleared at once.
    mutating func logout(at now: Instant) -> [EngineAction] {
        let token = store.validAuthnToken(at: now)
        let fromPlatformSSO = token != nil && store.fromPlatformSSO
        let mvpd = store.selectedMVPD
        var actions = abandonLogin()
        store.clearTokens()
        store.selectedMVPD = nil
        if fromPlatformSSO {
            // Signed in through Apple SSO: the user must also sign out in Settings.
            actions.append(.deliver(.status(code: StatusCode.vsa203, message: nil)))
        }
        let sp = token.map { spURL(forMVPD: $0.mvpdID) } ?? mvpd?.spURL ?? defaultSP

        if configuration.platform == .tvos {
            // No browser on tvOS: the engine calls the logout endpoint itself.
            let url = sp + "/api/v1/logout?" + FormCoding.encode([("requestor", requestorID), ("deviceId", configuration.deviceID)])
            let (id, sent) = send(HTTPRequest(method: "DELETE", url: url), for: .logout, at: now, signed: true)
            logoutState = .requesting(id)
            return actions + sent
        }
        logoutState = .awaitingRedirect
        guard let token else {
            // No valid token: straight to the redirect URL (other SDKs).
            actions.append(.deliver(.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)))
            return actions
        }
        let svc = (startup.configuration?.mvpd(token.mvpdID) ?? mvpd).map(usesSVC) ?? false
        let query: [(String, String)] = [
            ("mso_id", token.mvpdID), ("requestor_id", requestorID.isEmpty ? token.requestorID : requestorID),
            ("name_id", token.nameID), ("session_index", token.sessionIndex),
            ("redirect_url", svc ? configuration.svcScheme : Constants.adobePassRedirectURL),
        ]
        actions.append(.deliver(.navigateToUrl(sp + "/logout?" + FormCoding.encode(query), useSVC: svc ? true : nil)))
        return actions
    }

    /// tvOS: the logout request ended, however it ended.
    mutating func logoutAnswered() -> [EngineAction] {
        guard case .requesting = logoutState else { return [] }
        logoutState = .idle
        return [status(false, Constants.userNotAuthenticatedError)]
    }
}
