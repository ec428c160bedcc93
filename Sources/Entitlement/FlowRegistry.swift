import PassModel

/// Every kind of flow the engine runs: the registry. A flow is registered by a case here and its arm
/// in `Engine.ask(_:_:)`; every question about requests and timers (whose answer is this, whose
/// timer fired, how much is held) goes through that one switch, so the compiler finds every place a
/// new flow must be known. Its answers are routed by `RequestOwner` (`Engine.route`), also switched
/// exhaustively.
enum FlowKind: CaseIterable, Sendable {
    case startup, authentication, authorizations, preauthorizations, metadata, logout, registration, profileChecks
}

/// Which flow an answer or a deadline belongs to, down to the one instance of a kind that has many.
enum RequestOwner: Hashable, Sendable {
    case startup
    case authentication
    case authorization(AuthorizationID)
    case preauthorization(PreauthorizationID)
    case metadata(MetadataID)
    case logout
    case registration(origin: String)
    case profileCheck(ProfileCheckID)
}

/// What a running timer is for: the one dispatch when it fires (`Engine.timerFired`).
enum TimerKind: Hashable, Sendable {
    /// A request's own deadline: the request counts as unanswered (`HTTPResult.timeout`).
    case deadline(RequestOwner, PendingRequest)
    /// The configuration fetch's deadline, shared by its requests to every SP (BEHAVIOR.md, Startup).
    case configurationDeadline
    /// tvOS: the registration code is due to be polled again.
    case codePoll
}

/// A request a flow is waiting on, with its deadline (nil for the configuration fetch, which has
/// the fetch's). The flow that holds it is the only one that may read its answer or its deadline.
struct PendingRequest: Hashable, Sendable {
    let id: RequestID
    var deadline: TimerID?

    /// The same request with `deadline` when it is `id`.
    func rearmed(_ id: RequestID, _ deadline: TimerID) -> PendingRequest {
        self.id == id ? PendingRequest(id: id, deadline: deadline) : self
    }
}

/// A flow as the registry sees it: the requests it waits on (an answer is the flow's exactly when
/// its state holds the request), the timers of its own, and a new deadline for a request sent again
/// (the resend after a refused Bearer token).
protocol RequestHolder {
    var outstanding: [PendingRequest] { get }
    /// How many requests are out and how many timers run (each request's deadline and the flow's
    /// own): `outstanding` and `ownTimers` counted. A flow may count without building them: the
    /// fuzzer asks after every step (`Engine.footprint`).
    var load: (requests: Int, timers: Int) { get }
    /// The request `match` picks among those the flow waits on, with the owner its answer goes to.
    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)?
    /// The timers the flow runs that are not a request's deadline.
    var ownTimers: [(TimerID, TimerKind)] { get }
    mutating func rearm(_ id: RequestID, deadline: TimerID)
}

extension RequestHolder {
    var ownTimers: [(TimerID, TimerKind)] { [] }

    var load: (requests: Int, timers: Int) { countedLoad }

    /// `load` from `outstanding` and `ownTimers`: what a flow's own `load` must equal (asserted in
    /// debug builds, where the tests and the fuzzer's golden runs hold every flow to it).
    var countedLoad: (requests: Int, timers: Int) {
        let requests = outstanding
        return (requests.count, requests.count { $0.deadline != nil } + ownTimers.count)
    }
}

/// A question put to each flow in turn (`Engine.ask`): generic, so every flow is asked by static
/// dispatch (boxing each flow to ask it was a share of a fuzz run).
protocol FlowQuestion {
    associatedtype Answer
    func ask(_ flow: some RequestHolder) -> Answer
}

extension Engine {
    /// The registry's one switch.
    func ask<Q: FlowQuestion>(_ kind: FlowKind, _ question: Q) -> Q.Answer {
        switch kind {
        case .startup: question.ask(startup)
        case .authentication: question.ask(authentication)
        case .authorizations: question.ask(authorizations)
        case .preauthorizations: question.ask(preauthorizations)
        case .metadata: question.ask(metadata)
        case .logout: question.ask(logout)
        case .registration: question.ask(core.registration)
        case .profileChecks: question.ask(profileChecks)
        }
    }

