import Entitlement
import MockPass
import PassModel
import PassXML

/// The authN token as the flow model follows it, the requests that carry it, and preauthorization
/// (invariant 6): what the properties read is `token`; what they judge, they are told (`observed`).
extension CallbackOracle {
    // MARK: The authN token as observed

    /// A success's tracking names the token's MVPD and GUID; a fresh one is a new token.
    mutating func authenticated(mvpd: String, guid: String, fresh: Bool) {
        token.pastGUIDs.insert(guid)
        if fresh {
            observed(.authenticated(mvpd: mvpd, guid: guid, fresh: true))
            if token.holder == .unknown && token.lastGUID == nil {
                if context.platform == .ios { token.unseenReplaced = true }
                // Since a setRequestor the app may hold any token, this very one too (a TempPass is
                // issued again with its GUID): whether its authZ tokens went stays unknown.
                token.holder = .token(mvpd: mvpd, expires: nil)
            } else if token.lastGUID != guid {
                authnTokenChanged(to: .token(mvpd: mvpd, expires: nil))
            }
            token.lastGUID = guid
            return
        }
        switch token.holder {
        case .none:
            violate(
                6, "a success from the store (MVPD \(mvpd)) after the token was cleared by a logout or a new provider")
        case .unknown:
            token.holder = .token(mvpd: mvpd, expires: nil)
        case .token:
            break
        }
        observed(.authenticated(mvpd: mvpd, guid: guid, fresh: false))
        token.lastGUID = guid
    }

    /// An authorization's success names the authN token it used (whether it should have had one is `tokenDelivered`).
    /// After a `setRequestor` the token held is unknown; an authorization naming a token this app
    /// saw before may have been asked before it, bound to that token (BEHAVIOR.md, Overlapping
    /// calls), so it says nothing of the token held now: only a GUID never seen is adopted.
    mutating func authorizedWith(mvpd: String, guid: String) {
        let seen = token.pastGUIDs.contains(guid)
        if token.holder == .unknown && !seen { token.holder = .token(mvpd: mvpd, expires: nil) }
        observed(.authorizedWith(mvpd: mvpd, guid: guid))
        if token.lastGUID == nil, token.holder != .none, !seen { token.lastGUID = guid }
        token.pastGUIDs.insert(guid)
    }

    /// The authN token changed: every authZ token is dropped with it (BEHAVIOR.md, Authorization).
    mutating func authnTokenChanged(to new: TokenHolder) {
        if context.platform == .ios, token.holder == .unknown, token.lastGUID == nil, new != .unknown {
            token.unseenReplaced = true
        }
        token.holder = new
        if new == .none { token.lastGUID = nil }
        // An authorization already out may still deliver its token.
        observed(.authnTokenChanged(outstanding: Set(flows.authorizeInFlight.values)))
    }

    /// The token a response made, when it delivers a fresh success: the SP may issue again a token
    /// the app logged out of (a TempPass still running), and that one may be sent again.
    mutating func issuedToken(_ result: HTTPResult) -> AuthnToken? {
        let fresh = input.callbacks.contains {
            if case .sendTrackingData(Constants.trackingAuthentication, let d) = $0 {
                return d.count > 3 && d[3] == "false"
            }
            return false
        }
        guard fresh else { return nil }
        guard case .response(let r) = result, r.status == 200,
            case .token(let token)? = (r.decoded as? SessionDeviceXML.Answer)?.content
                ?? (try? SessionDeviceXML.parse(r.body))
        else {
            observed(.tokenIssued(nil))
            return nil
        }
        observed(.tokenIssued(token))
        return token
    }

    /// `setToken(r)`: with a valid authN token (invariant 6); whether its authZ token outlived a
    /// change is `authz-dropped`'s.
    mutating func tokenDelivered(_ r: String) {
        switch token.holder {
        case .none:
            violate(6, "setToken for \"\(r)\" after the authN token was cleared by a logout or a new provider")
        case .token(_, let expires?) where now >= expires:
            violate(6, "setToken for \"\(r)\" at \(now), the authN token expired at \(expires)")
        case .token, .unknown:
            break
        }
        observed(.tokenDelivered(resource: r))
    }

