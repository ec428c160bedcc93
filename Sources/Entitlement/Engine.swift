import PassModel
import PassXML

/// The AccessEnabler entitlement engine: a pure state machine (ARCHITECTURE.md). One input type,
/// `EngineInput` (API calls, HTTP results, timers and the picker's outcome), each with the instant
/// it happens at; outputs are `EngineAction`s. It never reads a clock, opens a socket or sleeps, so
/// the simulated runtime, a live runtime and a fuzzer all drive the same code.
///
/// Each flow is its own state machine that owns its requests and timers: startup (which also holds
/// the calls waiting for a configuration), authentication, authorizations, preauthorizations,
/// metadata queries, logout, and the SDK 3.x registration at each SP origin. An answer or a timer
/// goes to the flow that says it is its own; one that no flow claims is stale.
public struct Engine: Sendable {
    public let configuration: EngineConfiguration
    var startup = StartupFlow()
    var authentication = AuthenticationFlow()
    var authorizations = AuthorizationFlows()
    var preauthorizations = PreauthorizationFlows()
    var metadata = MetadataFlows()
    var logout = LogoutFlow()
    var registration = Registration()
    var store = TokenStore()
    var options: [Value.Entry] = []
    var softwareStatement: String?
    var signedRequestorID: String?
    /// The deprecated tvOS `setRequestor(…, secret:, publicKey:)`'s key pair.
    var signer: RequestSigner?
    var signedRequests = 0

    var nextRequest = 0
    private var nextTimer = 0
    var nextFlow = 0

    var tracking: Tracking { Tracking(configuration: configuration) }

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    // MARK: The one input

    public mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] {
        if case .call(.setRequestor, let shared) = input { adoptSharedStore(shared) }
        let actions = sharingChanges { engine in
            switch input {
            case .call(let call, _): return engine.called(call, at: now)
            case .response(let id, let result): return engine.answered(id, result, at: now)
            case .timer(let id): return engine.timerFired(id, at: now)
            case .picker(let outcome): return engine.pickerFinished(outcome, at: now)
            }
        }
        forgetRequestsOfEndedFlows()
        return actions
    }

    private mutating func called(_ call: Call, at now: Instant) -> [EngineAction] {
        if call.isQueuedUntilConfigured, startup.enqueue(call) { return [] }
        return dispatch(call, at: now)
    }

    /// iOS passive SSO: `setRequestor` replaces the app's authN token with the shared store's.
    private mutating func adoptSharedStore(_ shared: SharedAuthentication?) {
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
            actions.append(
                .writeSharedStore(
                    store.authnToken.map {
                        SharedAuthentication(
                            token: $0, userMeta: store.userMeta, fromPlatformSSO: store.fromPlatformSSO)
                    }))
        }
        return actions
    }

    /// An answer goes to the flow that holds its request, its deadline cancelled first.
    private mutating func answered(_ wireID: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        if let resent = resendAfterRefusedToken(result, for: wireID, at: now) { return resent }
        let id = registration.flowID(ofWire: wireID)
        guard let (owner, request) = owner(of: id) else {
            return []  // stale: a late answer (its deadline passed, or its flow ended or was superseded)
        }
        return (request.deadline.map { [.cancelTimer($0)] } ?? []) + route(owner, id, result, at: now)
    }

    private mutating func timerFired(_ id: TimerID, at now: Instant) -> [EngineAction] {
        switch timerKind(id) {
        case .deadline(let owner, let request)?:
            // The request counts as unanswered; a late response finds no owner and is dropped.
            return route(owner, request.id, .timeout, at: now)
        case .configurationDeadline?:
            return configurationDeadlinePassed(at: now)
        case .codePoll?:
            return pollCode(at: now)
        case nil:
            return []  // stale: no flow set it, or the one that did has ended (a cancelled timer that fired anyway)
        }
    }

    // MARK: Queries for runtimes and tests

    public var currentConfiguration: Configuration? { startup.configuration }
    public var queuedCalls: [Call] { startup.queue }
    public var selectedMVPD: MVPD? { store.selectedMVPD }
    public var isLoginWaiting: Bool { authentication.login != nil }
    public var currentOptions: [Value.Entry] { options }
    /// The MVPDs Apple's picker shows now, or nil when it is not up.
    public var pickerShown: [MVPD]? { authentication.picker?.shown }
    /// tvOS: the registration code a login is waiting on, if any.
    public var awaitingRegistrationCode: String? { authentication.registrationCode?.code }

    /// How much the engine holds for flows in progress: requests out, timers set, authorizations,
    /// preauthorizations and metadata queries waiting, calls queued. The fuzzer's growth and liveness oracle.
    public var footprint: (requests: Int, timers: Int, flows: Int, queued: Int) {
        let (requests, timers) = load()
        return (requests, timers, authorizations.count + preauthorizations.count + metadata.count, startup.queue.count)
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
            if statement != softwareStatement { registration.forgetRegisteredClients() }
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
            // A getter: its answer is its return value, which no callback carries (choice 48).
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

    // MARK: Plumbing

    var requestorID: String { startup.configuration?.requestorID ?? "" }
    var defaultSP: String { EngineConfiguration.normalizeSP(configuration.defaultServiceProvider) }

    /// The SP an MVPD was learnt from; every request about it goes there.
    func spURL(forMVPD id: String) -> String {
        startup.configuration?.mvpd(id)?.spURL ?? store.selectedMVPD?.spURL ?? defaultSP
    }

    /// Sends a request with the app's options (BEHAVIOR.md: every request carries them) and a
    /// deadline; after `init(softwareStatement:)`, once its origin has an access token (`transmit`).
    /// `signed`: a call of the tvOS registration-code flow. The caller's flow holds the result.
    mutating func send(
        _ request: HTTPRequest, at now: Instant, deadline: Bool = true,
        signed: Bool = false
    ) -> (PendingRequest, [EngineAction]) {
        let id = newRequestID()
        var actions = transmit(
            HeldRequest(
                id: id, wireID: id, request: withOptions(request), signed: signed, retried: false,
                deadline: deadline), at: now)
        var pending = PendingRequest(id: id, deadline: nil)
        if deadline {
            let (timer, start) = startTimer(at: now + configuration.requestTimeout)
            pending.deadline = timer
            actions.append(start)
        }
        return (pending, actions)
    }

    mutating func newRequestID() -> RequestID {
        nextRequest += 1
        return RequestID(nextRequest)
    }

    func withOptions(_ request: HTTPRequest) -> HTTPRequest {
        var r = request
        for option in options where option.key != "handleSVC" {
            r.headers.add(option.key, option.value.stringValue ?? option.value.jsonText)
        }
        return r
    }

    /// Sends at once, outside registration: the registration's own requests.
    mutating func sendUnheld(_ request: HTTPRequest, at now: Instant) -> (PendingRequest, [EngineAction]) {
        let id = newRequestID()
        let (timer, start) = startTimer(at: now + configuration.requestTimeout)
        return (PendingRequest(id: id, deadline: timer), [.send(id, withOptions(request)), start])
    }

    mutating func startTimer(at instant: Instant) -> (TimerID, EngineAction) {
        nextTimer += 1
        let id = TimerID(nextTimer)
        return (id, .startTimer(id, at: instant))
    }

    /// Cancels the deadline of a request its flow gives up on.
    static func cancelDeadline(of request: PendingRequest) -> [EngineAction] {
        request.deadline.map { [.cancelTimer($0)] } ?? []
    }

    mutating func newFlowID<Kind>() -> FlowID<Kind> {
        nextFlow += 1
        return FlowID(value: nextFlow)
    }
}
