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
            if case .requesting(let waiting) = logoutState {
                logoutState = .requesting(waiting.union([id]))
            } else {
                logoutState = .requesting([id])
            }
            return actions + sent
        }
        logoutState = .awaitingRedirect
        guard let token else {
            // No valid token: straight to the redirect URL (other SDKs).
            actions.append(.deliver(.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)))
            return actions
        }
        // Logout of an MVPD that requires SVC opens as its login did (BEHAVIOR.md, Authentication 3).
        let tokenMVPD = startup.configuration?.mvpd(token.mvpdID) ?? mvpd
        let svc = tokenMVPD?.requiresSVC ?? false
        let query: [(String, String)] = [
            ("mso_id", token.mvpdID), ("requestor_id", requestorID.isEmpty ? token.requestorID : requestorID),
            ("name_id", token.nameID), ("session_index", token.sessionIndex),
            ("redirect_url", svc ? configuration.svcScheme : Constants.adobePassRedirectURL),
        ]
        actions.append(openBrowser(sp + "/logout?" + FormCoding.encode(query), for: tokenMVPD))
        return actions
    }

    /// tvOS: a logout request ended, however it ended: that logout's answer.
    mutating func logoutAnswered(_ id: RequestID) -> [EngineAction] {
        guard case .requesting(var waiting) = logoutState, waiting.remove(id) != nil else {
            return []  // a request of a logout that setRequestor has ended since: no answer
        }
        logoutState = waiting.isEmpty ? .idle : .requesting(waiting)
        return [status(false, Constants.userNotAuthenticatedError)]
    }
}
