/// A flow of a kind that runs many at once, each instance waiting on one request at a time: an
/// authorization, a preauthorization, a device-id query, a profile check.
protocol OneRequestFlow {
    var request: PendingRequest { get set }
}

/// The instances of such a kind, by id: what the registry asks of them (which request is whose, a
/// new deadline for one sent again) is the same for every kind, written once here, so a new kind of
/// flow is its own type, its table's `owner` and its transitions (docs/CONTRIBUTING.md).
protocol FlowTable: RequestHolder {
    associatedtype Flow: OneRequestFlow
    var flows: [FlowID<Flow>: Flow] { get set }
    /// The owner an answer to instance `id`'s request goes to (`Engine.route`).
    static func owner(_ id: FlowID<Flow>) -> RequestOwner
}

extension FlowTable {
    var count: Int { flows.count }
    // A closure, not `\.request`: a key path over the generic `Flow` is built at run time on each
    // call, and the fuzzer reads every flow's footprint after every step.
    var outstanding: [PendingRequest] { flows.values.map { $0.request } }

    var load: (requests: Int, timers: Int) {
        var timers = 0
        for flow in flows.values where flow.request.deadline != nil { timers += 1 }
        return (flows.count, timers)
    }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        flows.first { match($0.value.request) }.map { (Self.owner($0.key), $0.value.request) }
    }

    mutating func rearm(_ id: RequestID, deadline: TimerID) {
        guard let flow = flows.first(where: { $0.value.request.id == id })?.key else { return }
        flows[flow]?.request = PendingRequest(id: id, deadline: deadline)
    }
}
