import PassModel
import PassXML

/// One `checkPreauthorizedResources` waiting on its request.
struct PreauthorizationFlow: Hashable, Sendable {
    var resources: [String]
    var useCache: Bool
    /// The authN token it was asked for: decisions for another token are not cached.
    var sessionGUID: String
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
        nextFlow += 1
        preauthorizations[nextFlow] = PreauthorizationFlow(resources: resources, useCache: cache, sessionGUID: token.guid)
        var fields: [(String, String)] = [("authentication_token", AuthnTokenXML.build(token)), ("requestor_id", requestorID)]
        var asked = Set<String>()
        for r in unknown where asked.insert(r).inserted { fields.append(("resource_id", r)) }
        return send(.form(spURL(forMVPD: token.mvpdID) + "/preauthorize", fields), for: .preauthorize(nextFlow), at: now).1
    }

    mutating func preauthorizationArrived(_ id: Int, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        guard let flow = preauthorizations.removeValue(forKey: id) else { return [] }
        var fresh: [String: Bool] = [:]
        if case .response(let r) = result, r.status == 200, let decisions = try? PreauthorizeXML.parse(r.body) {
            for d in decisions { fresh[d.resourceID] = d.authorized }
            store.remember(decisions.map { ($0.resourceID, $0.authorized) }, forSession: flow.sessionGUID)
        }
        // A failed request answers only what the cache allowed (nothing when the cache was not used).
        let allowed = flow.resources.filter { r in
            fresh[r] ?? (flow.useCache ? store.preauthorizations[r] == true : false)
        }
        return [.deliver(.preauthorizedResources(allowed))]
    }
}
