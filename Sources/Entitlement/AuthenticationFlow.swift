import PassModel
import PassXML

/// A `getAuthorization` waiting for the authentication it started.
struct PendingAuthorization: Hashable, Sendable {
    var resource: String
    var data: Value?
}

typealias LoginID = FlowID<Login>

/// One `getAuthentication` (or the authentication a `getAuthorization` drives) from its start to
/// its terminal callback.
struct Login: Hashable, Sendable {
    var id: LoginID
    var forceAuthn: Bool
    var data: Value?
    var authorization: PendingAuthorization?
}

/// What Apple's TV-provider picker shows.
struct Picker: Hashable, Sendable {
    var shown: [MVPD]
    var featured: [MVPD]
}

/// A tvOS registration code being polled.
struct RegistrationCode: Hashable, Sendable {
    var code: String
    var expires: Instant
}

/// The request that starts a login without a browser.
enum StartKind: Hashable, Sendable {
    case tempPass
    case platformSSO
    case registrationCode
    /// REST API v2: the `POST sessions` that starts a login in the browser.
    case session
}

/// How the authN token is being obtained after the user is done.
enum TokenSource: Hashable, Sendable {
    /// A SAML login in the browser (cookie session), a TempPass or a used registration code.
    case sp
    /// Apple's token, exchanged at the SP (a `SUPPORTED` MVPD): logout answers `VSA203` first.
    case platformSSO
}

/// The authentication state machine. A "login" (BEHAVIOR.md, Overlapping calls) is any state but
/// `idle`; each state is a struct that carries only what it needs, the request or timer it waits on
/// included, so an answer is the login's exactly when its state holds that request. The transitions
/// that need nothing but the state (taking the picker down, abandoning the login, telling which
/// answer a request is) are the flow's own, and tested without an engine (AuthenticationFlowTests).
struct AuthenticationFlow: Sendable, RequestHolder {
    enum State: Hashable, Sendable {
        case idle
        /// `displayProviderDialog` was delivered; waiting for `setSelectedProvider`.
        case selecting(Login)
        /// `presentTvProviderDialog` was delivered; waiting for the user.
        case picking(Picking)
        /// `navigateToUrl` was delivered; waiting for `handleExternalURL`.
        case browsing(Browsing)
        /// A promotional TempPass was selected; waiting for `getAuthentication(false, withData:)`.
        case awaitingPromotionData(Browsing)
        /// A TempPass request, an Apple token exchange or a registration-code request is out.
        case starting(Starting)
        /// tvOS: `status(REGCODE, code)` was delivered; polling until the code is used.
        case awaitingCode(AwaitingCode)
        /// The authN token request is out.
        case fetchingToken(FetchingToken)
    }

    struct Picking: Hashable, Sendable {
        var login: Login
        var picker: Picker
    }

    /// A login with its MVPD chosen and no request out: in the browser, or waiting for a promotion's data.
    struct Browsing: Hashable, Sendable {
        var login: Login
        var mvpd: MVPD
        /// The SP's session the browser logs in for (REST API v2), read at the redirect.
        var session: LoginSession? = nil
    }

    struct Starting: Hashable, Sendable {
        var login: Login
        var mvpd: MVPD
        var request: PendingRequest
        var kind: StartKind
    }

    struct AwaitingCode: Hashable, Sendable {
        var login: Login
        var mvpd: MVPD
        var code: RegistrationCode
        /// The repeating poll timer: due 10 s after the previous poll, at the code's expiry at the
        /// latest, whether or not that poll has answered (choice 18), so a slow or silent SP neither
        /// spaces the polls out nor keeps the login past its code (BEHAVIOR.md, tvOS).
        var timer: TimerID
        /// Polls out, oldest first: each answers for itself until the login ends.
        var polls: [PendingRequest] = []
        /// The SP's session of the code (REST API v2): the token takes its id.
        var sessionID: String? = nil
        /// The poll, built at the first and sent as it is by the others (each signed anew): its
        /// code, MVPD, requestor and SP stay as they are while the code is shown, since whatever
        /// changes them (`setRequestor`, another provider, `logout`) ends the login first.
        var check: WireRequest? = nil
    }

