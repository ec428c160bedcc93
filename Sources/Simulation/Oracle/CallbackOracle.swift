import Entitlement
import MockPass
import PassModel
import PassXML

/// The invariants of BEHAVIOR.md and the properties that follow from it, judged from what an app
/// and the network see: the calls, the callbacks in their order, the requests sent and the timers
/// set (docs/ORACLE.md). It never reads the engine's state, so a wrong state machine cannot vouch
/// for itself. It keeps a model of the flows BEHAVIOR.md describes: what each call is owed, which
/// calls wait for a configuration, which login is running.
struct CallbackOracle: Sendable {
    let app: String
    let context: OracleContext
    private(set) var violations: [InvariantViolation] = []

    // MARK: Startup (invariants 1 and 5)

    var openSetRequestors = 0
    /// The last `setRequestor` ended with `setRequestorComplete(1)`.
    var configured = false
    /// Calls made while not configured, in call order, not yet started.
    var queued: [Call] = []
    /// Queued calls starting in this input, after its `setRequestorComplete(1)`: each starts when
    /// the first callback it can deliver at once comes (or delivers nothing at once), in call order.
    var draining: [Call] = []
    /// The drained call whose callbacks are being delivered.
    var drainCurrent: Call?

    // MARK: Flows (invariants 2, 3, 7)

    /// A login: an authentication flow from its start to its `setAuthenticationStatus`.
    struct Login: Sendable {
        /// The resource of the `getAuthorization` that continues once it succeeds.
        var authorization: String?
    }
    var login: Login?
    /// Apple's picker is up: presented and not yet dismissed.
    var pickerUp = false
    /// A login was ended by a call while the picker was up: this input owes its dismissal
    /// (every `presentTvProviderDialog` balanced by one `dismissTvProviderDialog`, BEHAVIOR.md, Apple SSO).
    var dismissalOwed = false
    /// `checkAuthentication`s of this input, answered at once from the store.
    var checksOwed = 0
    /// `setSelectedProvider(nil)` (or an unknown id) with no login running: it may answer as a
    /// cancel does (docs/CONFORMANCE.md, AND-1.8), in its own input.
    var cancelAnswerAllowed = false
    /// Logouts that may still end with their `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
    var logoutsOwed = 0
    /// Per resource, authorizations owed one `setToken` or `tokenRequestFailed`.
    var authorizations: [String: Int] = [:]
    /// Per resource, `getAuthorization`s that ended with their login (superseded or failed): owed nothing.
    var droppedAuthorizations: [String: Int] = [:]

    // MARK: Answers (invariant 4)

    var answers = AnswerLedger()

    // MARK: Properties (CallbackOracle+Properties)

    var timers: [TimerID: Instant] = [:]
    /// Each authorization's request out (`authorizeDevice`, then its media token's
    /// `deviceShortAuthorize`), by the resource it is for.
    var authorizeInFlight: [RequestID: String] = [:]
    /// The resource whose authorization this input continues (the response to its authorize request)
    /// or starts (its authZ token cached): the media-token request it sends is that authorization's.
    var authorizationOfThisInput: String?
    /// Resources with an authorize request sent since the authN token last changed; nil when a
    /// `setRequestor` may have adopted another app's token unseen.
    var authorizedSinceChange: Set<String>? = []
    var lastGUID: String?
    /// Every GUID an authentication's tracking has named: an authorization answered after its token
    /// was replaced names the one it was asked with (BEHAVIOR.md, Overlapping calls).
    var pastGUIDs: Set<String> = []
    var tokensSent: Set<String> = []
    var retiredTokens: Set<String> = []
    var tempPassFirstUse: [String: Instant] = [:]
    var holder: TokenHolder = .none
    /// Preauthorization requests not yet answered, with the resources their user may be told about.
    var preauthorizations: [(asked: [String], allowed: Set<String>?, serial: Int)] = []
    var preauthorizationSerials = 0
    /// The preauthorization begun in this input (its request goes out in it), and each preauthorize
    /// request's preauthorization: an answer from a response belongs to the request it answers.
    var preauthorizationOfThisInput: Int?
    var preauthorizeInFlight: [RequestID: Int] = [:]
    /// The preauthorization the response of this input answers, if it is one.
    var answeredPreauthorization: Int?