    // MARK: Requests

    /// A request goes out: the drained call it starts, the flow it continues.
    mutating func sent(_ id: RequestID, _ request: HTTPRequest) {
        let classified = OracleRequest(request)
        if !input.draining.isEmpty { drain(untilSending: classified.kind) }
        switch classified.kind {
        case .preauthorize:
            if let serial = input.preauthorization { preauthorizations.inFlight[id] = serial }
        case .mediaToken:
            // An authorization that was out when the authN token changed may still deliver its token,
            // through its media-token request too.
            if let r = input.authorization { flows.authorizeInFlight[id] = r }
        case .authorize(let r?):
            flows.authorizeInFlight[id] = r
            observed(.authorizeSent(resource: r))
        case .authorize(nil), .tempPassLogin, .registration, .other:
            break
        }
        if let token = classified.authnToken {
            observed(.sent(request, authnToken: token, askedBeforeLogout: askedBeforeLogout(classified.kind)))
        }
    }

    /// A request sent in a later input than its call's (a response's: the access token it waited
    /// for, the renewal after a 401) for a flow open at the last `logout`.
    private func askedBeforeLogout(_ request: OracleRequest.Kind) -> Bool {
        if input.call != nil { return false }
        let open = flows.openAtLogout
        switch request {
        case .preauthorize:
            return preauthorizations.open.contains { $0.serial <= open.preauthorizationSerial }
        case .authorize(let r?):
            return open.authorizations.contains(r)
        case .mediaToken:
            return input.authorization.map(open.authorizations.contains) ?? false
        case .authorize(nil), .tempPassLogin, .registration, .other:
            return false
        }
    }

    // MARK: Preauthorization and user data (invariant 6)

    /// The resources the token's user may be told about: nil when any (TempPass, unknown user).
    var allowedResources: Set<String>? {
        switch token.holder {
        case .none: return []
        case .unknown: return nil
        case .token(let mvpd, _):
            if context.tempPasses.contains(mvpd) { return nil }
            guard let users = context.users[mvpd], !users.isEmpty else { return nil }
            return Set(users.flatMap(\.allow))
        }
    }

    /// An answer belongs to a request it is a subsequence of; it may name only what the request's
    /// user is allowed. Whether some request matches at all is invariant 4 (`AnswerLedger`).
    /// One answered at once answers the call begun in its input (called then, or drained from the
    /// queue: an earlier drained one may still be out); one from a response, the request that
    /// response answers (answers need not come in request order: a failed request's empty answer may
    /// overtake an earlier one); else the earliest it fits.
    mutating func preauthorizationAnswered(_ answer: [String]) {
        let open = preauthorizations.open
        var matching = open.indices.filter { AnswerLedger.isSubsequence(answer, of: open[$0].asked) }
        if input.call == .preauthorization { matching.reverse() }
        if let serial = input.answeredPreauthorization ?? input.preauthorization,
            let own = matching.firstIndex(where: { open[$0].serial == serial })
        {
            matching.insert(matching.remove(at: own), at: 0)
            if input.answeredPreauthorization != nil {
                input.answeredPreauthorization = nil
            } else {
                input.preauthorization = nil
            }
        }
        guard let first = matching.first else {
            if startup.hasQueued({ if case .preauthorize = $0 { true } else { false } }) {
                violate(5, "preauthorizedResources for a queued call before the engine was configured")
            }
            return
        }
        if let clean = matching.first(where: { i in open[i].allowed.map { Set(answer).isSubset(of: $0) } ?? true }) {
            preauthorizations.open.remove(at: clean)
            return
        }
        let allowed = open[first].allowed.map { $0.sorted() } ?? []
        violate(
            6,
            "preauthorizedResources(\(answer)) names resources the token's user is not allowed (allowed: \(allowed)): another user's data"
        )
        preauthorizations.open.remove(at: first)
    }
}
