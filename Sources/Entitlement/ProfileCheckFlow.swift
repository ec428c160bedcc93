import PassModel

typealias ProfileCheckID = FlowID<ProfileCheck>

/// One `checkAuthentication` waiting on the SP's profile, where the wire asks for it (REST API v2
/// maps the call to `GET profiles/{mvpd}`, rest-api-v2.md 1.7): the answer is the device's profile as
/// the SP holds it now, not the app's store. Otherwise the store answers at once
/// (`AuthenticationFlow.check`), as it does when there is no MVPD to ask about.
struct ProfileCheck: Hashable, Sendable, OneRequestFlow {
    var mvpd: String
    var request: PendingRequest
    /// Asked before a `logout` or the choice of another provider (both clear the tokens): answered
    /// after it, it says the user is not authenticated and the store takes nothing (BEHAVIOR.md,
    /// Overlapping calls: nothing a flow brings after a logout counts; the SP still holds the old
    /// provider's profile, which must not sign the app in again behind the user's choice).
    var askedBeforeTokensCleared = false
}

/// The profile checks in progress, each waiting on its one request.
struct ProfileChecks: Sendable, FlowTable {
    var flows: [ProfileCheckID: ProfileCheck] = [:]

    static func owner(_ id: ProfileCheckID) -> RequestOwner { .profileCheck(id) }

    // MARK: Transitions

    /// `checkAuthentication`: the selected MVPD's profile (or the held token's MVPD's).
    mutating func start(_ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        // The held token is a valid one: an expired token is as good as none (BEHAVIOR.md, Time).
        guard let mvpd = core.store.validAuthnToken(at: now)?.mvpdID ?? core.store.selectedMVPD?.id,
            let request = core.dialect.profileCheckRequest(mvpd: mvpd, core)
        else { return AuthenticationFlow.check(&core, at: now) }
        let id: ProfileCheckID = core.newFlowID()
        let (pending, actions) = core.send(request, at: now)
        flows[id] = ProfileCheck(mvpd: mvpd, request: pending)
        return actions
    }

    /// `logout`, or another provider selected: the checks out now answer as logged out when their
    /// profile comes.
    mutating func tokensCleared() {
        for id in flows.keys { flows[id]?.askedBeforeTokensCleared = true }
    }

    /// The profile answered: a live one authenticates (the store takes it, keeping the held token
    /// when it is that profile's: same MVPD, same end); none means the SP holds no authentication for the device, so the
    /// store's token goes too. A failed request answers from the store, as the SDK wire does.
    mutating func answered(_ id: ProfileCheckID, _ result: HTTPResult, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        guard let flow = flows.removeValue(forKey: id) else {
            return []  // no such flow: nothing can be answered (the owner check makes this unreachable)
        }
        if flow.askedBeforeTokensCleared { return core.authenticationFailure(Constants.userNotAuthenticatedError) }
        switch core.dialect.checkedProfile(in: result, mvpd: flow.mvpd, core, at: now) {
        case .unusable:
            return AuthenticationFlow.check(&core, at: now)
        case .none:
            if core.store.authnToken?.mvpdID == flow.mvpd { core.store.clearTokens() }
            return core.authenticationFailure(Constants.userNotAuthenticatedError)
        case .profile(let profile):
            // The held token is that profile's when it names its MVPD and ends when it does (a token
            // is made with its profile's notAfter); a profile made since (another login of the device)
            // replaces it, named after its MVPD and notBefore (choices 68, 70).
            let held = core.store.validAuthnToken(at: now)
            if held?.mvpdID != profile.token.mvpdID || held?.expires != profile.token.expires {
                core.store.store(profile.token, userMeta: profile.userMeta, fromPlatformSSO: profile.platformSSO)
            }
            return AuthenticationFlow.check(&core, at: now)
        }
    }
}
