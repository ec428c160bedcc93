import PassModel
import PassXML

/// What the user did in Apple's TV-provider picker (an input from the runtime, which plays
/// Apple's VideoSubscriberAccount framework).
public enum PickerOutcome: Hashable, Sendable {
    /// `appleToken`: the SAML response Apple's framework holds for the device's account, for a
    /// `SUPPORTED` MVPD (base64); nil for a `PICKER` MVPD.
    case picked(mvpdID: String, appleToken: String?)
    case otherProvider
    case cancelled
}

/// The AccessEnabler entitlement engine: a pure state machine (ARCHITECTURE.md). Inputs are API calls,
/// HTTP results, timers and the picker's outcome, each with the instant it happens at; outputs are
/// `EngineAction`s. It never reads a clock, opens a socket or sleeps, so the simulated runtime, a
/// live runtime and a fuzzer all drive the same code.
public struct Engine: Sendable {
    public let configuration: EngineConfiguration
    var startup = StartupStateMachine()
    var authentication = AuthenticationState.idle
    var logoutState = LogoutState.idle
    var store = TokenStore()
    /// Calls waiting for a configuration (BEHAVIOR.md, Queueing), in call order.
    var queue: [Call] = []
    var options: [Value.Entry] = []
    var softwareStatement: String?
    var signedRequestorID: String?
    /// SDK 3.x: the app's registration at each SP origin (scheme and authority), after
    /// `init(softwareStatement:)`.
    var origins: [String: OriginRegistration] = [:]
    /// Requests out with a Bearer token, by wire id, for the one resend a 401 earns.
    var bearerRequests: [RequestID: BearerRequest] = [:]
    /// Wire ids of resent requests, and the ids their flows know them by.
    var resentAs: [RequestID: RequestID] = [:]
    /// The deprecated tvOS `setRequestor(…, secret:, publicKey:)`'s key pair.
    var signer: RequestSigner?
    var signedRequests = 0

    var authorizations: [Int: AuthorizationFlow] = [:]
    var preauthorizations: [Int: PreauthorizationFlow] = [:]
    var metadataRequests: [Int: Value] = [:]

    enum RequestPurpose: Hashable, Sendable {
        case configuration
        case sessionDevice(loginID: Int)
        case startLogin(loginID: Int)
        case checkCode(loginID: Int)
        case authorize(Int)
        case mediaToken(Int)
        case preauthorize(Int)
        case metadata(Int)
        case logout
        case clientRegistration(origin: String)
        case accessToken(origin: String)
    }
    enum TimerPurpose: Hashable, Sendable {
        case configurationDeadline
        case requestDeadline(RequestID)
        case codePoll(loginID: Int)
    }
    var requests: [RequestID: RequestPurpose] = [:]
    var timers: [TimerID: TimerPurpose] = [:]
    var nextRequest = 0
    private var nextTimer = 0
    var nextFlow = 0

    var tracking: Tracking { Tracking(configuration: configuration) }

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    // MARK: Inputs

    /// The app calls the API.
    public mutating func handle(_ call: Call, at now: Instant) -> [EngineAction] {
        sharingChanges {
            if call.isQueuedUntilConfigured && $0.startup.configuration == nil {
                $0.queue.append(call)
                return []
            }
            return $0.dispatch(call, at: now)
        }
    }

    /// A response (or transport failure) for a request the engine sent.
    public mutating func receive(_ result: HTTPResult, for wireID: RequestID, at now: Instant) -> [EngineAction] {
        sharingChanges {
            if let resent = $0.resendAfterRefusedToken(result, for: wireID, at: now) { return resent }
            let id = $0.resentAs.removeValue(forKey: wireID) ?? wireID
            guard let purpose = $0.requests.removeValue(forKey: id) else { return [] }  // late: its flow is gone
            return $0.cancelDeadline(of: id) + $0.route(purpose, id, result, at: now)
        }
    }

    /// A timer the engine started has fired.
    public mutating func timerFired(_ id: TimerID, at now: Instant) -> [EngineAction] {
        sharingChanges { $0.timerFiredUnshared(id, at: now) }
    }

    /// iOS passive SSO: `setRequestor` replaces the app's authN token with the shared store's. The
    /// runtime calls this just before it hands the engine a `setRequestor`.
    public mutating func adoptSharedStore(_ shared: SharedAuthentication?) {
        guard configuration.platform == .ios else { return }  // tvOS apps share nothing
        guard let shared else {
            store.clearTokens()
            return
        }
        guard shared.token.guid != store.authnToken?.guid else { return }
        store.store(shared.token, userMeta: shared.userMeta, fromPlatformSSO: shared.fromPlatformSSO)
        if store.selectedMVPD?.id != shared.token.mvpdID {
            // The configuration (on its way) replaces this placeholder with the MVPD it describes.
            store.selectedMVPD = MVPD(id: shared.token.mvpdID, displayName: shared.token.mvpdID)
        }
    }

