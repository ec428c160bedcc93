import PassModel
import PassXML

/// The configuration the engine works with after a successful `setRequestor`.
public struct Configuration: Hashable, Sendable {
    public var requestorID: String
    /// The merged MVPD list, each MVPD carrying the SP it was learnt from.
    public var mvpds: [MVPD]

    public func mvpd(_ id: String) -> MVPD? { mvpds.first { $0.id == id } }
}

/// `setRequestor`: concurrent configuration fetches, merged in order of arrival (BEHAVIOR.md,
/// Startup). Until a configuration is known, the calls that need one wait in the state (BEHAVIOR.md,
/// Queueing), so a configured engine cannot hold a queue.
struct StartupFlow: Sendable, RequestHolder {
    fileprivate struct Fetching: Sendable {
        var requestorID: String
        /// Requests still out, and the SP each went to.
        var outstanding: [RequestID: String]
        /// Usable configurations in order of arrival.
        var arrivals: [(spURL: String, config: SPConfiguration)]
        var deadline: TimerID
        var queue: [Call]
    }

    fileprivate enum State: Sendable {
        case unconfigured(queue: [Call])
        case fetching(Fetching)
        case configured(Configuration)
        case failed(requestorID: String, queue: [Call])
    }

    fileprivate var state = State.unconfigured(queue: [])

    var configuration: Configuration? {
        if case .configured(let c) = state { return c }
        return nil
    }

    /// Calls waiting for a configuration, in call order.
    var queue: [Call] {
        switch state {
        case .unconfigured(let q), .failed(_, let q): return q
        case .fetching(let f): return f.queue
        case .configured: return []
        }
    }

    /// Queues a call that needs a configuration; false when one is known (the call runs now).
    mutating func enqueue(_ call: Call) -> Bool {
        switch state {
        case .unconfigured(let q): state = .unconfigured(queue: q + [call])
        case .failed(let r, let q): state = .failed(requestorID: r, queue: q + [call])
        case .fetching(var f):
            f.queue.append(call)
            state = .fetching(f)
        case .configured: return false
        }
        return true
    }

    var outstanding: [PendingRequest] {
        guard case .fetching(let f) = state else { return [] }
        return f.outstanding.keys.sorted().map { PendingRequest(id: $0, deadline: nil) }
    }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        guard case .fetching(let f) = state else { return nil }
        for id in f.outstanding.keys.sorted() where match(PendingRequest(id: id, deadline: nil)) {
            return (.startup, PendingRequest(id: id, deadline: nil))
        }
        return nil
    }

    /// The fetch's requests share its deadline; none has its own to rearm.
    mutating func rearm(_ id: RequestID, deadline: TimerID) {}

    var ownTimers: [(TimerID, TimerKind)] {
        if case .fetching(let f) = state { return [(f.deadline, .configurationDeadline)] }
        return []
    }

    /// The deadline of a fetch in flight (which a new `setRequestor` supersedes).
    fileprivate var fetchInFlight: TimerID? {
        if case .fetching(let f) = state { return f.deadline }
        return nil
    }

    /// Begins a new fetch, the queue carried over; a fetch in flight is dropped with its requests.
    fileprivate mutating func start(requestorID: String, requests: [RequestID: String], deadline: TimerID) {
        state = .fetching(
            Fetching(requestorID: requestorID, outstanding: requests, arrivals: [], deadline: deadline, queue: queue))
    }

    fileprivate enum Settled: Sendable {
        case stillWaiting
        /// nil: no SP gave a usable configuration. `queue`: the calls to start now, in call order.
        case complete(Configuration?, queue: [Call])
    }

    /// A configuration response (or failure) for one SP of the current fetch (`pending` said it is).
    fileprivate mutating func receive(_ id: RequestID, result: HTTPResult) -> Settled {
        guard case .fetching(var f) = state, let spURL = f.outstanding.removeValue(forKey: id) else {
            return .stillWaiting
        }
        if case .response(let r) = result, r.status == 200, let config = r.decoded(orParse: ConfigurationXML.parse),
            config.requestorID == f.requestorID
        {
            f.arrivals.append((spURL, config))
        }
        state = .fetching(f)
        return f.outstanding.isEmpty ? settle(f) : .stillWaiting
    }

    /// The 30 s deadline: whatever has not answered counts as timed out.
    fileprivate mutating func deadlinePassed() -> Settled {
        guard case .fetching(let f) = state else { return .stillWaiting }
        return settle(f)
    }

    private mutating func settle(_ f: Fetching) -> Settled {
        guard !f.arrivals.isEmpty else {
            state = .failed(requestorID: f.requestorID, queue: f.queue)
            return .complete(nil, queue: [])
        }
        // First responder's list in its order, then each later responder's new MVPDs; the first
        // description of an MVPD wins, and the MVPD keeps the SP it came from.
        var merged: [MVPD] = []
        var seen = Set<String>()
        for arrival in f.arrivals {
            for var mvpd in arrival.config.mvpds where !seen.contains(mvpd.id) {
                seen.insert(mvpd.id)
                mvpd.spURL = arrival.spURL
                merged.append(mvpd)
            }
        }
        let config = Configuration(requestorID: f.requestorID, mvpds: merged)
        state = .configured(config)
        return .complete(config, queue: f.queue)
    }
}

