import PassModel
import PassXML

typealias AuthorizationID = FlowID<AuthorizationFlow>

/// One `checkAuthorization`/`getAuthorization` past authentication: the authorize request (unless a
/// cached authZ token serves), then the short media token, unless the decision carries it (REST API
/// v2). A flow asking for its media token holds the authZ token it asks with, and where that came
/// from; one still authorizing holds neither.
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
        if let cached = core.dialect.servingAuthorization(for: resource, &core, at: now) {
            return requestMediaToken(
                id, resource, data, token, core.requestorID, cached, .cache, &core, at: now)
        }
        let wire = core.dialect.authorizeRequest(resource: resource, data: data, token: token, core)
        let (request, actions) = core.send(wire, at: now)
        flows[id] = AuthorizationFlow(
            resource: resource, data: data, asked: token, requestorID: core.requestorID, state: .authorizing(request))
        return actions
    }

    private mutating func requestMediaToken(
        _ id: AuthorizationID, _ resource: String, _ data: Value?, _ asked: AuthnToken, _ requestorID: String,
        _ authz: AuthzToken, _ source: AuthorizationFlow.Source, _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        let (request, actions) = core.send(
            core.dialect.mediaTokenRequest(authz, requestorID: requestorID, core), at: now)
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
        case .authorizing:
            return authorizeArrived(id, flow, held, result, &core, at: now)
        case .fetchingMediaToken(let m):
            return mediaTokenArrived(flow, m.source, result, core, at: now)
        }
    }

    /// The authorize request answered: an authZ token (its media token is asked for next), a decision
    /// with its media token, which ends the authorization, or a denial with the MVPD's details.
    private mutating func authorizeArrived(
        _ id: AuthorizationID, _ flow: AuthorizationFlow, _ held: AuthnToken, _ result: HTTPResult,
        _ core: inout EngineCore, at now: Instant
    ) -> [EngineAction] {
        switch core.dialect.authorizeAnswer(result, resource: flow.resource, asked: flow.asked, core, at: now) {
        case .permitted(let token):
            // Cached only for the token it was asked with; after a change nothing it brings is kept.
            if held.guid == flow.asked.guid { core.store.store(token) }
            return requestMediaToken(
                id, flow.resource, flow.data, flow.asked, flow.requestorID, token, .sp, &core, at: now)
        case .granted(let media, let authorization):
            // The decision's authZ token is kept for `getMetadata`, for the token it was asked with only.
            if held.guid == flow.asked.guid, let authorization { core.store.store(authorization) }
            return Self.granted(media, flow, cached: false, core)
        case .denied(let details):
            return core.authorizationFailed(flow.resource, Constants.userNotAuthorizedError, details)
        case .unusable:
            return Self.unusable(flow, result, core)
        }
    }

    private func mediaTokenArrived(
        _ flow: AuthorizationFlow, _ source: AuthorizationFlow.Source, _ result: HTTPResult,
        _ core: EngineCore, at now: Instant
    ) -> [EngineAction] {
        switch core.dialect.mediaTokenAnswer(result) {
        case .granted(let media):
            return Self.granted(media, flow, cached: source == .cache, core)
        case .denied(let details):
            return core.authorizationFailed(flow.resource, Constants.userNotAuthorizedError, details)
        case .unusable:
            return Self.unusable(flow, result, core)
        }
    }

    /// The media token is handed over as the SP sent it, and never cached; the tracking names the
    /// authN token the authorization was asked with, even when another is held now.
    private static func granted(_ media: String, _ flow: AuthorizationFlow, cached: Bool, _ core: EngineCore)
        -> [EngineAction]
    {
        [
            .deliver(.setToken(token: media, resource: flow.resource)),
            .deliver(
                core.tracking.authorizationSuccess(
                    mvpdID: flow.asked.mvpdID, sessionGUID: flow.asked.guid, cached: cached)),
        ]
    }

    private static func unusable(_ flow: AuthorizationFlow, _ result: HTTPResult, _ core: EngineCore) -> [EngineAction]
    {
        Engine.throttled(result, StatusCode.authorizationThrottled)
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
