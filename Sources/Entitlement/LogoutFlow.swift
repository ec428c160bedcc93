import PassModel
import PassXML

/// The logout flow: between `navigateToUrl(logoutUrl)` and `handleExternalURL` (iOS), or the
/// logout requests (tvOS): each `logout()` waits for its own request, so two logouts in a row get
/// two answers, each when its request returns (BEHAVIOR.md, Logout: an answer belongs to its logout).
struct LogoutFlow: Sendable, RequestHolder {
    fileprivate enum State: Hashable, Sendable {
        case idle
        /// iOS: the logout page is open; the redirect's `handleExternalURL` answers.
        case awaitingRedirect
        /// tvOS: one request per `logout()` whose answer is still owed.
        case requesting([PendingRequest])
        /// iOS on REST API v2: `GET logout/{mvpd}` is out; its answer says which page opens.
        case askingForPage(PendingRequest, mvpd: MVPD)
    }

    fileprivate var state = State.idle
    /// tvOS: requests of logouts that `setRequestor` has ended since. No answer is owed for them,
    /// but each is still out, its deadline running, until it returns.
    fileprivate var ended: [PendingRequest] = []

    var outstanding: [PendingRequest] {
        switch state {
        case .requesting(let owed): return owed + ended
        case .askingForPage(let r, _): return [r] + ended
        case .idle, .awaitingRedirect: return ended
        }
    }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        outstanding.first(where: match).map { (.logout, $0) }
    }

    mutating func rearm(_ id: RequestID, deadline: TimerID) {
        if case .requesting(let owed) = state { state = .requesting(owed.map { $0.rearmed(id, deadline) }) }
        if case .askingForPage(let r, let mvpd) = state { state = .askingForPage(r.rearmed(id, deadline), mvpd: mvpd) }
        ended = ended.map { $0.rearmed(id, deadline) }
    }

    /// A new login takes down a logout's page with no answer.
    mutating func supersededByLogin() {
        if state == .awaitingRedirect { state = .idle }
        if case .askingForPage(let r, _) = state {
            ended.append(r)
            state = .idle
        }
    }

    /// `setRequestor` ends every logout with no answer.
    mutating func endedBySetRequestor() {
        if case .requesting(let owed) = state { ended += owed }
        if case .askingForPage(let r, _) = state { ended.append(r) }
        state = .idle
    }

    /// The app intercepted a redirect: true when it finishes a logout (which then answers).
    mutating func redirectArrived() -> Bool {
        guard state == .awaitingRedirect else { return false }
        state = .idle
        return true
    }

    // MARK: Transitions

    /// `logout` (the running login has been ended): whether a valid token exists is judged now;
    /// everything is cleared at once; then the logout page opens (iOS) or the logout request goes (tvOS).
    mutating func start(_ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        var actions: [EngineAction] = []
        // The token being cleared came from Apple's token, valid or already expired: the device's
        // Apple account is still signed in either way (BEHAVIOR.md, Logout).
        let fromPlatformSSO = core.store.authnToken != nil && core.store.fromPlatformSSO
        let token = core.store.validAuthnToken(at: now)
        let mvpd = core.store.selectedMVPD
        core.store.clearTokens()
        core.store.selectedMVPD = nil
        if core.configuration.platform == .ios {
            // The shared store is cleared too, even when this app held no token: another app's
            // token there goes as well (BEHAVIOR.md, Logout: "in this app and in the shared store").
            actions.append(.writeSharedStore(nil))
        }
        if fromPlatformSSO {
            // Signed in through Apple SSO: the user must also sign out in Settings.
            actions.append(.deliver(.status(code: StatusCode.vsa203, message: nil)))
        }
        let sp = token.map { core.spURL(forMVPD: $0.mvpdID) } ?? mvpd?.spURL ?? core.defaultSP

        if core.configuration.platform == .tvos {
            // No browser on tvOS: the engine calls the logout endpoint itself.
            guard let wire = core.dialect.deviceLogoutRequest(mvpd: token?.mvpdID ?? mvpd?.id, sp: sp, core) else {
                // Nothing to ask: the answer at once.
                return actions + [core.status(false, Constants.userNotAuthenticatedError)]
            }
            let (request, sent) = core.send(wire, at: now)
            if case .requesting(let owed) = state {
                state = .requesting(owed + [request])
            } else {
                state = .requesting([request])
            }
            return actions + sent
        }
        state = .awaitingRedirect
        guard let token else {
            // No valid token: straight to the redirect URL (other SDKs).
            actions.append(.deliver(.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil)))
            return actions
        }
        // Logout of an MVPD that requires SVC opens as its login did (BEHAVIOR.md, Authentication 3).
        let tokenMVPD = core.requestor?.mvpd(token.mvpdID) ?? mvpd
        let svc = tokenMVPD?.requiresSVC ?? false
        switch core.dialect.logoutStep(token: token, svc: svc, sp: sp, core) {
        case .open(let url):
            actions.append(core.openBrowser(url, for: tokenMVPD))
            return actions
        case .ask(let wire):
            // The SP says which page the browser opens, if any.
            let (pending, sent) = core.send(wire, at: now)
            if case .askingForPage(let r, _) = state { ended.append(r) }
            state = .askingForPage(pending, mvpd: tokenMVPD ?? MVPD(id: token.mvpdID, displayName: token.mvpdID))
            return actions + sent
        }
    }

    /// A logout request ended, however it ended: on tvOS that logout's answer; on iOS when the SP
    /// was asked for the page (REST API v2), the page it names opens (the redirect URL itself when the logout needs none, or the
    /// request failed: the app's `handleExternalURL` then answers, as after the SDK wire's page).
    mutating func answered(_ id: RequestID, _ result: HTTPResult, _ core: EngineCore) -> [EngineAction] {
        if case .askingForPage(let r, let mvpd) = state, r.id == id {
            state = .awaitingRedirect
            guard let page = core.dialect.logoutPage(in: result, mvpd: mvpd.id) else {
                return [.deliver(.navigateToUrl(Constants.adobePassRedirectURL, useSVC: nil))]
            }
            return [core.openBrowser(page, for: mvpd)]
        }
        if case .requesting(var owed) = state, let i = owed.firstIndex(where: { $0.id == id }) {
            owed.remove(at: i)
            state = owed.isEmpty ? .idle : .requesting(owed)
            return [core.status(false, Constants.userNotAuthenticatedError)]
        }
        ended.removeAll { $0.id == id }
        return []  // stale: a request of a logout that setRequestor has ended since, no answer owed
    }
}
