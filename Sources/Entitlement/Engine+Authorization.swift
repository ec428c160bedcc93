import PassModel
import PassXML

/// One `checkAuthorization`/`getAuthorization` past authentication: the authorize request (unless a
/// cached authZ token serves), then the short media token.
struct AuthorizationFlow: Hashable, Sendable {
    var resource: String
    var data: Value?
    /// The authZ token came from the store (tracking's "cached").
    var cached = false
    var authzToken: AuthzToken?
}

extension Engine {
    mutating func checkAuthorization(_ resource: String, data: Value?, at now: Instant) -> [EngineAction] {
        guard store.validAuthnToken(at: now) != nil else {
            // Other SDKs: no setAuthenticationStatus, only the failure and its tracking.
            return authorizationFailed(resource, Constants.userNotAuthenticatedError, "")
        }
        return authorize(resource, data: data, at: now)
    }

    mutating func getAuthorization(_ resource: String, data: Value?, at now: Instant) -> [EngineAction] {
        if store.validAuthnToken(at: now) != nil {
            // It supersedes a running login all the same (BEHAVIOR.md, Overlapping calls): a forced one.
            return abandonLogin() + authorize(resource, data: data, at: now)
        }
        // Authenticate first; authZ continues after the status and its tracking (invariant 3).
        return startLogin(forceAuthn: false, data: nil, filter: nil,
                          authorization: PendingAuthorization(resource: resource, data: data), at: now)
    }

    /// authZ with a valid authN token.
    mutating func authorize(_ resource: String, data: Value?, at now: Instant) -> [EngineAction] {
        nextFlow += 1
        let id = nextFlow
        var flow = AuthorizationFlow(resource: resource, data: data)
        if let cached = store.validAuthzToken(for: resource, at: now) {
            flow.cached = true
            flow.authzToken = cached
            authorizations[id] = flow
            return requestMediaToken(id, at: now)
        }
        guard let token = store.authnToken else { return authorizationFailed(resource, Constants.userNotAuthenticatedError, "") }
        authorizations[id] = flow
        var fields: [(String, String)] = [
            ("resource_id", resource), ("requestor_id", requestorID), ("mso_id", token.mvpdID),
            ("device_id", configuration.deviceID), ("userMeta", "1"), ("authentication_token", AuthnTokenXML.build(token)),
        ]
        if let data { fields.append(("generic_data", data.jsonText)) }
        return send(.form(spURL(forMVPD: token.mvpdID) + "/authorizeDevice", fields), for: .authorize(id), at: now).1
    }

    private mutating func requestMediaToken(_ id: Int, at now: Instant) -> [EngineAction] {
        guard let flow = authorizations[id], let authz = flow.authzToken else { return [] }
        let fields: [(String, String)] = [
            ("session_guid", authz.sessionGUID), ("hashed_guid", "false"), ("authz_token", AuthzTokenXML.build(authz)),
            ("requestor_id", requestorID), ("mso_id", authz.mvpdID), ("device_id", configuration.deviceID),
        ]
        return send(.form(spURL(forMVPD: authz.mvpdID) + "/deviceShortAuthorize", fields), for: .mediaToken(id), at: now).1
    }

    mutating func authorizeArrived(_ id: Int, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        guard var flow = authorizations[id] else { return [] }
        if case .response(let r) = result, let content = try? AuthorizeDeviceXML.parse(r.body) {
            switch content {
            case .token(let token) where r.status == 200 && token.expires > now:
                store.store(token)
                flow.authzToken = token
                authorizations[id] = flow
                return requestMediaToken(id, at: now)
            case .error(let body) where r.status == 403 || r.status == 401:
                // The MVPD said no: its message, `""` when none.
                authorizations[id] = nil
                return authorizationFailed(flow.resource, Constants.userNotAuthorizedError, body.details)
            default:
                break
            }
        }
        authorizations[id] = nil
        return authorizationFailed(flow.resource, Constants.genericAuthorizationError, Engine.describe(result))
    }

    mutating func mediaTokenArrived(_ id: Int, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        guard let flow = authorizations.removeValue(forKey: id) else { return [] }
        if case .response(let r) = result, r.status == 200, !r.body.isEmpty, let token = store.validAuthnToken(at: now) {
            // The short media token is handed over as the SP sent it, and never cached.
            return [.deliver(.setToken(token: r.bodyText, resource: flow.resource)),
                    .deliver(tracking.authorizationSuccess(mvpdID: token.mvpdID, sessionGUID: token.guid, cached: flow.cached))]
        }
        if case .response(let r) = result, r.status == 403, let body = try? ErrorXML.parse(r.body) {
            return authorizationFailed(flow.resource, Constants.userNotAuthorizedError, body.details)
        }
        return authorizationFailed(flow.resource, Constants.genericAuthorizationError, Engine.describe(result))
    }

    func authorizationFailed(_ resource: String, _ code: String, _ details: String) -> [EngineAction] {
        [.deliver(.tokenRequestFailed(resource: resource, errorCode: code, details: details)),
         .deliver(tracking.authorizationFailure(code: code, details: details))]
    }

    /// The description of a failure that carries no MVPD message (choice, docs/CONFORMANCE.md).
    static func describe(_ result: HTTPResult) -> String {
        switch result {
        case .response(let r): return "HTTP \(r.status)"
        case .failure(let why): return why
        case .timeout: return "timed out"
        }
    }
}
