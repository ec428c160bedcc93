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
/// goes to the flow that says it is its own; one that no flow claims is stale. A flow works on its
/// own state and the `EngineCore` it is handed; what one flow does to another (a login superseded, a
/// logout or `setRequestor` ending what runs, an authorization waiting on its login, the calls
/// waiting on the configuration) is written here, in "Rules between flows", and nowhere else.
public struct Engine: Sendable {
    /// What the flows share: configurations, token store, options, registration, the wire and clock.
    var core: EngineCore
    var startup = StartupFlow()
    var authentication = AuthenticationFlow()
    var authorizations = AuthorizationFlows()
    var preauthorizations = PreauthorizationFlows()
    var metadata = MetadataFlows()
    var logout = LogoutFlow()
    var profileChecks = ProfileChecks()

    public var configuration: EngineConfiguration { core.configuration }

    public init(configuration: EngineConfiguration) {
        core = EngineCore(configuration: configuration)
    }

    // MARK: The one input

    public mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] {
        if case .call(.setRequestor, let shared) = input { adoptSharedStore(shared) }
        let actions = sharingChanges { engine in
            switch input {
            case .call(let call, _): return engine.called(call, at: now)
            case .response(let id, let result): return engine.answered(id, result, at: now)
            case .timer(let id): return engine.timerFired(id, at: now)
            case .picker(let outcome): return engine.authentication.pickerFinished(outcome, &engine.core, at: now)
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
            core.store.clearTokens()
            return
        }
        guard shared.token.guid != core.store.authnToken?.guid else { return }
        core.store.store(
            shared.token, userMeta: shared.userMeta, fromPlatformSSO: shared.fromPlatformSSO,
            tempPassIdentity: shared.tempPassIdentity)
        if core.store.selectedMVPD?.id != shared.token.mvpdID {
            // The configuration (on its way) replaces this placeholder with the MVPD it describes.
            core.store.selectedMVPD = MVPD(id: shared.token.mvpdID, displayName: shared.token.mvpdID)
        }
    }

    /// Every change to the app's authN token is written to the shared store at once (iOS).
    private mutating func sharingChanges(_ body: (inout Engine) -> [EngineAction]) -> [EngineAction] {
        let before = core.store.authnToken
        var actions = body(&self)
        if configuration.platform == .ios, core.store.authnToken != before {
            let store = core.store
            actions.append(
                .writeSharedStore(
                    store.authnToken.map {
                        SharedAuthentication(
                            token: $0, userMeta: store.userMeta, fromPlatformSSO: store.fromPlatformSSO,
                            tempPassIdentity: store.tempPassIdentity)
                    }))
        }
        return actions
    }

    /// An answer goes to the flow that holds its request, its deadline cancelled first.
    private mutating func answered(_ wireID: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        if let resent = resendAfterRefusedToken(result, for: wireID, at: now) { return resent }
        let id = core.registration.flowID(ofWire: wireID)
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
            return configurationSettled(startup.deadlinePassed(&core), at: now)
        case .codePoll?:
            return authentication.poll(&core, at: now)
        case nil:
            return []  // stale: no flow set it, or the one that did has ended (a cancelled timer that fired anyway)
        }
    }

    // MARK: Queries for runtimes and tests

    public var currentConfiguration: Configuration? { core.requestor }
    public var queuedCalls: [Call] { startup.queue }
    public var selectedMVPD: MVPD? { core.store.selectedMVPD }
    public var isLoginWaiting: Bool { authentication.login != nil }
    public var currentOptions: [Value.Entry] { core.options }
    /// The MVPDs Apple's picker shows now, or nil when it is not up.
    public var pickerShown: [MVPD]? { authentication.picker?.shown }
    /// tvOS: the registration code a login is waiting on, if any.
    public var awaitingRegistrationCode: String? { authentication.registrationCode?.code }

    /// How much the engine holds for flows in progress: requests out, timers set, authorizations,
    /// preauthorizations and metadata queries waiting, calls queued. The fuzzer's growth and liveness oracle.
    public var footprint: (requests: Int, timers: Int, flows: Int, queued: Int) {
        let (requests, timers) = load()
        let flows = authorizations.count + preauthorizations.count + metadata.count + profileChecks.count
        return (requests, timers, flows, startup.queue.count)
    }

    /// The authN token, if one is stored and valid at `now` (read only: nothing is removed).
    public func authnToken(at now: Instant) -> AuthnToken? {
        guard let t = core.store.authnToken, t.expires > now else { return nil }
        return t
    }

    // MARK: Dispatch

    mutating func dispatch(_ call: Call, at now: Instant) -> [EngineAction] {
        switch call {
        case .initialize(let statement):
            // The scenario's app already holds an engine; `init` only records its software statement.
            // Clients registered with another statement are forgotten; registrations under way finish.
            if statement != core.softwareStatement { core.registration.forgetRegisteredClients() }
            core.softwareStatement = statement
            return []
        case .setOptions(let entries):
            for entry in entries {
                core.options.removeAll { $0.key == entry.key }
                core.options.append(entry)
            }
            return []
        case .setRequestor(let requestorID, let sps, let signed, let secret, let publicKey):
            core.signedRequestorID = signed
            if secret != nil || publicKey != nil {
                // Only the latest call of this variant counts (BEHAVIOR.md); the plain one keeps it.
                core.signer = secret.flatMap { s in publicKey.map { RequestSigner(secret: s, publicKey: $0) } }
            }
            return setRequestor(requestorID, serviceProviders: sps, at: now)
        case .checkAuthentication:
            // The SP's profile where the wire asks for it (REST API v2, rest-api-v2.md 1.7), else the store.
            return profileChecks.start(&core, at: now)
        case .getAuthentication(let force, let data, let filter):
            return startLogin(forceAuthn: force, data: data, filter: filter, authorization: nil, at: now)
        case .setSelectedProvider(let id):
            let selected = core.store.selectedMVPD?.id
            let actions = authentication.select(id, &core, at: now)
            // Another provider cleared the tokens: a v2 profile check still out is about the old one.
            if let chosen = core.store.selectedMVPD?.id, chosen != selected { profileChecks.tokensCleared() }
            return actions
        case .handleExternalURL:
            return handleExternalURL(at: now)
        case .getAuthenticationToken:
            // The deprecated getAuthenticationToken is what old apps call where new ones call
            // handleExternalURL to finish a login; it finishes nothing else, a logout's browser
            // included (docs/CONFORMANCE.md, choice 19).
            return handleExternalURL(at: now, loginOnly: true)
        case .getSelectedProvider:
            return [.deliver(.selectedProvider(core.store.selectedMVPD))]
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
            return preauthorizations.start(rs, cache: cache, &core, at: now)
        case .getMetadata(let d):
            return metadata.query(d, &core, at: now)
        }
    }

    // MARK: Rules between flows

    /// `setRequestor`: a login running now ends with no callback, and so does every logout
    /// (BEHAVIOR.md, Overlapping calls); then the configuration is fetched anew.
    private mutating func setRequestor(_ requestorID: String, serviceProviders: [String]?, at now: Instant)
        -> [EngineAction]
    {
        var actions = authentication.abandon()
        logout.endedBySetRequestor()
        actions += startup.fetch(requestorID, serviceProviders: serviceProviders, &core, at: now)
        return actions
    }

    /// All fetches settled: complete the `setRequestor`, then start the calls that waited for the
    /// configuration, in call order, at this same instant (their callbacks come after
    /// `setRequestorComplete(1)`; BEHAVIOR.md, Queueing).
    mutating func configurationSettled(_ settled: StartupFlow.Outcome, at now: Instant) -> [EngineAction] {
        var actions = settled.actions
        for call in settled.queue {
            actions += dispatch(call, at: now)
        }
        return actions
    }

    /// `getAuthentication`, and the authentication a `getAuthorization` without a token drives: a new
    /// login supersedes a running one, and a logout waiting on its browser, with no callback.
    private mutating func startLogin(
        forceAuthn: Bool, data: Value?, filter: Value?, authorization: PendingAuthorization?, at now: Instant
    ) -> [EngineAction] {
        var actions = authentication.abandon()
        logout.supersededByLogin()
        actions += authentication.start(
            forceAuthn: forceAuthn, data: data, filter: filter, authorization: authorization, &core, at: now)
        return actions
    }

    /// The app intercepted a redirect: it finishes the login in the browser, else a logout's page.
    /// Honoured once per waiting flow; ignored otherwise.
    private mutating func handleExternalURL(at now: Instant, loginOnly: Bool = false) -> [EngineAction] {
        if let actions = authentication.redirectArrived(&core, at: now) { return actions }
        if !loginOnly, logout.redirectArrived() {
            return [core.status(false, Constants.userNotAuthenticatedError)]
        }
        return []
    }

    /// `logout`: the running login ends with no callback, then everything is cleared at once; a v2
    /// profile check still out answers as logged out.
    private mutating func logout(at now: Instant) -> [EngineAction] {
        profileChecks.tokensCleared()
        return authentication.abandon() + logout.start(&core, at: now)
    }

    private mutating func checkAuthorization(_ resource: String, data: Value?, at now: Instant) -> [EngineAction] {
        guard core.store.validAuthnToken(at: now) != nil else {
            // Other SDKs: no setAuthenticationStatus, only the failure and its tracking.
            return core.authorizationFailed(resource, Constants.userNotAuthenticatedError, "")
        }
        return authorizations.authorize(resource, data: data, &core, at: now)
    }

    private mutating func getAuthorization(_ resource: String, data: Value?, at now: Instant) -> [EngineAction] {
        if core.store.validAuthnToken(at: now) != nil {
            // It supersedes a running login all the same (BEHAVIOR.md, Overlapping calls): a forced one.
            return authentication.abandon() + authorizations.authorize(resource, data: data, &core, at: now)
        }
        // Authenticate first; authZ continues after the status and its tracking (invariant 3).
        // Its data goes on the login's authenticate/saml request too (BEHAVIOR.md, `withData:`).
        return startLogin(
            forceAuthn: false, data: data, filter: nil,
            authorization: PendingAuthorization(resource: resource, data: data), at: now)
    }

    /// The login's request answered: a login that a `getAuthorization` started goes on to authorize
    /// once it has its token (invariant 3).
    mutating func authenticationAnswered(_ id: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        let answered = authentication.answered(id, result, &core, at: now)
        guard let pending = answered.authorize else { return answered.actions }
        return answered.actions + authorizations.authorize(pending.resource, data: pending.data, &core, at: now)
    }

    /// Cancels the deadline of a request its flow gives up on.
    static func cancelDeadline(of request: PendingRequest) -> [EngineAction] {
        request.deadline.map { [.cancelTimer($0)] } ?? []
    }
}
