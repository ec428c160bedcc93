import PassModel
import PassXML

typealias AuthorizationID = FlowID<AuthorizationFlow>

/// One `checkAuthorization`/`getAuthorization` past authentication: the authorize request (unless a
/// cached authZ token serves), then the short media token. A flow asking for its media token holds
/// the authZ token it asks with, and where that came from; one still authorizing holds neither.
struct AuthorizationFlow: Hashable, Sendable, OneRequestFlow {
    var resource: String
    var data: Value?
    /// The authN token it was asked with: its tracking names it, and what it brings is cached only
    /// while that token is still the one held (BEHAVIOR.md, Overlapping calls).
    var asked: AuthnToken
    /// The requestor it was asked under: its media token request names it even when a
    /// `setRequestor` is under way by then (docs/CONFORMANCE.md, choice 81).
    var requestorID: String
    fileprivate var state: State

    /// Where the authZ token came from (tracking's "cached").
    fileprivate enum Source: Hashable, Sendable {
        case cache
        case sp
    }

    fileprivate enum State: Hashable, Sendable {
        /// The authorize request is out.
        case authorizing(PendingRequest)
        /// The media token request is out, with the authZ token it asks with.
        case fetchingMediaToken(MediaTokenRequest)
    }

    fileprivate struct MediaTokenRequest: Hashable, Sendable {
        var authz: AuthzToken
        var source: Source
        var request: PendingRequest
    }

    /// The one request out, whichever it is (a new deadline replaces it when it is sent again).
    var request: PendingRequest {
        get {
            switch state {
            case .authorizing(let r): return r
            case .fetchingMediaToken(let m): return m.request
            }
        }
        set {
            switch state {
            case .authorizing: state = .authorizing(newValue)
            case .fetchingMediaToken(var m):
                m.request = newValue
                state = .fetchingMediaToken(m)
            }
        }
    }
}

/// The authorizations in progress, each waiting on its one request.
struct AuthorizationFlows: Sendable, FlowTable {
    var flows: [AuthorizationID: AuthorizationFlow] = [:]

    static func owner(_ id: AuthorizationID) -> RequestOwner { .authorization(id) }

    // MARK: Transitions

    /// authZ with a valid authN token: the authorize request, or the media token at once when a
    /// cached authZ token serves.
    mutating func authorize(_ resource: String, data: Value?, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        let id: AuthorizationID = core.newFlowID()
        guard let token = core.store.authnToken else {
            return core.authorizationFailed(resource, Constants.userNotAuthenticatedError, "")
        }
        if core.isRESTv2 {
            // REST API v2: a decision every time, the media token inside it (rest-api-v2.md 1.7:
            // "always authorize before playback"); v2 carries no generic data.
            let request = core.v2Request(
                .authorize(serviceProvider: core.requestorID, mvpd: token.mvpdID),
                sp: core.spURL(forMVPD: token.mvpdID),
                json: .dict([Value.Entry("resources", .list([.string(resource)]))]),
                headers: core.v2TempPassHeaders)
            let (pending, actions) = core.send(request, at: now)
            flows[id] = AuthorizationFlow(
                resource: resource, data: data, asked: token, requestorID: core.requestorID,
                state: .authorizing(pending))
            return actions
        }
        if let cached = core.store.validAuthzToken(for: resource, at: now) {
            return requestMediaToken(
                id, resource, data, token, core.requestorID, cached, .cache, &core, at: now)
        }
        var fields: [(String, String)] = [
            ("resource_id", resource), ("requestor_id", core.requestorID), ("mso_id", token.mvpdID),
            ("device_id", core.configuration.deviceID), ("userMeta", "1"),
            ("authentication_token", AuthnTokenXML.build(token)),
        ]
        if let data { fields.append(("generic_data", data.jsonText)) }
        let (request, actions) = core.send(
            .form(Route.authorizeDevice.url(core.spURL(forMVPD: token.mvpdID)), fields), at: now)
        flows[id] = AuthorizationFlow(
            resource: resource, data: data, asked: token, requestorID: core.requestorID, state: .authorizing(request))
        return actions
    }

    private mutating func requestMediaToken(
        _ id: AuthorizationID, _ resource: String, _ data: Value?, _ asked: AuthnToken, _ requestorID: String,
        _ authz: AuthzToken, _ source: AuthorizationFlow.Source, _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        let fields: [(String, String)] = [
            ("session_guid", authz.sessionGUID), ("hashed_guid", "false"), ("authz_token", AuthzTokenXML.build(authz)),
            ("requestor_id", requestorID), ("mso_id", authz.mvpdID), ("device_id", core.configuration.deviceID),
        ]
        let (request, actions) = core.send(
            .form(Route.deviceShortAuthorize.url(core.spURL(forMVPD: authz.mvpdID)), fields), at: now)
        flows[id] = AuthorizationFlow(
            resource: resource, data: data, asked: asked, requestorID: requestorID,
            state: .fetchingMediaToken(.init(authz: authz, source: source, request: request)))
        return actions
    }