    init(app: String, context: OracleContext) {
        self.app = app
        self.context = context
    }

    mutating func violate(_ number: Int, _ message: String) {
        violations.append(InvariantViolation(number: number, app: app, message: message))
    }

    mutating func violate(property: String, _ message: String) {
        violations.append(InvariantViolation(number: 0, app: app, message: message, property: property))
    }

    // MARK: One input

    /// The engine was given `input` at `now` and answered `actions`.
    mutating func observe(_ input: OracleInput, _ actions: [EngineAction], at now: Instant) {
        let callbacks = actions.compactMap { action -> Callback? in
            if case .deliver(let c) = action { return c }
            return nil
        }
        // A getAuthorization either authorizes or first logs in; the login shows at once.
        let loginShows = callbacks.contains(where: CallbackOracle.startsALogin)
        preauthorizationOfThisInput = nil
        answeredPreauthorization = nil
        authorizationOfThisInput = nil
        if case .call(let call) = input {
            // With its authZ token cached, an authorization sends its media-token request at once.
            switch call {
            case .getAuthorization(let r, _), .checkAuthorization(let r, _): authorizationOfThisInput = r
            default: break
            }
            called(call, loginShows: loginShows, at: now)
        }
        var issued: AuthnToken?
        if case .response(let id, let result) = input {
            authorizationOfThisInput = authorizeInFlight.removeValue(forKey: id)
            answeredPreauthorization = preauthorizeInFlight.removeValue(forKey: id)
            issued = issuedToken(result, callbacks: callbacks)
        }
        if case .timer(let id) = input { timers[id] = nil }
        var index = 0
        for action in actions {
            switch action {
            case .deliver(let callback):
                let next = index + 1 < callbacks.count ? callbacks[index + 1] : nil
                delivered(callback, next: next, previous: index > 0 ? callbacks[index - 1] : nil,
                          input: input, loginShows: loginShows, at: now)
                index += 1
            case .send(let id, let request):
                if !draining.isEmpty { drain(untilSending: request, at: now) }
                sent(id, request)
            case .startTimer(let id, let at):
                timerStarted(id, at: at)
            case .cancelTimer(let id):
                timerCancelled(id)
            case .presentBrowser, .writeSharedStore:
                break
            }
        }
        while !draining.isEmpty { begin(draining.removeFirst(), loginShows: false, at: now) }
        drainCurrent = nil
        if checksOwed > 0 {
            violate(2, "checkAuthentication not answered from the store at once (\(checksOwed) left)")
            checksOwed = 0
        }
        cancelAnswerAllowed = false
        if dismissalOwed {
            violate(7, "a login ended while Apple's picker was up, with no dismissTvProviderDialog")
            dismissalOwed = false
            pickerUp = false
        }
        if let issued { tokenIssued(issued) }
    }

    private mutating func called(_ call: Call, loginShows: Bool, at now: Instant) {
        answers.called(call)
        switch call {
        case .setRequestor:
            openSetRequestors += 1
            configured = false
            endLogin()
            // The shared store may hold another app's token: what this app holds is unknown now.
            holder = .unknown
            authorizedSinceChange = nil
            lastGUID = nil
            return
        case .setSelectedProvider(let id):
            // With no flow running, a TempPass MVPD authenticates (BEHAVIOR.md, Cancel via nil).
            if login == nil, let id, context.tempPasses.contains(id) { login = Login(authorization: nil) }
            cancelAnswerAllowed = login == nil
            return
        default:
            break
        }
        if call.isQueuedUntilConfigured && !configured {
            queued.append(call)
        } else {
            begin(call, loginShows: loginShows, at: now)
        }
    }

