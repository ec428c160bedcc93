import PassModel
import PassXML

typealias PreauthorizationID = FlowID<PreauthorizationFlow>

/// One `checkPreauthorizedResources` waiting on its request.
struct PreauthorizationFlow: Hashable, Sendable {
    var resources: [String]
    var useCache: Bool
    /// The authN token it was asked for: decisions for another token are not cached.
    var sessionGUID: String
    fileprivate var request: PendingRequest
}

/// The preauthorizations in progress, each waiting on its one request.
struct PreauthorizationFlows: Sendable, RequestHolder {
    fileprivate var flows: [PreauthorizationID: PreauthorizationFlow] = [:]

    var count: Int { flows.count }
    var outstanding: [PendingRequest] { flows.values.map(\.request) }

    func claim(where match: (PendingRequest) -> Bool) -> (RequestOwner, PendingRequest)? {
        flows.first { match($0.value.request) }.map { (.preauthorization($0.key), $0.value.request) }
    }

    mutating func rearm(_ id: RequestID, deadline: TimerID) {
        guard let flow = flows.first(where: { $0.value.request.id == id })?.key else { return }
        flows[flow]?.request = PendingRequest(id: id, deadline: deadline)
    }
}

extension Engine {
    mutating func checkPreauthorizedResources(_ resources: [String], cache: Bool, at now: Instant) -> [EngineAction] {
        guard let token = store.validAuthnToken(at: now) else {
            return [.deliver(.preauthorizedResources([]))]
        }
        let unknown = cache ? resources.filter { store.preauthorizations[$0] == nil } : resources
        if unknown.isEmpty {
            return [.deliver(.preauthorizedResources(resources.filter { store.preauthorizations[$0] == true }))]
        }
        let id: PreauthorizationID = newFlowID()
        var fields: [(String, String)] = [
            ("authentication_token", AuthnTokenXML.build(token)), ("requestor_id", requestorID),
        ]
        var asked = Set<String>()
        for r in unknown where asked.insert(r).inserted { fields.append(("resource_id", r)) }
        let (request, actions) = send(.form(Route.preauthorize.url(spURL(forMVPD: token.mvpdID)), fields), at: now)
        preauthorizations.flows[id] = PreauthorizationFlow(
            resources: resources, useCache: cache, sessionGUID: token.guid, request: request)
        return actions
    }

    mutating func preauthorizationArrived(_ id: PreauthorizationID, _ result: HTTPResult, at now: Instant)
        -> [EngineAction]
    {
        guard let flow = preauthorizations.flows.removeValue(forKey: id) else {
            return []  // no such flow: nothing can be answered (the owner check makes this unreachable)
        }
        guard let held = store.validAuthnToken(at: now) else {
            // Answered after a logout (or the token's expiry): nothing, whatever the answer, so no
            // callback carries the decisions of a token the app no longer holds (BEHAVIOR.md,
            // Overlapping calls; invariant 6).
            return [.deliver(.preauthorizedResources([]))]
        }
        var fresh: [String: Bool] = [:]
        if case .response(let r) = result, r.status == 200, let decisions = r.decoded(orParse: PreauthorizeXML.parse) {
            for d in decisions { fresh[d.resourceID] = d.authorized }
            store.remember(decisions.map { ($0.resourceID, $0.authorized) }, forSession: flow.sessionGUID)
        }
        // A failed request answers only what the cache allowed (nothing when the cache was not used).
        // The cache is the asking token's only while that token is held: once the authN token has
        // changed, its decisions are another user's (invariant 6), and none of them is answered.
        let sameToken = held.guid == flow.sessionGUID
        let allowed = flow.resources.filter { r in
            fresh[r] ?? (flow.useCache && sameToken ? store.preauthorizations[r] == true : false)
        }
        // Throttled: P100 first, then what the cache allowed (BEHAVIOR.md, Throttling).
        return Engine.throttled(result, StatusCode.preauthorizationThrottled) + [
            .deliver(.preauthorizedResources(allowed))
        ]
    }
}
