import Entitlement
import MockPass
import PassModel
import PassXML

/// The invariants of BEHAVIOR.md and the properties that follow from it, judged from what an app
/// and the network see: the calls, the callbacks in their order, the requests sent and the timers
/// set (docs/ORACLE.md). It never reads the engine's state, so a wrong state machine cannot vouch
/// for itself.
///
/// This type is the flow model (invariants 1–7): what each call is owed, which calls wait for a
/// configuration, which login runs. What each call, callback and request is to it, and which call
/// owns which answer, are the tables of `OracleVocabulary.swift` and `OracleRequest.swift`; the
/// picker is `PickerState`'s table; the properties are values registered in `PropertySet`, fed the
/// `Observation`s this model derives; what one input teaches is `InputScratch`, made fresh per input.
struct CallbackOracle: Sendable {
    let app: String
    let context: OracleContext
    private(set) var violations: [InvariantViolation] = []

    /// Startup (invariants 1 and 5).
    struct Startup: Sendable {
        var openSetRequestors = 0
        /// The last `setRequestor` ended with `setRequestorComplete(1)`.
        var configured = false
        /// Calls made while not configured, in call order, not yet started.
        var queued: [Call] = []

        func hasQueued(_ matching: (CallRole) -> Bool) -> Bool {
            !configured && queued.contains { matching(CallRole($0)) }
        }
    }
    var startup = Startup()

    /// A login: an authentication flow from its start to its `setAuthenticationStatus`.
    struct Login: Sendable {
        /// The resource of the `getAuthorization` that continues once it succeeds.
        var authorization: String?
    }
    /// The flows (invariants 2, 3, 7).
    struct Flows: Sendable {
        var login: Login?
        var picker = PickerState.down
        /// Logouts that may still end with their `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
        var logoutsOwed = 0
        /// REST API v2: `checkAuthentication`s waiting on their profile request (rest-api-v2.md 1.7
        /// maps the call to `profiles`: answered when it returns, not from the store at once).
        var profileChecksOwed = 0
        /// REST API v2: a login ended without its success (superseded, cancelled, failed), so the user
        /// may have signed in at the MVPD first: the SP keeps that profile (rest-api-v2.md 1.3, profiles
        /// belong to the device, not to the app's login), and a later check may find it. Cleared by a
        /// logout of a token held (its `GET logout` ends the profile).
        var profileOfAnEndedLogin = false
        /// REST API v2 on iOS: a logout's page, which opens when its `GET logout/{mvpd}` answers.
        var logoutPageOwed = false
        /// Per resource, authorizations owed one `setToken` or `tokenRequestFailed`.
        var authorizations: [String: Int] = [:]
        /// Per resource, `getAuthorization`s that ended with their login (superseded or failed): owed nothing.
        var droppedAuthorizations: [String: Int] = [:]
        /// Each authorization's request out (`authorizeDevice`, then its media token's
        /// `deviceShortAuthorize`), by the resource it is for.
        var authorizeInFlight: [RequestID: String] = [:]
        /// What was open at the last `logout`: those flows are bound to the token it cleared.
        var openAtLogout = OpenAtLogout()
        /// The resources with authorizations open at the last `setRequestor`: each names the token it
        /// was asked with (BEHAVIOR.md, Overlapping calls), maybe one adopted at an earlier
        /// `setRequestor` and never named, which says nothing of the token adopted since.
        var openAtSetRequestor: Set<String> = []
    }
    /// The flows open when the last `logout` came: the preauthorizations up to this serial, the
    /// authorizations of these resources (until every authorization of one has ended).
    struct OpenAtLogout: Sendable {
        var preauthorizationSerial = 0
        var authorizations: Set<String> = []
    }
    var flows = Flows()

    /// A preauthorization asked and not yet answered, with the resources its user may be told about.
    struct Preauthorization: Sendable {
        var asked: [String]
        var allowed: Set<String>?
        var serial: Int
    }
    /// Preauthorizations (invariant 6; invariant 4 is `answers`).
    struct Preauthorizations: Sendable {
        var open: [Preauthorization] = []
        var serials = 0
        /// Each preauthorize request's preauthorization: an answer from a response belongs to the
        /// request it answers.
        var inFlight: [RequestID: Int] = [:]
    }
    var preauthorizations = Preauthorizations()