    /// A call starts (at once, or when the queue drains): what it is owed.
    private mutating func begin(_ call: Call, loginShows: Bool, at now: Instant) {
        switch call {
        case .checkAuthentication:
            checksOwed += 1
        case .getAuthentication:
            endLogin()
            login = Login(authorization: nil)
        case .getAuthorization(let r, _):
            // "A new getAuthentication or getAuthorization during a login supersedes it."
            endLogin()
            if loginShows {
                login = Login(authorization: r)
            } else {
                authorizations[r, default: 0] += 1
            }
        case .checkAuthorization(let r, _):
            authorizations[r, default: 0] += 1
        case .logout:
            endLogin()
            logoutsOwed = context.platform == .tvos ? logoutsOwed + 1 : 1
            authnTokenChanged(to: .none)
            retiredTokens.formUnion(tokensSent)
            tokensSent = []
        case .checkPreauthorizedResources(let rs, _):
            preauthorizationSerials += 1
            preauthorizations.append((rs, allowedResources, preauthorizationSerials))
            preauthorizationOfThisInput = preauthorizationSerials
        default:
            break
        }
    }

    /// The running login ends with no callback (superseded), or has ended with its status.
    private mutating func endLogin() {
        if let r = login?.authorization { droppedAuthorizations[r, default: 0] += 1 }
        if pickerUp { dismissalOwed = true }
        login = nil
    }

    // MARK: Callbacks

    private mutating func delivered(_ callback: Callback, next: Callback?, previous: Callback?, input: OracleInput,
                                    loginShows: Bool, at now: Instant) {
        if !draining.isEmpty { drain(until: callback, at: now) }
        if let wrong = answers.delivered(callback) { violate(4, wrong) }
        switch callback {
        case .setRequestorComplete(let status):
            if openSetRequestors == 0 {
                violate(1, "setRequestorComplete with no setRequestor waiting for it")
                return
            }
            openSetRequestors -= 1
            if openSetRequestors == 0 && status == Constants.statusSuccess {
                configured = true
                draining = queued
                drainCurrent = nil
                queued = []
            }
        case .setAuthenticationStatus(let status, let code):
            authenticationStatus(status, code, next: next, input: input, at: now)
        case .setToken(_, let r), .tokenRequestFailed(let r, _, _):
            authorizationEnded(callback, r, next: next, at: now)
        case .presentTvProviderDialog:
            loginOnly(callback)
            if pickerUp { violate(7, "presentTvProviderDialog while Apple's picker is already up") }
            pickerUp = true
        case .dismissTvProviderDialog:
            if !pickerUp { violate(7, "dismissTvProviderDialog with no picker up") }
            pickerUp = false
            dismissalOwed = false
        case .displayProviderDialog:
            loginOnly(callback)
        case .navigateToUrl:
            if case .call(.logout) = input { break }
            if queuedLogoutDrained(input) { break }
            loginOnly(callback)
        case .status(let code, _):
            switch code {
            case StatusCode.registrationRefused, StatusCode.configurationThrottled, StatusCode.authorizationThrottled,
                 StatusCode.preauthorizationThrottled: break
            case StatusCode.vsa203:
                if case .call(.logout) = input { break }
                if queuedLogoutDrained(input) { break }
                violate(7, "status(VSA203) outside a logout")
            default: loginOnly(callback)
            }
        case .sendTrackingData(let event, let data):
            tracking(event, data, previous: previous)
        case .preauthorizedResources(let allowed):
            preauthorizationAnswered(allowed, input: input)
        case .selectedProvider, .setMetadataStatus:
            break
        }
    }