    struct FetchingToken: Hashable, Sendable {
        var login: Login
        var mvpd: MVPD
        var request: PendingRequest
        var source: TokenSource
        /// The SP's session whose token is being read (REST API v2): the token takes its id.
        var sessionID: String? = nil
    }

    var state = State.idle

    var login: Login? {
        switch state {
        case .idle: nil
        case .selecting(let l): l
        case .picking(let s): s.login
        case .browsing(let s), .awaitingPromotionData(let s): s.login
        case .starting(let s): s.login
        case .awaitingCode(let s): s.login
        case .fetchingToken(let s): s.login
        }
    }

    var picker: Picker? {
        if case .picking(let s) = state { return s.picker }
        return nil
    }

    var registrationCode: RegistrationCode? {
        if case .awaitingCode(let s) = state { return s.code }
        return nil
    }

    /// The requests the login has out: its one request, or the code's polls.
    var outstanding: [PendingRequest] {
        switch state {
        case .starting(let s): [s.request]
        case .fetchingToken(let s): [s.request]
        case .awaitingCode(let s): s.polls
        case .idle, .selecting, .picking, .browsing, .awaitingPromotionData: []
        }
    }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        outstanding.first(where: match).map { (.authentication, $0) }
    }

    var ownTimers: [(TimerID, TimerKind)] {
        if case .awaitingCode(let s) = state { return [(s.timer, .codePoll)] }
        return []
    }

    var load: (requests: Int, timers: Int) {
        switch state {
        case .starting(let s): (1, s.request.deadline == nil ? 0 : 1)
        case .fetchingToken(let s): (1, s.request.deadline == nil ? 0 : 1)
        case .awaitingCode(let s): (s.polls.count, s.polls.count { $0.deadline != nil } + 1)
        case .idle, .selecting, .picking, .browsing, .awaitingPromotionData: (0, 0)
        }
    }

    mutating func rearm(_ id: RequestID, deadline: TimerID) {
        switch state {
        case .starting(var s):
            s.request = s.request.rearmed(id, deadline)
            state = .starting(s)
        case .fetchingToken(var s):
            s.request = s.request.rearmed(id, deadline)
            state = .fetchingToken(s)
        case .awaitingCode(var s):
            s.polls = s.polls.map { $0.rearmed(id, deadline) }
            state = .awaitingCode(s)
        case .idle, .selecting, .picking, .browsing, .awaitingPromotionData: break
        }
    }

    /// Takes Apple's picker down when it is up (`dismissTvProviderDialog`); the login it belongs to
    /// goes on waiting, on the provider dialog, for whatever the caller does with it next.
    mutating func dismissPicker() -> [EngineAction] {
        guard case .picking(let s) = state else { return [] }
        state = .selecting(s.login)
        return [.deliver(.dismissTvProviderDialog(shown: s.picker.shown, featured: s.picker.featured))]
    }

    /// Ends the login with no callback (a superseding call, `logout`, `setRequestor`): its request or
    /// poll timer goes with it. Apple's picker, if up, is taken down first: every
    /// presentTvProviderDialog is balanced by exactly one dismissTvProviderDialog (BEHAVIOR.md, Apple SSO).
    mutating func abandon() -> [EngineAction] {
        var actions = dismissPicker()
        actions += outstanding.flatMap(Engine.cancelDeadline(of:))
        actions += ownTimers.map { .cancelTimer($0.0) }
        state = .idle
        return actions
    }

    // MARK: Transitions

    /// tvOS polls the SP every 10 s until the code is used (IOS-CONST: CLIENTLESS_POLL_TIMER_INTERVAL).
    static let codePollInterval = Millis.seconds(10)
    /// REST API v2 polls at the same pace: Adobe asks for "3–5 s or slower" (rest-api-v2.md 1.7), and
    /// the SDK's 10 s is slower, so a migrated app's second screen times out as it did (docs/CONFORMANCE.md, choice 66).
    static func pollInterval(_ core: EngineCore) -> Millis { codePollInterval }

    /// What an answer to the login's request leaves: its callbacks, and the authorization a
    /// `getAuthorization` started this login for, to run now that the token is stored (`Engine`
    /// starts it: it belongs to another flow).
    struct Answered {
        var actions: [EngineAction]
        var authorize: PendingAuthorization?
    }

    /// `checkAuthentication` reads the token store only.
    static func check(_ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        if let token = core.store.validAuthnToken(at: now) {
            return [
                core.status(true, Constants.userAuthenticated),
                .deliver(
                    core.tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true)),
            ]
        }
        return core.authenticationFailure(Constants.userNotAuthenticatedError)
    }

    /// A new login (`getAuthentication`, or the one a `getAuthorization` without a token drives), the
    /// running one already ended: answered from the store, or a TempPass with a promotion's data, or
    /// a picker (Apple's or the provider dialog).
    mutating func start(
        forceAuthn: Bool, data: Value?, filter: Value?, authorization: PendingAuthorization?,
        _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        if !forceAuthn, authorization == nil, let token = core.store.validAuthnToken(at: now) {
            return [
                core.status(true, Constants.userAuthenticated),
                .deliver(
                    core.tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: true)),
            ]
        }
        let login = Login(id: core.newFlowID(), forceAuthn: forceAuthn, data: data, authorization: authorization)
        // Promotional TempPass: the data (an email) goes to the SP for the selected pass.
        if data != nil, authorization == nil, let selected = core.store.selectedMVPD, selected.promoTempPass {
            return startTempPass(login, selected, data: data, &core, at: now)
        }
        let mvpds = core.requestor?.mvpds ?? []
        guard !mvpds.isEmpty else {
            // Nothing to pick from (other SDKs: AND-1.8 and JS answer a generic failure).
            return core.authenticationFailure(Constants.genericAuthenticationError)
        }
        // A filter that leaves no SSO MVPD is ignored, and the classic dialog follows (BEHAVIOR.md, Apple SSO).
        if mvpds.contains(where: \.enablePlatformServices), case let picker = Self.picker(mvpds, filter: filter),
            !picker.shown.isEmpty
        {
            state = .picking(.init(login: login, picker: picker))
            return [.deliver(.presentTvProviderDialog(shown: picker.shown, featured: picker.featured))]
        }
        state = .selecting(login)
        return [.deliver(.displayProviderDialog(mvpds))]
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
            let featured = pick(filter?[Constants.featuredTvProviders]?.listValue).filter { f in
                shown.contains { $0.id == f.id }
            }
            return Picker(shown: shown, featured: featured)
        default:
            return Picker(shown: sso, featured: [])
        }
    }

    /// `setSelectedProvider`.
    mutating func select(_ id: String?, _ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        guard let id, let mvpd = core.requestor?.mvpd(id) else {
            // nil, or an id the configuration does not offer (other SDKs): reset the authentication
            // state machine. Outside a login the same answer is given (AND-1.8; docs/CONFORMANCE.md).
            // Apple's picker, if up, is taken down first (BEHAVIOR.md, Cancel via nil).
            var actions = abandon()
            core.store.selectedMVPD = nil
            actions += core.authenticationFailure(Constants.providerNotSelectedError)
            return actions
        }
        // During Apple's picker the picker goes down first: the login moves on without it.
        var actions = dismissPicker()
        actions += Self.selectMVPD(mvpd, &core)
        if let login {
            // Picking (again) during a login restarts it with this MVPD.
            actions += abandon()
            actions += beginMVPDLogin(login, mvpd, &core, at: now)
        } else if mvpd.tempPass {
            // No flow running: this just selects, and a TempPass authenticates at once.
            let login = Login(id: core.newFlowID(), forceAuthn: false, data: nil, authorization: nil)
            actions += startTempPass(login, mvpd, data: nil, &core, at: now)
        }
        return actions
    }

    /// A different MVPD becomes the stored one, clears the tokens and is tracked (other SDKs).
    private static func selectMVPD(_ mvpd: MVPD, _ core: inout EngineCore) -> [EngineAction] {
        defer { core.store.selectedMVPD = mvpd }
        guard core.store.selectedMVPD?.id != mvpd.id else { return [] }
        core.store.clearTokens()
        return [.deliver(core.tracking.selection(mvpdID: mvpd.id))]
    }

    /// The login with a chosen MVPD: TempPass at once, promotional TempPass waits for its data,
    /// tvOS shows a registration code, iOS opens the browser.
    private mutating func beginMVPDLogin(_ login: Login, _ mvpd: MVPD, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        if mvpd.tempPass { return startTempPass(login, mvpd, data: nil, &core, at: now) }
        if mvpd.promoTempPass {
            state = .awaitingPromotionData(.init(login: login, mvpd: mvpd))
            return []
        }
        switch core.dialect.loginOpening(for: mvpd, data: login.data, core) {
        case .browser(let url):
            state = .browsing(.init(login: login, mvpd: mvpd))
            return [core.openBrowser(url, for: mvpd)]
        case .request(let wire, let kind):
            let (request, actions) = core.send(wire, at: now)
            state = .starting(.init(login: login, mvpd: mvpd, request: request, kind: kind))
            return actions
        }
    }

    private mutating func startTempPass(
        _ login: Login, _ mvpd: MVPD, data: Value?, _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        let (request, actions) = core.send(core.dialect.tempPassRequest(for: mvpd, data: data, core), at: now)
        state = .starting(.init(login: login, mvpd: mvpd, request: request, kind: .tempPass))
        return actions
    }

    /// The user acted in Apple's picker: it is dismissed first, then the outcome is acted on.
    mutating func pickerFinished(_ outcome: PickerOutcome, _ core: inout EngineCore, at now: Instant) -> [EngineAction]
    {
        guard case .picking(let s) = state else {
            return []  // stale: the picker is not up (taken down by a later call before the user acted)
        }
        return picked(outcome, s.login, s.picker, &core, at: now)
    }

    private mutating func picked(
        _ outcome: PickerOutcome, _ login: Login, _ picker: Picker, _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        var actions: [EngineAction] = [
            .deliver(.dismissTvProviderDialog(shown: picker.shown, featured: picker.featured))
        ]
        switch outcome {
        case .cancelled:
            state = .idle
            core.store.selectedMVPD = nil
            actions.append(.deliver(.status(code: StatusCode.pickerCancelled, message: nil)))
            actions += core.authenticationFailure(Constants.providerNotSelectedError)
        case .otherProvider:
            state = .selecting(login)
            actions.append(.deliver(.status(code: StatusCode.otherProvider, message: nil)))
            actions.append(.deliver(.displayProviderDialog(core.requestor?.mvpds ?? [])))
        case .picked(let id, let appleToken):
            guard let mvpd = picker.shown.first(where: { $0.id == id }) else {
                state = .idle
                actions += core.authenticationFailure(Constants.providerNotSelectedError)
                return actions
            }
            actions += Self.selectMVPD(mvpd, &core)
            if mvpd.boardingStatus == .supported, let appleToken {
                let exchange = core.dialect.platformSSORequest(for: mvpd, appleToken: appleToken, core, at: now)
                let (request, sent) = core.send(exchange, at: now)
                state = .starting(.init(login: login, mvpd: mvpd, request: request, kind: .platformSSO))
                actions += sent
            } else {
                actions += beginMVPDLogin(login, mvpd, &core, at: now)
            }
        }
        return actions
    }

    /// An answer to the login's request (`claim` found it in the state): which one the state says.
    mutating func answered(_ id: RequestID, _ result: HTTPResult, _ core: inout EngineCore, at now: Instant)
        -> Answered
    {
        switch state {
        case .starting(let s):
            let context = LoginStartContext(mvpd: s.mvpd, kind: s.kind, data: s.login.data)
            return loginStarted(core.dialect.loginStarted(result, context, core, at: now), s, &core, at: now)
        case .awaitingCode(var s):
            s.polls.removeAll { $0.id == id }
            state = .awaitingCode(s)
            let context = TokenContext(mvpd: s.mvpd, source: .sp, session: s.sessionID, data: s.login.data)
            return codeChecked(core.dialect.codeChecked(result, context, core, at: now), s, &core, at: now)
        case .fetchingToken(let s):
            let context = TokenContext(mvpd: s.mvpd, source: s.source, session: s.sessionID, data: s.login.data)
            return tokenArrived(core.dialect.loginToken(in: result, context, core, at: now), s.login, &core)
        case .idle, .selecting, .picking, .browsing, .awaitingPromotionData:
            // No request out: nothing can be answered (the owner check makes this unreachable).
            return Answered(actions: [])
        }
    }

    /// The answer to the request that starts a login: a TempPass, Apple's token, a second screen's
    /// code, or the SP's session for a login in the browser.
    private mutating func loginStarted(_ start: LoginStart, _ s: Starting, _ core: inout EngineCore, at now: Instant)
        -> Answered
    {
        switch start {
        case .failed(let codeRefused):
            state = .idle
            // The code was refused: the app hears of it first (BEHAVIOR.md, tvOS).
            let refused: [EngineAction] =
                codeRefused ? [.deliver(.status(code: StatusCode.registrationCodeFailed, message: nil))] : []
            return Answered(actions: refused + core.authenticationFailure(Constants.genericAuthenticationError))
        case .showCode(let code, let session):
            // The TV shows the code until it expires; it is polled meanwhile.
            let (timer, start) = core.startTimer(at: Self.nextPoll(after: now, code, core))
            state = .awaitingCode(.init(login: s.login, mvpd: s.mvpd, code: code, timer: timer, sessionID: session))
            return Answered(actions: [.deliver(.status(code: StatusCode.registrationCode, message: code.code)), start])
        case .browse(let url, let session):
            state = .browsing(.init(login: s.login, mvpd: s.mvpd, session: session))
            return Answered(actions: [core.openBrowser(url, for: s.mvpd)])
        case .readToken(let wire, let source, let session):
            return Answered(actions: readToken(s.login, s.mvpd, wire, source, session: session, &core, at: now))
        case .arrived(let answer):
            return tokenArrived(answer, s.login, &core)
        }
    }

    /// When the poll after one made at `now` is due: 10 s later, or at the code's expiry, which ends
    /// the login (BEHAVIOR.md, tvOS: the poll gives up when the code expires).
    static func nextPoll(after now: Instant, _ code: RegistrationCode, _ core: EngineCore) -> Instant {
        max(min(now + pollInterval(core), code.expires), now)
    }

    /// The poll timer fired (`timerKind` said it is the login's `codePoll`): the code expired, or the
    /// next poll goes out, whether or not the previous one has answered (choice 18).
    mutating func poll(_ core: inout EngineCore, at now: Instant) -> [EngineAction] {
        guard case .awaitingCode(var s) = state else {
            return []  // no code: the timer is not the login's (the owner check makes this unreachable)
        }
        // Idle until `s` goes back: the state holds no second reference to its polls to copy on append.
        state = .idle
        guard now < s.code.expires else {
            // Polls still out are given up with the login: their answers, if any come, are stale.
            return s.polls.flatMap(Engine.cancelDeadline(of:))
                + core.authenticationFailure(Constants.genericAuthenticationError)
        }
        let check = s.check ?? core.dialect.codeCheckRequest(s.code, mvpd: s.mvpd, core)
        s.check = check
        let (request, actions) = core.send(check, at: now)
        let (timer, start) = core.startTimer(at: Self.nextPoll(after: now, s.code, core))
        s.polls.append(request)
        s.timer = timer
        state = .awaitingCode(s)
        return actions + [start]
    }

    /// A poll answered (`s` no longer holds it): the code was used (the token is read, or came), the
    /// SP says the code is gone, or the timer asks again, until the code's expiry.
    private mutating func codeChecked(_ check: CodeCheck, _ s: AwaitingCode, _ core: inout EngineCore, at now: Instant)
        -> Answered
    {
        switch check {
        case .pending:
            return Answered(actions: [])
        case .gone:
            state = .idle
            return Answered(
                actions: Self.endPolling(s) + core.authenticationFailure(Constants.genericAuthenticationError))
        case .readToken(let wire):
            let ended = Self.endPolling(s)
            return Answered(
                actions: ended + readToken(s.login, s.mvpd, wire, .sp, session: s.sessionID, &core, at: now))
        case .arrived(let answer):
            let ended = Self.endPolling(s)
            let answered = tokenArrived(answer, s.login, &core)
            return Answered(actions: ended + answered.actions, authorize: answered.authorize)
        }
    }

    /// The code's polling ends (a poll had the answer): the timer and the other polls go with it.
    static func endPolling(_ s: AwaitingCode) -> [EngineAction] {
        [.cancelTimer(s.timer)] + s.polls.flatMap(Engine.cancelDeadline(of:))
    }

    /// The app intercepted the redirect: it finishes a login in the browser (the token is read);
    /// nil when no login is in the browser.
    mutating func redirectArrived(_ core: inout EngineCore, at now: Instant) -> [EngineAction]? {
        guard case .browsing(let s) = state else { return nil }
        let wire = core.dialect.tokenRequestAfterBrowser(mvpd: s.mvpd, session: s.session, core)
        return readToken(s.login, s.mvpd, wire, .sp, session: s.session?.id, &core, at: now)
    }

    private mutating func readToken(
        _ login: Login, _ mvpd: MVPD, _ wire: WireRequest, _ source: TokenSource, session: String?,
        _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        let (request, actions) = core.send(wire, at: now)
        state = .fetchingToken(.init(login: login, mvpd: mvpd, request: request, source: source, sessionID: session))
        return actions
    }

    /// The token's read ended: a token, none, or a logout the SP still holds.
    private mutating func tokenArrived(_ answer: LoginTokenAnswer, _ login: Login, _ core: inout EngineCore)
        -> Answered
    {
        state = .idle
        switch answer {
        case .token(let token):
            return Self.loggedIn(token, login, &core)
        case .pendingLogout:
            core.store.clearTokens()
        case .none:
            break
        }
        // A getAuthorization waiting on this login ends with the failure alone (invariant 3).
        return Answered(actions: core.authenticationFailure(Constants.genericAuthenticationError))
    }

    /// A login ends with its token: stored, then the status and its tracking; a `getAuthorization`
    /// that started the login goes on (`Engine`).
    static func loggedIn(_ login: LoginToken, _ started: Login, _ core: inout EngineCore) -> Answered {
        let token = login.token
        core.store.store(
            token, userMeta: login.userMeta, fromPlatformSSO: login.platformSSO,
            tempPassIdentity: login.tempPassIdentity)
        return Answered(
            actions: [
                core.status(true, Constants.userAuthenticated),
                .deliver(
                    core.tracking.authenticationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, fromStore: false)
                ),
            ], authorize: started.authorization)
    }
}

extension Value {
    var mvpdValue: MVPD? {
        if case .mvpd(let m) = self { return m }
        return nil
    }
}