    /// The first flow's answer that is not nil, flows asked in the registry's order.
    func first<Q: FlowQuestion, T>(_ question: Q) -> T? where Q.Answer == T? {
        for kind in FlowKind.allCases {
            if let answer = ask(kind, question) { return answer }
        }
        return nil
    }

    /// The flow waiting on request `id`, and the request as it holds it; nil when none is (stale).
    func owner(of id: RequestID) -> (RequestOwner, PendingRequest)? {
        first(Claim.request(id))
    }

    func isOutstanding(_ id: RequestID) -> Bool { owner(of: id) != nil }

    /// What `timer` is for; nil when no flow runs it (stale: cancelled, or its flow has ended).
    func timerKind(_ timer: TimerID) -> TimerKind? {
        if let (owner, request) = first(Claim.deadline(timer)) { return .deadline(owner, request) }
        return first(OwnTimer(timer: timer))
    }

    /// Gives request `id` of `owner` a new deadline (it is being sent again).
    mutating func rearm(_ owner: RequestOwner, _ id: RequestID, deadline: TimerID) {
        switch owner {
        case .startup: startup.rearm(id, deadline: deadline)
        case .authentication: authentication.rearm(id, deadline: deadline)
        case .authorization: authorizations.rearm(id, deadline: deadline)
        case .preauthorization: preauthorizations.rearm(id, deadline: deadline)
        case .metadata: metadata.rearm(id, deadline: deadline)
        case .logout: logout.rearm(id, deadline: deadline)
        case .registration: core.registration.rearm(id, deadline: deadline)
        case .profileCheck: profileChecks.rearm(id, deadline: deadline)
        }
    }

    /// The request's answer (or its failure) to the flow that owns it.
    mutating func route(_ owner: RequestOwner, _ id: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction]
    {
        switch owner {
        case .startup: configurationSettled(startup.answered(id, result, &core), at: now)
        case .authentication: authenticationAnswered(id, result, at: now)
        case .authorization(let flow): authorizations.answered(flow, result, &core, at: now)
        case .preauthorization(let flow): preauthorizations.answered(flow, result, &core, at: now)
        case .metadata(let flow): metadata.answered(flow, result, core)
        case .logout: logout.answered(id, result, core)
        case .registration(let origin): registrationAnswered(origin, result, at: now)
        case .profileCheck(let flow): profileChecks.answered(flow, result, &core, at: now)
        }
    }

    /// Requests out and timers running, over every flow.
    func load() -> (requests: Int, timers: Int) {
        var requests = 0, timers = 0
        for kind in FlowKind.allCases {
            let (r, t) = ask(kind, Load())
            requests += r
            timers += t
        }
        return (requests, timers)
    }
}

/// A request, by its id or its deadline, in whichever flow holds it.
private enum Claim: FlowQuestion {
    case request(RequestID)
    case deadline(TimerID)

    func ask(_ flow: some RequestHolder) -> (RequestOwner, PendingRequest)? {
        switch self {
        case .request(let id): flow.claim { $0.id == id }
        case .deadline(let timer): flow.claim { $0.deadline == timer }
        }
    }
}

private struct OwnTimer: FlowQuestion {
    let timer: TimerID
    func ask(_ flow: some RequestHolder) -> TimerKind? { flow.ownTimers.first { $0.0 == timer }?.1 }
}

/// A flow's requests out, and its timers: each request's deadline and its own.
private struct Load: FlowQuestion {
    func ask(_ flow: some RequestHolder) -> (requests: Int, timers: Int) {
        let load = flow.load
        assert(load == flow.countedLoad, "\(type(of: flow)).load is not its requests and timers")
        return load
    }
}