    /// Invariant 4.
    var answers = AnswerLedger()
    /// The authN token as followed: the one fact the properties read.
    var token = TokenModel()
    var properties = PropertySet()
    /// The input being judged (`observe`).
    var input = InputScratch()
    /// The instant of the input being judged.
    private(set) var now = Instant.simulationStart

    init(app: String, context: OracleContext) {
        self.app = app
        self.context = context
    }

    mutating func violate(_ number: Int, _ message: String) {
        violations.append(InvariantViolation(number: number, app: app, message: message))
    }

    /// Hands an observation to the properties that judge it.
    mutating func observed(_ observation: Observation) {
        properties.observe(observation, at: now, context: context, token: token, app: app, into: &violations)
    }

    // MARK: One input

    /// The engine was given `runtimeInput` at `now` and answered `actions`.
    mutating func observe(_ runtimeInput: OracleInput, _ actions: [EngineAction], at now: Instant) {
        self.now = now
        input = InputScratch(actions)
        switch runtimeInput {
        case .call(let call):
            let role = CallRole(call)
            input.call = role.kindOfInput
            // With its authZ token cached, an authorization sends its media-token request at once.
            input.authorization = role.authorizes
            called(call, role)
        case .response(let id, let result):
            input.authorization = flows.authorizeInFlight.removeValue(forKey: id)
            input.answeredPreauthorization = preauthorizations.inFlight.removeValue(forKey: id)
            input.issued = issuedToken(result)
        case .timer(let id):
            observed(.timerFired(id))
        case .picker:
            break
        }
        var index = 0
        for action in actions {
            switch action {
            case .deliver(let callback):
                delivered(
                    callback, next: index + 1 < input.callbacks.count ? input.callbacks[index + 1] : nil,
                    previous: index > 0 ? input.callbacks[index - 1] : nil)
                index += 1
            case .send(let id, let request):
                sent(id, request)
            case .startTimer(let id, let at):
                observed(.timerStarted(id, at: at))
            case .cancelTimer(let id):
                observed(.timerCancelled(id))
            case .presentBrowser, .writeSharedStore:
                break
            }
        }
        while !input.draining.isEmpty { begin(input.draining.removeFirst(), loginShows: false) }
        if input.checksOwed > 0 {
            violate(2, "checkAuthentication not answered from the store at once (\(input.checksOwed) left)")
        }
        if flows.picker != .down { picker(.inputEnded) }  // down stays down (the table's first row)
        if let issued = input.issued, case .token(let mvpd, nil) = token.holder, issued.mvpdID == mvpd {
            // Its expiry, for the TTL boundaries, once the tracking has named the new token's MVPD.
            token.holder = .token(mvpd: mvpd, expires: issued.expires)
        }
    }

    private mutating func called(_ call: Call, _ role: CallRole) {
        answers.called(call)
        switch role {
        case .configure:
            startup.openSetRequestors += 1
            startup.configured = false
            endLogin()
            flows.openAtSetRequestor = Set(flows.authorizations.filter { $0.value > 0 }.keys)
            // The shared store may hold another app's token: what this app holds is unknown now.
            token.holder = .unknown
            token.lastGUID = nil
            token.unseenReplaced = false
            observed(.reconfigured)
            return
        case .select(let id):
            // With no flow running, a TempPass MVPD authenticates (BEHAVIOR.md, Cancel via nil).
            if flows.login == nil, let id, context.tempPasses.contains(id) { flows.login = Login(authorization: nil) }
            input.cancelAnswerAllowed = flows.login == nil
            return
        case .checkAuthentication, .login, .authorizeOrLogin, .authorize, .logout, .preauthorize, .noFlow:
            break
        }
        if call.isQueuedUntilConfigured && !startup.configured {
            startup.queued.append(call)
        } else {
            begin(role, loginShows: input.loginShows)
        }
    }