    /// Starts the queued calls before the one `callback` comes from (they delivered nothing at once).
    private mutating func drain(until callback: Callback, at now: Instant) {
        if case .sendTrackingData = callback { return }
        // The picker a superseding call takes down: the next queued call starts with what follows.
        if case .dismissTvProviderDialog = callback { return }
        if case .logout? = drainCurrent, case .navigateToUrl = callback { return }  // after VSA203
        while !draining.isEmpty {
            let call = draining.removeFirst()
            if CallbackOracle.canStart(call, with: callback) {
                begin(call, loginShows: CallbackOracle.startsALogin(callback), at: now)
                drainCurrent = call
                return
            }
            begin(call, loginShows: false, at: now)
        }
    }

    /// Queued calls that send a request and deliver nothing at once start when their request goes
    /// out, so a later call's callback is not taken for their own: a `checkAuthorization(r)` or
    /// `getAuthorization(r)` with a token held sends its authorize request (its media-token request
    /// when its authZ token is cached); a `checkPreauthorizedResources` its preauthorize request; a
    /// login with a TempPass selected sends its TempPass request.
    private mutating func drain(untilSending request: HTTPRequest, at now: Instant) {
        let url = request.url
        let index: Int?
        let login: Bool
        if url.hasSuffix("/authorizeDevice"), let r = request.parameters.first(where: { $0.0 == "resource_id" })?.1 {
            login = false
            index = draining.firstIndex {
                switch $0 {
                case .getAuthorization(r, _), .checkAuthorization(r, _): true
                default: false
                }
            }
        } else if url.hasSuffix("/deviceShortAuthorize") {
            // Its authZ token cached, an authorization asks for its media token at once.
            login = false
            index = draining.firstIndex {
                switch $0 {
                case .getAuthorization, .checkAuthorization: true
                default: false
                }
            }
            switch index.map({ draining[$0] }) {
            case .getAuthorization(let r, _)?, .checkAuthorization(let r, _)?: authorizationOfThisInput = r
            default: break
            }
        } else if url.hasSuffix("/preauthorize") {
            // Its request answers it later (`preauthorizeInFlight`), whatever is answered at once after.
            login = false
            index = draining.firstIndex { if case .checkPreauthorizedResources = $0 { true } else { false } }
        } else if url.hasSuffix("/authenticate/freepreview") {
            login = true
            index = draining.firstIndex(where: CallbackOracle.startsLogin)
        } else {
            return
        }
        guard let index else { return }
        for call in draining[..<index] { begin(call, loginShows: false, at: now) }
        begin(draining[index], loginShows: login, at: now)
        drainCurrent = draining[index]
        draining.removeFirst(index + 1)
    }

    /// The first callback a call can deliver at once.
    static func canStart(_ call: Call, with callback: Callback) -> Bool {
        switch (call, callback) {
        case (.checkAuthentication, .setAuthenticationStatus): return true
        case (.getAuthentication, _): return startsALogin(callback) || callback.name == "setAuthenticationStatus"
        // A getAuthorization with a token sends its authorize request and delivers nothing at once:
        // a success status is another call's (a getAuthentication answered from the store).
        case (.getAuthorization, .setAuthenticationStatus(let status, _)): return status != Constants.statusSuccess
        case (.getAuthorization, _): return startsALogin(callback)
        case (.checkAuthorization(let r, _), .tokenRequestFailed(let x, _, _)): return r == x
        case (.checkPreauthorizedResources, .preauthorizedResources): return true
        case (.getMetadata, .setMetadataStatus): return true
        case (.logout, .status(StatusCode.vsa203, _)), (.logout, .navigateToUrl): return true
        default: return false
        }
    }

    /// A logout queued before this input's `setRequestorComplete(1)` answers in it.
    private func queuedLogoutDrained(_ input: OracleInput) -> Bool {
        if case .logout? = drainCurrent { return true }
        return false
    }

    /// Only a running login delivers these (invariant 7: nothing after its terminal callback).
    private mutating func loginOnly(_ callback: Callback) {
        guard login == nil else { return }
        if !configured, queued.contains(where: CallbackOracle.startsLogin) {
            violate(5, "\(callback.name) for a queued call before the engine was configured")
        } else {
            violate(7, "\(callback) delivered with no login running (after its terminal callback, or cancelled)")
        }
    }

