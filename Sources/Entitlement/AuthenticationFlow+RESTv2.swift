import PassModel

/// The authentication flow on the REST API v2 wire (rest-api-v2.md 1.5): every login
/// starts with `POST sessions`; the browser (iOS) or a second screen (tvOS, polling the code) logs
/// in at `/authenticate/{sp}/{code}`; a TempPass, a degraded MVPD or a device that already has a
/// profile is told to `authorize` at once; the MVPD's profile becomes the authN token and its
/// attributes the user metadata, so the callbacks are the SDK wire's.
extension AuthenticationFlow {
    /// The answer to the request that starts the login: `POST sessions`, or for Apple's token
    /// `POST profiles/sso/Apple`, whose answer is the profile itself.
    mutating func v2LoginStarted(_ result: HTTPResult, _ s: Starting, _ core: inout EngineCore, at now: Instant)
        -> Answered
    {
        if s.kind == .platformSSO {
            return v2ProfileArrived(result, s.login, s.mvpd, .platformSSO, nil, &core, at: now)
        }
        guard let session = V2Answer.session(result) else { return failed(&core) }
        switch session.action {
        case .authorize:
            // No login needed (a live profile, a TempPass, a degraded MVPD): the MVPD's profile; a
            // promotional TempPass's is its identity's, so the session's header goes with it.
            return Answered(
                actions: v2FetchProfile(
                    s.login, s.mvpd, .profile(serviceProvider: core.requestorID, mvpd: s.mvpd.id),
                    sessionID: session.sessionID, identity: s.kind == .tempPass ? s.login.data : nil, &core,
                    at: now))
        case .authenticate(let url):
            guard let code = session.code, s.kind != .tempPass else { return failed(&core) }
            if s.kind == .registrationCode {
                // The TV shows the code until the session's notAfter; its profile is polled meanwhile.
                let registrationCode = RegistrationCode(code: code, expires: session.notAfter ?? now + .minutes(30))
                let (timer, start) = core.startTimer(at: Self.nextPoll(after: now, registrationCode, core))
                state = .awaitingCode(
                    .init(
                        login: s.login, mvpd: s.mvpd, code: registrationCode, timer: timer,
                        sessionID: session.sessionID))
                return Answered(actions: [.deliver(.status(code: StatusCode.registrationCode, message: code)), start])
            }
            state = .browsing(
                .init(login: s.login, mvpd: s.mvpd, session: V2Session(code: code, id: session.sessionID)))
            // Adobe writes the user agent's URL relative to the SP's origin.
            let page = url.hasPrefix("/") ? V2Route.origin(ofSP: core.spURL(forMVPD: s.mvpd.id)) + url : url
            return Answered(actions: [core.openBrowser(page, for: s.mvpd)])
        }
    }

    /// tvOS: a poll of the code's profile answered (`s` no longer holds it). A profile ends the
    /// login; a refused code (an unknown or expired session: 400) fails it; anything else (no
    /// profile yet, a server error, throttling, no answer): the timer asks again, until the
    /// session's `notAfter`.
    mutating func v2CodeChecked(_ result: HTTPResult, _ s: AwaitingCode, _ core: inout EngineCore, at now: Instant)
        -> Answered
    {
        if let profiles = V2Answer.profiles(result), !profiles.isEmpty {
            let ended = Self.endPolling(s)
            let answered = v2ProfileArrived(result, s.login, s.mvpd, .sp, s.sessionID, &core, at: now)
            return Answered(actions: ended + answered.actions, authorize: answered.authorize)
        }
        if case .response(let r) = result, r.status == 400 {
            let ended = Self.endPolling(s)
            return Answered(actions: ended + failed(&core).actions)
        }
        return Answered(actions: [])
    }

    /// Reads the profile the token is made from: `profiles/{mvpd}` or `profiles/code/{code}`.
    mutating func v2FetchProfile(
        _ login: Login, _ mvpd: MVPD, _ route: V2Route, sessionID: String?, identity: Value? = nil,
        _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        let headers = identity.map { [EngineCore.v2TempPassIdentity($0)] } ?? []
        let (request, actions) = core.send(
            core.v2Request(route, sp: core.spURL(forMVPD: mvpd.id), headers: headers), at: now)
        state = .fetchingToken(.init(login: login, mvpd: mvpd, request: request, source: .sp, sessionID: sessionID))
        return actions
    }

    /// A profiles answer: the MVPD's live profile becomes the authN token (its GUID the session's
    /// id); none (the login did not complete), or an unusable answer, fails the login.
    mutating func v2ProfileArrived(
        _ result: HTTPResult, _ login: Login, _ mvpd: MVPD, _ source: TokenSource, _ sessionID: String?,
        _ core: inout EngineCore, at now: Instant
    ) -> Answered {
        state = .idle
        guard let profile = V2Answer.profiles(result)?.first(where: { $0.mvpd == mvpd.id }), profile.notAfter > now
        else { return failed(&core) }
        let token = V2Answer.token(
            profile, sessionID: sessionID ?? profile.impliedSessionID, requestorID: core.requestorID,
            deviceID: core.configuration.deviceID)
        let apple = source == .platformSSO || profile.type == "appleSSO"
        // A promotional TempPass's decisions are its identity's: the token keeps the login's data.
        let identity = mvpd.tempPass || mvpd.promoTempPass ? login.data : nil
        return Self.loggedIn(
            token, userMeta: profile.userMeta, fromPlatformSSO: apple, tempPassIdentity: identity, login, &core)
    }

    private mutating func failed(_ core: inout EngineCore) -> Answered {
        state = .idle
        return Answered(actions: core.authenticationFailure(Constants.genericAuthenticationError))
    }
}
