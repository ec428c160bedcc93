import PassModel

typealias ProfileCheckID = FlowID<ProfileCheck>

/// REST API v2: one `checkAuthentication` waiting on `GET profiles/{mvpd}`. Adobe maps the call to
/// the profiles endpoints (rest-api-v2.md 1.7): the answer is the device's profile as the SP holds it
/// now, not the app's store. The SDK wire answers from the store at once
/// (`AuthenticationFlow.check`), as it does here when there is no MVPD to ask about.
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
        guard let mvpd = core.store.validAuthnToken(at: now)?.mvpdID ?? core.store.selectedMVPD?.id else {
            return AuthenticationFlow.check(&core, at: now)
        }
        let id: ProfileCheckID = core.newFlowID()
        let request = core.v2Request(
            .profile(serviceProvider: core.requestorID, mvpd: mvpd), sp: core.spURL(forMVPD: mvpd))
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
        guard let profiles = V2Answer.profiles(result) else { return AuthenticationFlow.check(&core, at: now) }
        guard let profile = profiles.first(where: { $0.mvpd == flow.mvpd }), profile.notAfter > now else {
            if core.store.authnToken?.mvpdID == flow.mvpd { core.store.clearTokens() }
            return core.authenticationFailure(Constants.userNotAuthenticatedError)
        }
        // The held token is that profile's when it names its MVPD and ends when it does (a token
        // is made with its profile's notAfter); a profile made since (another login of the device)
        // replaces it, named after its MVPD and notBefore (choices 68, 70).
        let held = core.store.validAuthnToken(at: now)
        if held?.mvpdID != profile.mvpd || held?.expires != profile.notAfter {
            let token = V2Answer.token(
                profile, sessionID: profile.impliedSessionID, requestorID: core.requestorID,
                deviceID: core.configuration.deviceID)
            core.store.store(token, userMeta: profile.userMeta, fromPlatformSSO: profile.type == "appleSSO")
        }
        return AuthenticationFlow.check(&core, at: now)
    }
}