    /// A call starts (at once, or when the queue drains): what it is owed.
    private mutating func begin(_ call: Call, loginShows: Bool) {
        begin(CallRole(call), loginShows: loginShows)
    }

    private mutating func begin(_ role: CallRole, loginShows: Bool) {
        switch role {
        case .checkAuthentication where context.wire == .restV2:
            flows.profileChecksOwed += 1
        case .checkAuthentication:
            input.checksOwed += 1
        case .login:
            endLogin()
            flows.login = Login(authorization: nil)
        case .authorizeOrLogin(let r):
            // "A new getAuthentication or getAuthorization during a login supersedes it."
            endLogin()
            if loginShows {
                flows.login = Login(authorization: r)
            } else {
                flows.authorizations[r, default: 0] += 1
            }
        case .authorize(let r):
            flows.authorizations[r, default: 0] += 1
        case .logout:
            endLogin()
            flows.openAtLogout = OpenAtLogout(
                preauthorizationSerial: preauthorizations.serials,
                authorizations: Set(flows.authorizations.filter { $0.value > 0 }.keys))
            flows.logoutsOwed = context.platform == .tvos ? flows.logoutsOwed + 1 : 1
            flows.logoutPageOwed = context.wire == .restV2 && context.platform == .ios
            if case .token = token.holder { flows.profileOfAnEndedLogin = false }
            authnTokenChanged(to: .none)
            token.unseenReplaced = false  // what the logout cleared answers no authorization
            observed(.logout)
        case .preauthorize(let rs):
            preauthorizations.serials += 1
            preauthorizations.open.append(
                Preauthorization(asked: rs, allowed: allowedResources, serial: preauthorizations.serials))
            input.preauthorization = preauthorizations.serials
        case .configure, .select, .noFlow:
            break
        }
    }

    /// The running login ends with no callback (superseded by a call).
    private mutating func endLogin() {
        if let r = flows.login?.authorization { flows.droppedAuthorizations[r, default: 0] += 1 }
        if flows.login != nil, context.wire == .restV2 { flows.profileOfAnEndedLogin = true }
        if flows.picker != .down { picker(.loginEndedByCall) }  // down stays down
        flows.login = nil
        flows.logoutPageOwed = false  // a new login or logout, or setRequestor, takes a v2 logout's page down
    }

    private mutating func picker(_ event: PickerState.Event) {
        let (next, refused) = flows.picker.after(event)
        flows.picker = next
        if let refused { violate(7, refused) }
    }

    // MARK: Callbacks

    private mutating func delivered(_ callback: Callback, next: Callback?, previous: Callback?) {
        let role = CallbackRole(callback)
        if !input.draining.isEmpty {
            let tracked: Bool
            if case .sendTrackingData? = next { tracked = true } else { tracked = false }
            drain(until: role, tracked: tracked)
        }
        if let wrong = answers.delivered(callback) { violate(4, wrong) }
        switch role {
        case .configured(let status):
            guard startup.openSetRequestors > 0 else {
                violate(1, "setRequestorComplete with no setRequestor waiting for it")
                return
            }
            startup.openSetRequestors -= 1
            if startup.openSetRequestors == 0 && status == Constants.statusSuccess {
                startup.configured = true
                input.draining = startup.queued
                input.drainCurrent = nil
                startup.queued = []
            }
        case .authenticationStatus(let status, let code):
            authenticationStatus(callback, status, code, next: next)
        case .authorizationEnded(let r, let success):
            authorizationEnded(callback, r, success: success, next: next)
        case .pickerPresented:
            loginOnly(callback)
            picker(.present)
        case .pickerDismissed:
            picker(.dismiss)
        case .loginOnly:
            loginOnly(callback)
        case .navigation:
            if flows.logoutPageOwed, !inALogout, flows.login == nil {
                flows.logoutPageOwed = false  // REST API v2: the page the logout's answer names
            } else if !inALogout {
                loginOnly(callback)
            }
        case .status(let status):
            switch status {
            case .anyInput: break
            case .logoutOnly: if !inALogout { violate(7, "status(VSA203) outside a logout") }
            case .loginOnly: loginOnly(callback)
            }
        case .tracking(let event, let data):
            // One right after its flow's terminal is judged with it (`.terminal`).
            if !CallbackOracle.follows(event, terminal: previous) {
                observed(.tracking(event: event, data: data, previous: previous))
            }
            // A different MVPD was stored: the tokens are cleared (BEHAVIOR.md, Authentication 3).
            if event == Constants.trackingGetSelectedProvider { authnTokenChanged(to: .none) }
        case .preauthorizationAnswer(let allowed):
            preauthorizationAnswered(allowed)
        case .metadataAnswer, .selectedProviderAnswer:
            break
        }
    }

