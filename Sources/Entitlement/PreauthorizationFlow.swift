import PassModel
import PassXML

typealias PreauthorizationID = FlowID<PreauthorizationFlow>

/// One `checkPreauthorizedResources` waiting on its request.
struct PreauthorizationFlow: Hashable, Sendable, OneRequestFlow {
    var resources: [String]
    var useCache: Bool
    /// The authN token it was asked for: decisions for another token are not cached.
    var sessionGUID: String
    var request: PendingRequest
}

/// The preauthorizations in progress, each waiting on its one request.
struct PreauthorizationFlows: Sendable, FlowTable {
    var flows: [PreauthorizationID: PreauthorizationFlow] = [:]

    static func owner(_ id: PreauthorizationID) -> RequestOwner { .preauthorization(id) }

    // MARK: Transitions

    /// `checkPreauthorizedResources`: answered from the cache when it may and it knows every
    /// resource, else one request for the unknown ones (each named once).
    mutating func start(_ resources: [String], cache: Bool, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        guard let token = core.store.validAuthnToken(at: now) else {
            return [.deliver(.preauthorizedResources([]))]
        }
        let unknown = cache ? resources.filter { core.store.preauthorizations[$0] == nil } : resources
        if unknown.isEmpty {
            return [.deliver(.preauthorizedResources(resources.filter { core.store.preauthorizations[$0] == true }))]
        }
        let id: PreauthorizationID = core.newFlowID()
        var asked = Set<String>()
        let once = unknown.filter { asked.insert($0).inserted }
        let (request, actions) = core.send(
            core.dialect.preauthorizeRequest(resources: once, token: token, core), at: now)
        flows[id] = PreauthorizationFlow(
            resources: resources, useCache: cache, sessionGUID: token.guid, request: request)
        return actions
    }

    /// The flow's request answered (`claim` found it).
    mutating func answered(_ id: PreauthorizationID, _ result: HTTPResult, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        guard let flow = flows.removeValue(forKey: id) else {
            return []  // no such flow: nothing can be answered (the owner check makes this unreachable)
        }
        guard let held = core.store.validAuthnToken(at: now) else {
            // Answered after a logout (or the token's expiry): nothing, whatever the answer, so no
            // callback carries the decisions of a token the app no longer holds (BEHAVIOR.md,
            // Overlapping calls; invariant 6).
            return [.deliver(.preauthorizedResources([]))]
        }
        var fresh: [String: Bool] = [:]
        if let decisions = core.dialect.decisions(in: result) {
            for (resource, authorized) in decisions { fresh[resource] = authorized }
            core.store.remember(decisions, forSession: flow.sessionGUID)
        }
        // A failed request answers only what the cache allowed (nothing when the cache was not used).
        // The cache is the asking token's only while that token is held: once the authN token has
        // changed, its decisions are another user's (invariant 6), and none of them is answered.
        let sameToken = held.guid == flow.sessionGUID
        let store = core.store
        let allowed = flow.resources.filter { r in
            fresh[r] ?? (flow.useCache && sameToken ? store.preauthorizations[r] == true : false)
        }
        // Throttled: P100 first, then what the cache allowed (BEHAVIOR.md, Throttling).
        return Engine.throttled(result, StatusCode.preauthorizationThrottled) + [
            .deliver(.preauthorizedResources(allowed))
        ]
    }
}