    private mutating func authenticationStatus(_ status: Int, _ code: String, next: Callback?, input: OracleInput, at now: Instant) {
        let tracked: Bool
        if case .sendTrackingData(Constants.trackingAuthentication, _)? = next { tracked = true } else { tracked = false }
        if checksOwed > 0 {
            checksOwed -= 1
            checkAnswered(status, at: now)
        } else if cancelAnswerAllowed, status == Constants.statusError, code == Constants.providerNotSelectedError {
            cancelAnswerAllowed = false
        } else if !tracked, status == Constants.statusError, code == Constants.userNotAuthenticatedError, logoutsOwed > 0 {
            // A logout's status: no tracking (BEHAVIOR.md, Logout).
            logoutsOwed -= 1
            return
        } else if let running = login {
            login = nil
            if status == Constants.statusSuccess, let r = running.authorization {
                authorizations[r, default: 0] += 1
            } else if let r = running.authorization {
                droppedAuthorizations[r, default: 0] += 1
            }
            if status != Constants.statusSuccess { holder = holder.unknownIfHeld }
        } else if !configured, queued.contains(where: CallbackOracle.owesAStatus) {
            violate(5, "setAuthenticationStatus(\(status)) for a queued call before the engine was configured")
        } else {
            violate(2, "setAuthenticationStatus(\(status), \"\(code)\") that no call is waiting for (a superseded, ended or cancelled login?)")
        }
        expectTracking(after: .setAuthenticationStatus(status: status, errorCode: code), next: next, at: now)
    }

    private mutating func authorizationEnded(_ callback: Callback, _ r: String, next: Callback?, at now: Instant) {
        if authorizations[r, default: 0] > 0 {
            authorizations[r, default: 0] -= 1
        } else if !configured, queued.contains(where: { CallbackOracle.authorizes($0, r) }) {
            violate(5, "\(callback.name) for \"\(r)\", a queued call, before the engine was configured")
        } else if droppedAuthorizations[r, default: 0] > 0 {
            violate(3, "\(callback.name) for \"\(r)\" whose getAuthorization ended with its login (superseded or failed): it ends with nothing more")
        } else {
            violate(3, "\(callback.name) for \"\(r)\" that no authorization is waiting for")
        }
        if case .setToken = callback { tokenDelivered(r, at: now) }
        expectTracking(after: callback, next: next, at: now)
    }

    /// Once nothing is pending: what must have ended has ended.
    mutating func settled() {
        if openSetRequestors > 0 { violate(1, "\(openSetRequestors) setRequestor call(s) never completed") }
        openSetRequestors = 0
        for (r, n) in authorizations.sorted(by: { $0.key < $1.key }) where n > 0 {
            violate(3, "\(n) authorization(s) of \"\(r)\" never ended")
        }
        authorizations = [:]
    }

    // MARK: Classification

    static func startsALogin(_ callback: Callback) -> Bool {
        switch callback {
        case .displayProviderDialog, .presentTvProviderDialog: return true
        case .setAuthenticationStatus(let status, let code):
            // Nothing to pick from: the login fails at once.
            return status == Constants.statusError && code == Constants.genericAuthenticationError
        default: return false
        }
    }

    static func startsLogin(_ call: Call) -> Bool {
        switch call {
        case .getAuthentication, .getAuthorization: return true
        default: return false
        }
    }

    static func owesAStatus(_ call: Call) -> Bool {
        switch call {
        case .checkAuthentication, .getAuthentication, .getAuthorization, .logout: return true
        default: return false
        }
    }

    static func authorizes(_ call: Call, _ r: String) -> Bool {
        switch call {
        case .checkAuthorization(let x, _), .getAuthorization(let x, _): return x == r
        default: return false
        }
    }
}