    /// A tracking of `event` right after its flow's terminal callback.
    static func follows(_ event: Int, terminal previous: Callback?) -> Bool {
        switch previous {
        case .setAuthenticationStatus?: event == Constants.trackingAuthentication
        case .setToken?, .tokenRequestFailed?: event == Constants.trackingAuthorization
        case nil, .setRequestorComplete?, .displayProviderDialog?, .navigateToUrl?, .preauthorizedResources?,
            .selectedProvider?, .setMetadataStatus?, .presentTvProviderDialog?, .dismissTvProviderDialog?, .status?,
            .sendTrackingData?:
            false
        }
    }

    /// The input is a logout's: called now, or queued before this input's `setRequestorComplete(1)`
    /// and drained in it.
    private var inALogout: Bool {
        if input.call == .logout { return true }
        if case .logout? = input.drainCurrent { return true }
        return false
    }

    /// Starts the queued calls before the one `callback` comes from (they delivered nothing at once).
    private mutating func drain(until callback: CallbackRole, tracked: Bool) {
        switch callback {
        case .tracking, .pickerDismissed:
            // A tracking goes with its terminal; the picker a superseding call takes down: the next
            // queued call starts with what follows.
            return
        case .navigation:
            if case .logout? = input.drainCurrent { return }  // after VSA203
        case .configured, .authenticationStatus, .authorizationEnded, .pickerPresented, .loginOnly, .status,
            .preauthorizationAnswer, .metadataAnswer, .selectedProviderAnswer:
            break
        }
        // With no MVPD to ask about, a tvOS or REST API v2 logout answers at once: its status has no
        // tracking (a check's and a login's have).
        var logoutAnswers = false
        if case .authenticationStatus(Constants.statusError, Constants.userNotAuthenticatedError) = callback, !tracked {
            logoutAnswers = true
        }
        while !input.draining.isEmpty {
            let call = input.draining.removeFirst()
            if context.wire == .restV2, CallRole(call) == .checkAuthentication,
                case .authenticationStatus(Constants.statusSuccess, _) = callback
            {
                // REST API v2 (choice 68): a check answers at once only with no MVPD to ask about, so
                // with no token: never a success. It asks its profile, and the success is a later call's.
                begin(call, loginShows: false)
                continue
            }
            if Ownership.canStart(call, with: callback) || (logoutAnswers && CallRole(call) == .logout) {
                if case .authenticationStatus = callback, CallRole(call).mayStartALogin {
                    input.drainedLoginAnswers = true
                }
                begin(call, loginShows: callback.startsALogin)
                input.drainCurrent = call
                return
            }
            begin(call, loginShows: false)
        }
    }