extension Engine {
    /// `setRequestor`: fetch the configuration from every SP at the same time.
    mutating func setRequestor(_ requestorID: String, serviceProviders: [String]?, at now: Instant) -> [EngineAction] {
        // A login running now ends with no callback (BEHAVIOR.md, Overlapping calls).
        var actions = abandonLogin()
        logout.endedBySetRequestor()
        let urls = (serviceProviders ?? [configuration.defaultServiceProvider]).map(EngineConfiguration.normalizeSP)

        // A fetch still in flight is superseded: its setRequestor ends now with 0 (invariant 1).
        if let old = startup.fetchInFlight {
            actions.append(.cancelTimer(old))
            actions.append(.deliver(.setRequestorComplete(status: Constants.statusError)))
        }

        var outstanding: [RequestID: String] = [:]
        var sends: [EngineAction] = []
        for url in urls {
            let request = HTTPRequest(
                method: Route.config.method, url: Route.config.url(url, requestorID),
                headers: HTTPHeaders([HTTPHeader("Accept", "application/xml")]))
            let (pending, a) = send(request, at: now, deadline: false)
            outstanding[pending.id] = url
            sends += a
        }
        let (deadline, timer) = startTimer(at: now + configuration.requestTimeout)
        startup.start(requestorID: requestorID, requests: outstanding, deadline: deadline)
        return actions + sends + [timer]
    }

    mutating func configurationArrived(_ id: RequestID, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        let deadline = startup.fetchInFlight
        // Throttled: CFG429 as the answer arrives, then the failure path (BEHAVIOR.md, Throttling).
        let throttled = Engine.throttled(result, StatusCode.configurationThrottled)
        switch startup.receive(id, result: result) {
        case .stillWaiting:
            return throttled
        case .complete(let config, let queue):
            // Settled by its last answer: the fetch's deadline goes.
            return throttled + (deadline.map { [.cancelTimer($0)] } ?? [])
                + configurationSettled(config, queue: queue, at: now)
        }
    }

    mutating func configurationDeadlinePassed(at now: Instant) -> [EngineAction] {
        switch startup.deadlinePassed() {
        case .stillWaiting: return []
        case .complete(let config, let queue): return configurationSettled(config, queue: queue, at: now)
        }
    }

    /// All fetches settled: complete the `setRequestor`, then start the queued calls in call order at
    /// this same instant (their callbacks come after `setRequestorComplete(1)`).
    private mutating func configurationSettled(_ config: Configuration?, queue: [Call], at now: Instant)
        -> [EngineAction]
    {
        guard let config else {
            return [.deliver(.setRequestorComplete(status: Constants.statusError))]
        }
        // The stored selection keeps the SP of the new configuration when the MVPD is still offered.
        if let selected = store.selectedMVPD, let fresh = config.mvpd(selected.id) { store.selectedMVPD = fresh }
        var actions: [EngineAction] = [.deliver(.setRequestorComplete(status: Constants.statusSuccess))]
        for call in queue {
            actions += dispatch(call, at: now)
        }
        return actions
    }
}
