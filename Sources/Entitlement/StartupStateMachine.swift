import PassModel
import PassXML

/// The configuration the engine works with after a successful `setRequestor`.
public struct Configuration: Hashable, Sendable {
    public var requestorID: String
    /// The merged MVPD list, each MVPD carrying the SP it was learnt from.
    public var mvpds: [MVPD]

    public func mvpd(_ id: String) -> MVPD? { mvpds.first { $0.id == id } }
}

/// `setRequestor`: concurrent configuration fetches, merged in order of arrival (BEHAVIOR.md, Startup).
/// Shaped like swift-nio-ssh's state machines: each input switches on the state and says what to do.
struct StartupStateMachine: Sendable {
    struct Fetching: Sendable {
        var generation: Int
        var requestorID: String
        /// Requests still out, and the SP each went to.
        var outstanding: [RequestID: String]
        /// Usable configurations in order of arrival.
        var arrivals: [(spURL: String, config: SPConfiguration)]
        var deadline: TimerID
    }

    enum State: Sendable {
        case unconfigured
        case fetching(Fetching)
        case configured(Configuration)
        case failed(requestorID: String)
    }

    private(set) var state: State = .unconfigured
    private var generation = 0

    var configuration: Configuration? {
        if case .configured(let c) = state { return c }
        return nil
    }

    var isFetching: Bool {
        if case .fetching = state { return true }
        return false
    }

    /// Begins a new fetch. A fetch still in flight is abandoned: its `setRequestor` ends with
    /// `setRequestorComplete(0)` (choice, docs/CONFORMANCE.md) so that invariant 1 holds.
    mutating func start(requestorID: String, requests: [RequestID: String], deadline: TimerID) -> (superseded: TimerID?, generation: Int) {
        var superseded: TimerID?
        if case .fetching(let old) = state { superseded = old.deadline }
        generation += 1
        state = .fetching(Fetching(generation: generation, requestorID: requestorID, outstanding: requests, arrivals: [], deadline: deadline))
        return (superseded, generation)
    }

    enum Settled: Sendable {
        case stillWaiting
        case complete(Configuration?, deadline: TimerID)
    }

    /// A configuration response (or failure) for one SP of the current fetch.
    mutating func receive(_ id: RequestID, result: HTTPResult) -> Settled? {
        guard case .fetching(var f) = state, let spURL = f.outstanding.removeValue(forKey: id) else { return nil }
        if case .response(let r) = result, r.status == 200, let config = try? ConfigurationXML.parse(r.body),
           config.requestorID == f.requestorID {
            f.arrivals.append((spURL, config))
        }
        state = .fetching(f)
        return f.outstanding.isEmpty ? settle() : .stillWaiting
    }

    /// The 30 s deadline: whatever has not answered counts as timed out.
    mutating func deadlinePassed(_ timer: TimerID) -> Settled? {
        guard case .fetching(let f) = state, f.deadline == timer else { return nil }
        return settle()
    }

    var outstandingRequests: [RequestID] {
        if case .fetching(let f) = state { return f.outstanding.keys.sorted() }
        return []
    }

    private mutating func settle() -> Settled? {
        guard case .fetching(let f) = state else { return nil }
        guard !f.arrivals.isEmpty else {
            state = .failed(requestorID: f.requestorID)
            return .complete(nil, deadline: f.deadline)
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
        return .complete(config, deadline: f.deadline)
    }
}
