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
/// Queueing), so a configured engine cannot hold a queue. The configuration itself goes to the core
/// (`EngineCore.requestor`), which every flow reads.
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
        case configured
        case failed(queue: [Call])
    }

    fileprivate var state = State.unconfigured(queue: [])

    /// What a fetch that settled leaves to do: its callbacks, then the calls that waited for it, in
    /// call order (`Engine` starts them: they belong to other flows).
    struct Outcome {
        var actions: [EngineAction]
        var queue: [Call] = []
    }

    /// Calls waiting for a configuration, in call order.
    var queue: [Call] {
        switch state {
        case .unconfigured(let q), .failed(let q): return q
        case .fetching(let f): return f.queue
        case .configured: return []
        }
    }

    /// Queues a call that needs a configuration; false when one is known (the call runs now).
    mutating func enqueue(_ call: Call) -> Bool {
        switch state {
        case .unconfigured(let q): state = .unconfigured(queue: q + [call])
        case .failed(let q): state = .failed(queue: q + [call])
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

    /// The fetch's requests, none with a deadline of its own, and the fetch's deadline.
    var load: (requests: Int, timers: Int) {
        guard case .fetching(let f) = state else { return (0, 0) }
        return (f.outstanding.count, 1)
    }

    /// The fetch's requests share its deadline; none has its own to rearm.
    mutating func rearm(_ id: RequestID, deadline: TimerID) {}

    var ownTimers: [(TimerID, TimerKind)] {
        if case .fetching(let f) = state { return [(f.deadline, .configurationDeadline)] }
        return []
    }

    // MARK: Transitions

    /// Fetches the configuration from every SP at the same time. A fetch still in flight is
    /// superseded: its `setRequestor` ends now with 0 (invariant 1), its requests dropped; the queue
    /// is carried over.
    mutating func fetch(
        _ requestorID: String, serviceProviders: [String]?, _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        var actions: [EngineAction] = []
        if case .fetching(let old) = state {
            actions.append(.cancelTimer(old.deadline))
            actions.append(.deliver(.setRequestorComplete(status: Constants.statusError)))
        }
        let urls = (serviceProviders ?? [core.configuration.defaultServiceProvider]).map(
            EngineConfiguration.normalizeSP)
        // Sized once (every `setRequestor` of a run comes here): only ever read sorted or counted, so
        // its capacity changes no order.
        var outstanding = [RequestID: String](minimumCapacity: urls.count)
        for url in urls {
            let request = core.dialect.configurationRequest(requestorID: requestorID, sp: url, core)
            let (pending, sent) = core.send(request, at: now, deadline: false)
            outstanding[pending.id] = url
            actions.append(contentsOf: sent)
        }
        let (deadline, timer) = core.startTimer(at: now + core.configuration.requestTimeout)
        core.requestor = nil
        state = .fetching(
            Fetching(requestorID: requestorID, outstanding: outstanding, arrivals: [], deadline: deadline, queue: queue)
        )
        actions.append(timer)
        return actions
    }

    /// A configuration response (or failure) for one SP of the current fetch (`claim` said it is).
    /// Throttled: `CFG429` as the answer arrives, then the failure path (BEHAVIOR.md, Throttling).
    mutating func answered(_ id: RequestID, _ result: HTTPResult, _ core: inout EngineCore) -> Outcome {
        let throttled = Engine.throttled(result, StatusCode.configurationThrottled)
        guard case .fetching(var f) = state, let spURL = f.outstanding.removeValue(forKey: id) else {
            return Outcome(actions: throttled)
        }
        if let config = core.dialect.configuration(in: result, core), config.requestorID == f.requestorID {
            f.arrivals.append((spURL, config))
        }
        state = .fetching(f)
        guard f.outstanding.isEmpty else { return Outcome(actions: throttled) }
        // Settled by its last answer: the fetch's deadline goes.
        var settled = settle(f, &core)
        settled.actions = throttled + [.cancelTimer(f.deadline)] + settled.actions
        return settled
    }

    /// The 30 s deadline: whatever has not answered counts as timed out.
    mutating func deadlinePassed(_ core: inout EngineCore) -> Outcome {
        guard case .fetching(let f) = state else { return Outcome(actions: []) }
        return settle(f, &core)
    }

    private mutating func settle(_ f: Fetching, _ core: inout EngineCore) -> Outcome {
        guard !f.arrivals.isEmpty else {
            state = .failed(queue: f.queue)
            return Outcome(actions: [.deliver(.setRequestorComplete(status: Constants.statusError))])
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
        state = .configured
        core.requestor = config
        // The stored selection keeps the SP of the new configuration when the MVPD is still offered.
        if let selected = core.store.selectedMVPD, let fresh = config.mvpd(selected.id) {
            core.store.selectedMVPD = fresh
        }
        return Outcome(actions: [.deliver(.setRequestorComplete(status: Constants.statusSuccess))], queue: f.queue)
    }
}