    /// Every change to the app's authN token is written to the shared store at once (iOS).
    private mutating func sharingChanges(_ body: (inout Engine) -> [EngineAction]) -> [EngineAction] {
        let before = store.authnToken
        var actions = body(&self)
        if configuration.platform == .ios, store.authnToken != before {
            actions.append(.writeSharedStore(store.authnToken.map {
                SharedAuthentication(token: $0, userMeta: store.userMeta, fromPlatformSSO: store.fromPlatformSSO)
            }))
        }
        return actions
    }

    private mutating func timerFiredUnshared(_ id: TimerID, at now: Instant) -> [EngineAction] {
        guard let purpose = timers.removeValue(forKey: id) else { return [] }
        switch purpose {
        case .configurationDeadline:
            for r in startup.outstandingRequests { requests[r] = nil }
            guard let settled = startup.deadlinePassed(id) else { return [] }
            return configurationSettled(settled, at: now)
        case .requestDeadline(let request):
            // The request counts as unanswered; a late response finds no purpose and is dropped.
            guard let purpose = requests.removeValue(forKey: request) else { return [] }
            return route(purpose, request, .timeout, at: now)
        case .codePoll(let loginID):
            return pollCode(loginID: loginID, at: now)
        }
    }

    /// The user acted in Apple's TV-provider picker.
    public mutating func tvProviderPicker(_ outcome: PickerOutcome, at now: Instant) -> [EngineAction] {
        sharingChanges { $0.pickerFinished(outcome, at: now) }
    }

    // MARK: Queries for runtimes, tests and the invariant checker

    public var currentConfiguration: Configuration? { startup.configuration }
    public var queuedCalls: [Call] { queue }
    public var selectedMVPD: MVPD? { store.selectedMVPD }
    public var isLoginWaiting: Bool { authentication != .idle }
    /// The running login's identity (nil when none): the invariant checker watches how logins end.
    public var loginID: Int? { authentication.login?.id }
    public var currentOptions: [Value.Entry] { options }
    /// The MVPDs Apple's picker shows now, or nil when it is not up.
    public var pickerShown: [MVPD]? {
        if case .picking(_, let p) = authentication { return p.shown }
        return nil
    }
    /// How much the engine holds for flows in progress: requests out, timers set, authorizations,
    /// preauthorizations and metadata queries waiting, calls queued. The fuzzer's growth and liveness oracle.
    public var footprint: (requests: Int, timers: Int, flows: Int, queued: Int) {
        (requests.count, timers.count, authorizations.count + preauthorizations.count + metadataRequests.count, queue.count)
    }

    /// tvOS: the registration code a login is waiting on, if any.
    public var awaitingRegistrationCode: String? {
        if case .awaitingCode(_, _, let code, _) = authentication { return code.code }
        return nil
    }

    /// The authN token, if one is stored and valid at `now` (read only: nothing is removed).
    public func authnToken(at now: Instant) -> AuthnToken? {
        guard let t = store.authnToken, t.expires > now else { return nil }
        return t
    }

    // MARK: Dispatch

    mutating func dispatch(_ call: Call, at now: Instant) -> [EngineAction] {
        switch call {
        case .initialize(let statement):
            // The scenario's app already holds an engine; `init` only records its software statement.
            // Clients registered with another statement are forgotten; registrations under way finish.
            if statement != softwareStatement {
                origins = origins.filter { if case .registered = $0.value { return false } else { return true } }
            }
            softwareStatement = statement
            return []
        case .setOptions(let entries):
            for entry in entries {
                options.removeAll { $0.key == entry.key }
                options.append(entry)
            }
            return []
        case .setRequestor(let requestorID, let sps, let signed, let secret, let publicKey):
            signedRequestorID = signed
            if secret != nil || publicKey != nil {
                // Only the latest call of this variant counts (BEHAVIOR.md); the plain one keeps it.
                signer = secret.flatMap { s in publicKey.map { RequestSigner(secret: s, publicKey: $0) } }
            }
            return setRequestor(requestorID, serviceProviders: sps, at: now)
        case .checkAuthentication:
            return checkAuthentication(at: now)
        case .getAuthentication(let force, let data, let filter):
            return startLogin(forceAuthn: force, data: data, filter: filter, authorization: nil, at: now)
        case .setSelectedProvider(let id):
            return setSelectedProvider(id, at: now)
        case .handleExternalURL:
            return handleExternalURL(at: now)
        case .getAuthenticationToken:
            // The deprecated getAuthenticationToken is what old apps call where new ones call
            // handleExternalURL to finish a login; it finishes nothing else, a logout's browser
            // included (docs/CONFORMANCE.md, choice 19).
            return handleExternalURL(at: now, loginOnly: true)
        case .getSelectedProvider:
            return [.deliver(.selectedProvider(store.selectedMVPD))]
        case .getVersion:
            // A getter: its answer is its return value, which no callback carries (choice 46).
            return []
        case .logout:
            return logout(at: now)
        case .checkAuthorization(let r, let data):
            return checkAuthorization(r, data: data, at: now)
        case .getAuthorization(let r, let data):
            return getAuthorization(r, data: data, at: now)
        case .checkPreauthorizedResources(let rs, let cache):
            return checkPreauthorizedResources(rs, cache: cache, at: now)
        case .getMetadata(let d):
            return getMetadata(d, at: now)
        }
    }