    /// Queued calls that send a request and deliver nothing at once start when their request goes
    /// out, so a later call's callback is not taken for their own (`Ownership.sends`).
    mutating func drain(untilSending request: OracleRequest.Kind) {
        switch request {
        case .authorize(nil), .other: return
        case .registration:
            // The first queued call that may ask the SP waits behind registration: it starts now, as
            // the authorization it is while a usable token is held, else as the login it starts.
            guard let index = input.draining.firstIndex(where: Ownership.mayWaitForAccessToken) else { return }
            let call = input.draining[index]
            for earlier in input.draining[..<index] { begin(earlier, loginShows: false) }
            begin(call, loginShows: !holdsUsableToken)
            input.drainCurrent = call
            input.draining.removeFirst(index + 1)
            return
        case .authorize(.some), .mediaToken, .preauthorize, .tempPassLogin: break
        }
        guard let index = input.draining.firstIndex(where: { Ownership.sends($0, request) }) else { return }
        let call = input.draining[index]
        // Its authZ token cached, an authorization asks for its media token at once.
        if case .mediaToken = request { input.authorization = CallRole(call).authorizes }
        for earlier in input.draining[..<index] { begin(earlier, loginShows: false) }
        begin(call, loginShows: request == .tempPassLogin)
        input.drainCurrent = call
        input.draining.removeFirst(index + 1)
    }

    /// A token the engine would use now: held and not expired (unknown: maybe).
    private var holdsUsableToken: Bool {
        switch token.holder {
        case .none: false
        case .unknown: true
        case .token(_, let expires): expires.map { now < $0 } ?? true
        }
    }

    /// Only a running login delivers these (invariant 7: nothing after its terminal callback).
    private mutating func loginOnly(_ callback: Callback) {
        guard flows.login == nil else { return }
        if startup.hasQueued(\.mayStartALogin) {
            violate(5, "\(callback.name) for a queued call before the engine was configured")
        } else {
            violate(7, "\(callback) delivered with no login running (after its terminal callback, or cancelled)")
        }
    }

    private mutating func authenticationStatus(_ callback: Callback, _ status: Int, _ code: String, next: Callback?) {
        let tracked: Bool
        if case .sendTrackingData(Constants.trackingAuthentication, _)? = next {
            tracked = true
        } else {
            tracked = false
        }
        // REST API v2 (choice 68): a check asks the profile, so it may be out while a login ends;
        // a fresh success (tracking field 3 "false") is the login's, never a check's (from the store).
        let freshLoginSuccess: Bool
        if flows.login != nil, status == Constants.statusSuccess,
            case .sendTrackingData(Constants.trackingAuthentication, let d)? = next, d.count > 3, d[3] == "false"
        {
            freshLoginSuccess = true
        } else {
            freshLoginSuccess = false
        }
        // A logout's status has no tracking; a check's always has (REST API v2 may answer both in
        // one input, a logout with no MVPD at once beside a drained check).
        let logoutStatus =
            !tracked && status == Constants.statusError && code == Constants.userNotAuthenticatedError
            && flows.logoutsOwed > 0
        // A v2 profile check answers 1 or USER_NOT_AUTHENTICATED_ERROR, in its own call's input (no
        // MVPD to ask about) or in a response's or timer's, never in another call's (which answers
        // itself), nor where a drained login answers at once from the store.
        let profileCheckAnswer =
            flows.profileChecksOwed > 0 && !freshLoginSuccess && !input.drainedLoginAnswers
            && (status == Constants.statusSuccess || code == Constants.userNotAuthenticatedError)
            && (input.call == nil || input.call == .checkAuthentication)
        input.drainedLoginAnswers = false
        if !logoutStatus, input.checksOwed > 0 || profileCheckAnswer {
            let fromProfile = input.checksOwed == 0
            if input.checksOwed > 0 { input.checksOwed -= 1 } else { flows.profileChecksOwed -= 1 }
            if token.holder == .none && status == Constants.statusSuccess {
                if fromProfile && (flows.login != nil || flows.profileOfAnEndedLogin) {
                    // The profile a running login made at the SP (the user signed in, the app has not
                    // yet heard) is found before that login ends, or after the app gave it up: the
                    // check's tracking names it.
                    token.holder = .unknown
                } else {
                    violate(
                        6, "checkAuthentication answers 1 after the token was cleared by a logout or a new provider")
                }
            }
            observed(.checkAnswered(status: status))
            if fromProfile { input.profileCheckAnswered = true }
        } else if input.cancelAnswerAllowed, status == Constants.statusError, code == Constants.providerNotSelectedError
        {
            input.cancelAnswerAllowed = false
        } else if logoutStatus {
            // A logout's status: no tracking (BEHAVIOR.md, Logout).
            flows.logoutsOwed -= 1
            return
        } else if let running = flows.login {
            flows.login = nil
            if status == Constants.statusSuccess, let r = running.authorization {
                flows.authorizations[r, default: 0] += 1
            } else if let r = running.authorization {
                flows.droppedAuthorizations[r, default: 0] += 1
            }
            if status != Constants.statusSuccess {
                token.holder = token.holder.unknownIfHeld
                if context.wire == .restV2 { flows.profileOfAnEndedLogin = true }
            }
        } else if startup.hasQueued(\.owesAStatus) {
            violate(5, "setAuthenticationStatus(\(status)) for a queued call before the engine was configured")
        } else {
            violate(
                2,
                "setAuthenticationStatus(\(status), \"\(code)\") that no call is waiting for (a superseded, ended or cancelled login?)"
            )
        }
        terminal(callback, success: status == Constants.statusSuccess, authentication: true, next: next)
    }