    /// An answer to the flow's request (`claim` found it): which one the state says.
    mutating func answered(_ id: AuthorizationID, _ result: HTTPResult, _ core: inout EngineCore, at now: Instant)
        -> [EngineAction]
    {
        guard let flow = flows.removeValue(forKey: id) else {
            return []  // no such flow: nothing can be answered (the owner check makes this unreachable)
        }
        guard let held = core.store.validAuthnToken(at: now) else {
            // Answered after a logout (or the token's expiry): no valid authN token at all, so no
            // callback may carry the data of a token the app no longer holds (BEHAVIOR.md,
            // Overlapping calls; invariant 6), whatever the answer.
            return core.authorizationFailed(flow.resource, Constants.userNotAuthenticatedError, "")
        }
        switch flow.state {
        case .authorizing where core.isRESTv2:
            return Self.decisionArrived(flow, held, result, &core)
        case .authorizing:
            return authorizeArrived(id, flow, held, result, &core, at: now)
        case .fetchingMediaToken(let m):
            return mediaTokenArrived(flow, m.source, result, core, at: now)
        }
    }

    private mutating func authorizeArrived(
        _ id: AuthorizationID, _ flow: AuthorizationFlow, _ held: AuthnToken, _ result: HTTPResult,
        _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        if case .response(let r) = result, let content = r.decoded(orParse: AuthorizeDeviceXML.parse) {
            switch content {
            case .token(let token) where r.status == 200 && token.expires > now:
                // Cached only for the token it was asked with; after a change nothing it brings is kept.
                if held.guid == flow.asked.guid { core.store.store(token) }
                return requestMediaToken(
                    id, flow.resource, flow.data, flow.asked, flow.requestorID, token, .sp, &core, at: now)
            case .error(let body) where r.status == 403 || r.status == 401:
                // The MVPD said no: its message, `""` when none.
                return core.authorizationFailed(flow.resource, Constants.userNotAuthorizedError, body.details)
            default:
                break
            }
        }
        return Engine.throttled(result, StatusCode.authorizationThrottled)
            + core.authorizationFailed(flow.resource, Constants.genericAuthorizationError, Engine.describe(result))
    }

    /// REST API v2: the decision for the resource, with its media token, ends the authorization as
    /// the SDK wire's media token does; a denial carries the MVPD's details. The decision's expiry is
    /// kept as the authZ token's for `getMetadata` (only for the token it was asked with).
    private static func decisionArrived(
        _ flow: AuthorizationFlow, _ held: AuthnToken, _ result: HTTPResult, _ core: inout EngineCore
    ) -> [EngineAction] {
        if let decision = V2Answer.decisions(result)?.first(where: { $0.resource == flow.resource }) {
            if decision.authorized, let media = decision.mediaToken, !media.isEmpty {
                if held.guid == flow.asked.guid, let expires = decision.notAfter {
                    core.store.store(
                        AuthzToken(
                            sessionGUID: flow.asked.guid, requestorID: core.requestorID, resourceID: flow.resource,
                            mvpdID: flow.asked.mvpdID, deviceID: core.configuration.deviceID, expires: expires))
                }
                return [
                    .deliver(.setToken(token: media, resource: flow.resource)),
                    .deliver(
                        core.tracking.authorizationSuccess(
                            mvpdID: flow.asked.mvpdID, sessionGUID: flow.asked.guid, cached: false)),
                ]
            }
            if !decision.authorized {
                return core.authorizationFailed(flow.resource, Constants.userNotAuthorizedError, decision.details)
            }
        }
        return Engine.throttled(result, StatusCode.authorizationThrottled)
            + core.authorizationFailed(flow.resource, Constants.genericAuthorizationError, Engine.describe(result))
    }

    private func mediaTokenArrived(
        _ flow: AuthorizationFlow, _ source: AuthorizationFlow.Source, _ result: HTTPResult,
        _ core: EngineCore, at now: Instant
    ) -> [EngineAction] {
        if case .response(let r) = result, r.status == 200, !r.body.isEmpty {
            // The short media token is handed over as the SP sent it, and never cached; the tracking
            // names the authN token the authorization was asked with, even when another is held now.
            return [
                .deliver(.setToken(token: r.bodyText, resource: flow.resource)),
                .deliver(
                    core.tracking.authorizationSuccess(
                        mvpdID: flow.asked.mvpdID, sessionGUID: flow.asked.guid,
                        cached: source == .cache)),
            ]
        }
        if case .response(let r) = result, r.status == 403, let body = r.decoded(orParse: ErrorXML.parse) {
            return core.authorizationFailed(flow.resource, Constants.userNotAuthorizedError, body.details)
        }
        return Engine.throttled(result, StatusCode.authorizationThrottled)
            + core.authorizationFailed(flow.resource, Constants.genericAuthorizationError, Engine.describe(result))
    }
}

extension Engine {
    /// A request answered 429 (Adobe's throttling): `status(code)` before the callback that ends
    /// the call (BEHAVIOR.md, Throttling). The engine never retries it.
    static func throttled(_ result: HTTPResult, _ code: String) -> [EngineAction] {
        guard case .response(let r) = result, r.status == 429 else { return [] }
        return [.deliver(.status(code: code, message: nil))]
    }

    static func isThrottlingStatus(_ action: EngineAction) -> Bool {
        guard case .deliver(.status(let code, _)) = action else { return false }
        return [
            StatusCode.configurationThrottled, StatusCode.authorizationThrottled, StatusCode.preauthorizationThrottled,
        ].contains(code)
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

extension EngineCore {
    /// An authorization ends: `tokenRequestFailed`, then its tracking with the same code and details.
    func authorizationFailed(_ resource: String, _ code: String, _ details: String) -> [EngineAction] {
        [
            .deliver(.tokenRequestFailed(resource: resource, errorCode: code, details: details)),
            .deliver(tracking.authorizationFailure(code: code, details: details)),
        ]
    }
}
