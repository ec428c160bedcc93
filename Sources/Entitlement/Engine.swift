import PassModel
import PassXML

/// The AccessEnabler entitlement engine: a pure state machine (ARCHITECTURE.md). Inputs are API calls,
/// HTTP results and timers, each with the instant it happens at; outputs are `EngineAction`s.
/// It never reads a clock, opens a socket or sleeps, so the simulated runtime, a live runtime and a
/// fuzzer all drive the same code.
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

    enum RequestPurpose: Hashable, Sendable {
        case configuration
        case sessionDevice(loginID: Int)
    }
    enum TimerPurpose: Hashable, Sendable {
        case configurationDeadline
        case requestDeadline(RequestID)
    }
    var requests: [RequestID: RequestPurpose] = [:]
    var timers: [TimerID: TimerPurpose] = [:]
    private var nextRequest = 0
    private var nextTimer = 0
    private var nextLogin = 0

    var tracking: Tracking { Tracking(configuration: configuration) }

    public init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    // MARK: Inputs

    /// The app calls the API.
    public mutating func handle(_ call: Call, at now: Instant) -> [EngineAction] {
        if call.isQueuedUntilConfigured && startup.configuration == nil {
            queue.append(call)
            return []
        }
        return dispatch(call, at: now)
    }

    /// A response (or transport failure) for a request the engine sent.
    public mutating func receive(_ result: HTTPResult, for id: RequestID, at now: Instant) -> [EngineAction] {
        guard let purpose = requests.removeValue(forKey: id) else { return [] }  // late: its flow is gone
        var actions = cancelDeadline(of: id)
        switch purpose {
        case .configuration:
            actions += configurationArrived(id, result, at: now)
        case .sessionDevice(let loginID):
            actions += authnTokenArrived(result, loginID: loginID, at: now)
        }
        return actions
    }

    /// A timer the engine started has fired.
    public mutating func timerFired(_ id: TimerID, at now: Instant) -> [EngineAction] {
        guard let purpose = timers.removeValue(forKey: id) else { return [] }
        switch purpose {
        case .configurationDeadline:
            for r in startup.outstandingRequests { requests[r] = nil }
            guard let settled = startup.deadlinePassed(id) else { return [] }
            return configurationSettled(settled, at: now)
        case .requestDeadline(let request):
            guard requests[request] != nil else { return [] }
            // The request counts as unanswered; a late response finds no purpose and is dropped.
            var actions: [EngineAction] = []
            if let purpose = requests.removeValue(forKey: request), case .sessionDevice(let loginID) = purpose {
                actions += authnTokenArrived(.timeout, loginID: loginID, at: now)
            }
            return actions
        }
    }

    // MARK: Queries for runtimes, tests and the invariant checker

    public var currentConfiguration: Configuration? { startup.configuration }
    public var queuedCalls: [Call] { queue }
    public var selectedMVPD: MVPD? { store.selectedMVPD }
    public var isLoginWaiting: Bool { authentication != .idle }
    public var currentOptions: [Value.Entry] { options }

    // MARK: Dispatch

    mutating func dispatch(_ call: Call, at now: Instant) -> [EngineAction] {
        switch call {
        case .initialize(let statement):
            // The scenario's app already holds an engine; `init` only records its software statement.
            softwareStatement = statement
            return []
        case .setOptions(let entries):
            for entry in entries {
                options.removeAll { $0.key == entry.key }
                options.append(entry)
            }
            return []
        case .setRequestor(let requestorID, let sps, _, _, _):
            return setRequestor(requestorID, serviceProviders: sps, at: now)
        case .checkAuthentication:
            return checkAuthentication(at: now)
        case .getAuthentication(let force, let data, _):
            return getAuthentication(forceAuthn: force, data: data, at: now)
        case .setSelectedProvider(let id):
            return setSelectedProvider(id, at: now)
        case .handleExternalURL:
            return handleExternalURL(at: now)
        case .getSelectedProvider:
            return [.deliver(.selectedProvider(store.selectedMVPD))]
        case .logout:
            return logout(at: now)
        case .checkAuthorization, .getAuthorization, .checkPreauthorizedResources, .getMetadata, .getAuthenticationToken:
            // Authorization, preauthorization, metadata and the deprecated token call come with issue 3;
            // the scenario runner refuses them before they reach here.
            return []
        }
    }

    // MARK: Plumbing

    mutating func send(_ request: HTTPRequest, for purpose: RequestPurpose, at now: Instant, deadline: Bool = true) -> (RequestID, [EngineAction]) {
        nextRequest += 1
        let id = RequestID(nextRequest)
        requests[id] = purpose
        var actions: [EngineAction] = [.send(id, request)]
        if deadline {
            actions.append(startTimer(.requestDeadline(id), at: now + configuration.requestTimeout).1)
        }
        return (id, actions)
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

    mutating func newLogin(forceAuthn: Bool, data: Value?) -> Login {
        nextLogin += 1
        return Login(id: nextLogin, forceAuthn: forceAuthn, data: data)
    }

    /// Ends the running login with no callback (a superseding call, `logout`, `setRequestor`).
    mutating func abandonLogin() -> [EngineAction] {
        var actions: [EngineAction] = []
        if case .fetchingToken(_, _, let request) = authentication {
            requests[request] = nil
            actions += cancelDeadline(of: request)
        }
        authentication = .idle
        return actions
    }
}