    private mutating func authorizationEnded(_ callback: Callback, _ r: String, success: Bool, next: Callback?) {
        let askedBeforeSetRequestor = flows.openAtSetRequestor.contains(r)
        if flows.authorizations[r, default: 0] > 0 {
            flows.authorizations[r, default: 0] -= 1
            if flows.authorizations[r] == 0 {
                flows.openAtLogout.authorizations.remove(r)
                flows.openAtSetRequestor.remove(r)
            }
        } else if startup.hasQueued({ $0.authorizes == r }) {
            violate(5, "\(callback.name) for \"\(r)\", a queued call, before the engine was configured")
        } else if flows.droppedAuthorizations[r, default: 0] > 0 {
            violate(
                3,
                "\(callback.name) for \"\(r)\" whose getAuthorization ended with its login (superseded or failed): it ends with nothing more"
            )
        } else {
            violate(3, "\(callback.name) for \"\(r)\" that no authorization is waiting for")
        }
        if success { tokenDelivered(r) }
        terminal(
            callback, success: success, authentication: false, next: next, namesHeldToken: !askedBeforeSetRequestor)
    }

    /// A flow's terminal callback: the properties judge its tracking; a success's names the token
    /// (an authorization's, the token held, unless it was asked before the last `setRequestor`).
    private mutating func terminal(
        _ callback: Callback, success: Bool, authentication: Bool, next: Callback?, namesHeldToken: Bool = true
    ) {
        observed(.terminal(callback, next: next))
        let event = authentication ? Constants.trackingAuthentication : Constants.trackingAuthorization
        guard success, case .sendTrackingData(event, let data)? = next, data.count == (authentication ? 7 : 9),
            let tracking = SuccessTracking(data, context: context)
        else { return }
        if authentication {
            // REST API v2 (choice 70): a profile check may find a profile the store did not hold,
            // a new token from the store's side (tracking "true") named by its own GUID.
            let adopted = input.profileCheckAnswered && tracking.guid != token.lastGUID
            authenticated(mvpd: tracking.mvpd, guid: tracking.guid, fresh: !tracking.cached || adopted)
        } else if namesHeldToken {
            authorizedWith(mvpd: tracking.mvpd, guid: tracking.guid)
        }
    }

    /// Once nothing is pending: what must have ended has ended.
    mutating func settled() {
        if startup.openSetRequestors > 0 {
            violate(1, "\(startup.openSetRequestors) setRequestor call(s) never completed")
        }
        startup.openSetRequestors = 0
        for (r, n) in flows.authorizations.sorted(by: { $0.key < $1.key }) where n > 0 {
            violate(3, "\(n) authorization(s) of \"\(r)\" never ended")
        }
        flows.authorizations = [:]
        flows.openAtLogout.authorizations = []
        flows.openAtSetRequestor = []
    }

    /// After faults healed and hours passed: every timer set has fired or been cancelled.
    mutating func quiescent() {
        observed(.quiescent)
    }
}