    mutating func route(_ purpose: RequestPurpose, _ id: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        switch purpose {
        case .configuration: return configurationArrived(id, result, at: now)
        case .sessionDevice(let loginID): return authnTokenArrived(result, loginID: loginID, at: now)
        case .startLogin(let loginID): return loginStarted(result, loginID: loginID, at: now)
        case .checkCode(let loginID): return codeChecked(result, loginID: loginID, at: now)
        case .authorize(let flow): return authorizeArrived(flow, result, at: now)
        case .mediaToken(let flow): return mediaTokenArrived(flow, result, at: now)
        case .preauthorize(let flow): return preauthorizationArrived(flow, result, at: now)
        case .metadata(let flow): return deviceIDArrived(flow, result)
        case .logout: return logoutAnswered(id)
        case .clientRegistration(let origin): return clientRegistered(origin, id, result, at: now)
        case .accessToken(let origin): return accessTokenArrived(origin, id, result, at: now)
        }
    }

    // MARK: Plumbing

    var requestorID: String { startup.configuration?.requestorID ?? "" }
    var defaultSP: String { EngineConfiguration.normalizeSP(configuration.defaultServiceProvider) }

    /// The SP an MVPD was learnt from; every request about it goes there.
    func spURL(forMVPD id: String) -> String {
        startup.configuration?.mvpd(id)?.spURL ?? store.selectedMVPD?.spURL ?? defaultSP
    }

    /// Sends a request with the app's options (BEHAVIOR.md: every request carries them) and a
    /// deadline; after `init(softwareStatement:)`, once its origin has an access token (`transmit`).
    /// `signed`: a call of the tvOS registration-code flow.
    mutating func send(_ request: HTTPRequest, for purpose: RequestPurpose, at now: Instant, deadline: Bool = true,
                       signed: Bool = false) -> (RequestID, [EngineAction]) {
        let id = newRequest(for: purpose)
        var actions = transmit(HeldRequest(id: id, wireID: id, request: withOptions(request), signed: signed, retried: false,
                                           deadline: deadline), at: now)
        if deadline {
            actions.append(startTimer(.requestDeadline(id), at: now + configuration.requestTimeout).1)
        }
        return (id, actions)
    }

    mutating func newRequest(for purpose: RequestPurpose) -> RequestID {
        nextRequest += 1
        let id = RequestID(nextRequest)
        requests[id] = purpose
        return id
    }

    func withOptions(_ request: HTTPRequest) -> HTTPRequest {
        var r = request
        for option in options where option.key != "handleSVC" {
            r.headers.add(option.key, option.value.stringValue ?? option.value.jsonText)
        }
        return r
    }

    /// Sends at once, outside registration: the registration's own requests.
    mutating func sendUnheld(_ request: HTTPRequest, for purpose: RequestPurpose, at now: Instant) -> (RequestID, [EngineAction]) {
        let id = newRequest(for: purpose)
        return (id, [.send(id, withOptions(request)), startTimer(.requestDeadline(id), at: now + configuration.requestTimeout).1])
    }

    mutating func startTimer(_ purpose: TimerPurpose, at instant: Instant) -> (TimerID, EngineAction) {
        nextTimer += 1
        let id = TimerID(nextTimer)
        timers[id] = purpose
        return (id, .startTimer(id, at: instant))
    }

    mutating func cancelTimer(_ id: TimerID) -> [EngineAction] {
        timers.removeValue(forKey: id) == nil ? [] : [.cancelTimer(id)]
    }

    mutating func cancelDeadline(of request: RequestID) -> [EngineAction] {
        guard let timer = timers.first(where: { $0.value == .requestDeadline(request) })?.key else { return [] }
        return cancelTimer(timer)
    }

    mutating func newLogin(forceAuthn: Bool, data: Value?, authorization: PendingAuthorization?) -> Login {
        nextFlow += 1
        return Login(id: nextFlow, forceAuthn: forceAuthn, data: data, authorization: authorization)
    }

    /// Ends the running login with no callback (a superseding call, `logout`, `setRequestor`).
    mutating func abandonLogin() -> [EngineAction] {
        var actions: [EngineAction] = []
        switch authentication {
        case .starting(_, _, let request, _), .fetchingToken(_, _, let request, _), .awaitingCode(_, _, _, .asking(let request, _)):
            requests[request] = nil
            actions += cancelDeadline(of: request)
        case .awaitingCode(_, _, _, .waiting(let timer)):
            actions += cancelTimer(timer)
        case .idle, .selecting, .picking, .browsing, .awaitingPromotionData:
            break
        }
        authentication = .idle
        return actions
    }
}
