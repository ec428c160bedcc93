import Entitlement
import PassModel
import PassXML

/// What the oracle believes the app holds, from what it saw: nothing after a logout or a new
/// provider, a token after a login, unknown once `setRequestor` may have adopted another app's.
enum TokenHolder: Hashable, Sendable {
    case none
    case unknown
    /// The MVPD of the token (from the tracking data) and its expiry (from the SP's answer), when seen.
    case token(mvpd: String, expires: Instant?)

    /// A failed login may have cleared a token (a pending logout at the SP): held, then unknown.
    var unknownIfHeld: TokenHolder { self == .none ? .none : .unknown }
}

extension CallbackOracle {
    // MARK: Tracking (BEHAVIOR.md, Tracking data)

    /// A flow's tracking comes right after its status, token or failure callback, with the fields
    /// of the table.
    mutating func expectTracking(after terminal: Callback, next: Callback?, at now: Instant) {
        let event: Int
        let count: Int
        switch terminal {
        case .setAuthenticationStatus: (event, count) = (Constants.trackingAuthentication, 7)
        default: (event, count) = (Constants.trackingAuthorization, 9)
        }
        guard case .sendTrackingData(event, let data)? = next else {
            violate(property: "tracking", "\(terminal) is not followed at once by its sendTrackingData(\(event), …): \(next.map(\.description) ?? "nothing")")
            return
        }
        guard data.count == count else {
            violate(property: "tracking", "tracking event \(event) has \(data.count) fields, not \(count)")
            return
        }
        if Array(data.suffix(3)) != context.trackingTail {
            violate(property: "tracking", "tracking \(data) does not end with device type, client type, OS \(context.trackingTail)")
        }
        let success: Bool
        switch terminal {
        case .setAuthenticationStatus(let status, _): success = status == Constants.statusSuccess
        case .setToken: success = true
        default: success = false
        }
        if data[0] != (success ? "true" : "false") {
            violate(property: "tracking", "tracking field 0 is \(data[0] ?? "nil") after \(terminal)")
        }
        if !success {
            if data[1] != nil || data[2] != nil || data[3] != nil {
                violate(property: "tracking", "a failure's tracking has fields 1–3 \(Array(data[1...3])), not nil")
            }
            if case .tokenRequestFailed(_, let code, let details) = terminal, data[4] != code || data[5] != details {
                violate(property: "tracking", "tracking error/details \(data[4] ?? "nil")/\(data[5] ?? "nil") do not copy \(terminal)")
            }
            return
        }
        guard let mvpd = data[1], context.mvpds.contains(mvpd), let guid = data[2], CallbackOracle.isGUIDHash(guid),
              data[3] == "true" || data[3] == "false" else {
            violate(property: "tracking", "a success's tracking \(data) lacks a known MVPD, an md5 GUID or a true/false field 3")
            return
        }
        if event == Constants.trackingAuthorization && (data[4] != nil || data[5] != nil) {
            violate(property: "tracking", "a success's tracking carries error/details \(Array(data[4...5]))")
        }
        if event == Constants.trackingAuthentication {
            authenticated(mvpd: mvpd, guid: guid, fresh: data[3] == "false", at: now)
        } else {
            authorizedWith(mvpd: mvpd, guid: guid)
        }
    }

    /// A tracking callback not consumed right after its terminal: only the selection's may stand alone.
    mutating func tracking(_ event: Int, _ data: [String?], previous: Callback?) {
        switch (event, previous) {
        case (Constants.trackingAuthentication, .setAuthenticationStatus?),
             (Constants.trackingAuthorization, .setToken?), (Constants.trackingAuthorization, .tokenRequestFailed?):
            return  // judged with its terminal
        case (Constants.trackingGetSelectedProvider, _):
            if data.count != 4 || data[0].map(context.mvpds.contains) != true || Array(data.suffix(3)) != context.trackingTail {
                violate(property: "tracking", "selection tracking \(data) is not [MVPD id, device type, client type, OS]")
            }
            // A different MVPD was stored: the tokens are cleared (BEHAVIOR.md, Authentication 3).
            authnTokenChanged(to: .none)
        default:
            violate(property: "tracking", "sendTrackingData(\(event), …) not right after its flow's terminal callback (after \(previous.map(\.description) ?? "nothing"))")
        }
    }

    static func isGUIDHash(_ s: String) -> Bool {
        s.utf8.count == 32 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: The authN token as observed

    /// A success's tracking names the token's MVPD and GUID; a fresh one is a new token.
    mutating func authenticated(mvpd: String, guid: String, fresh: Bool, at now: Instant) {
        pastGUIDs.insert(guid)
        if fresh {
            tempPassAuthenticated(mvpd, at: now)
            if holder == .unknown && lastGUID == nil {
                // Since a setRequestor the app may hold any token, this very one too (a TempPass is
                // issued again with its GUID): whether its authZ tokens went stays unknown.
                holder = .token(mvpd: mvpd, expires: nil)
            } else if lastGUID != guid {
                authnTokenChanged(to: .token(mvpd: mvpd, expires: nil))
            }
            lastGUID = guid
            return
        }
        switch holder {
        case .none:
            violate(6, "a success from the store (MVPD \(mvpd)) after the token was cleared by a logout or a new provider")
        case .unknown:
            holder = .token(mvpd: mvpd, expires: nil)
        case .token:
            break
        }
        if let last = lastGUID, last != guid {
            violate(property: "tracking", "the GUID changed from \(last) to \(guid) with no new authN token")
        }
        lastGUID = guid
    }

    /// An authorization's success names the authN token it used (whether it should have had one is `tokenDelivered`).
    mutating func authorizedWith(mvpd: String, guid: String) {
        if holder == .unknown { holder = .token(mvpd: mvpd, expires: nil) }
        if let last = lastGUID, last != guid, !pastGUIDs.contains(guid) {
            violate(property: "tracking", "authorization tracking's GUID \(guid) is neither the authN token's \(last) nor one it replaced")
        }
        if lastGUID == nil, holder != .none { lastGUID = guid }
        pastGUIDs.insert(guid)
    }

    /// The authN token changed: every authZ token is dropped with it (BEHAVIOR.md, Authorization).
    mutating func authnTokenChanged(to new: TokenHolder) {
        holder = new
        if new == .none { lastGUID = nil }
        // An authorization already out may still deliver its token.
        authorizedSinceChange = Set(authorizeInFlight.values)
    }

    /// The token a response made, when it delivers a fresh success: the SP may issue again a token
    /// the app logged out of (a TempPass still running), and that one may be sent again.
    mutating func issuedToken(_ result: HTTPResult, callbacks: [Callback]) -> AuthnToken? {
        guard callbacks.contains(where: { if case .sendTrackingData(Constants.trackingAuthentication, let d) = $0 { return d.count > 3 && d[3] == "false" } else { return false } }) else { return nil }
        guard case .response(let r) = result, r.status == 200, case .token(let token)? = (r.decoded as? SessionDeviceXML.Answer)?.content ?? (try? SessionDeviceXML.parse(r.body)) else {
            retiredTokens = []
            return nil
        }
        retiredTokens.remove(AuthnTokenXML.build(token))
        return token
    }

    /// Its expiry, for the TTL boundaries, once the tracking has named the new token's MVPD.
    mutating func tokenIssued(_ token: AuthnToken) {
        if case .token(let mvpd, nil) = holder, token.mvpdID == mvpd { holder = .token(mvpd: mvpd, expires: token.expires) }
    }

    /// `checkAuthentication`: valid until the token's expiry, gone from that instant (BEHAVIOR.md, Time).
    mutating func checkAnswered(_ status: Int, at now: Instant) {
        guard case .token(_, let expires?) = holder else {
            if holder == .none && status == Constants.statusSuccess {
                violate(6, "checkAuthentication answers 1 after the token was cleared by a logout or a new provider")
            }
            return
        }
        if now < expires && status != Constants.statusSuccess {
            violate(property: "ttl", "the authN token valid until \(expires) (\(expires - now) left) is reported gone at \(now)")
        } else if now >= expires && status == Constants.statusSuccess {
            violate(property: "ttl", "the authN token expired at \(expires) is reported valid at \(now)")
        }
    }

    /// `setToken(r)`: with a valid authN token (invariant 6) and an authZ token fetched since that
    /// authN token (every authZ token is dropped when it changes).
    mutating func tokenDelivered(_ r: String, at now: Instant) {
        switch holder {
        case .none:
            violate(6, "setToken for \"\(r)\" after the authN token was cleared by a logout or a new provider")
        case .token(_, let expires?) where now >= expires:
            violate(6, "setToken for \"\(r)\" at \(now), the authN token expired at \(expires)")
        default:
            break
        }
        if let since = authorizedSinceChange, !since.contains(r) {
            violate(property: "authz-dropped", "setToken for \"\(r)\" with no authorize request since the authN token changed: an authZ token outlived it")
        }
    }

    // MARK: Requests

    /// Only the requests that carry the authN token are decoded (the fuzzer's hot path).
    mutating func sent(_ id: RequestID, _ request: HTTPRequest) {
        let url = request.url
        let authorizes = url.hasSuffix("/authorizeDevice")
        guard authorizes || url.hasSuffix("/preauthorize") || url.hasSuffix("/deviceShortAuthorize") else { return }
        if url.hasSuffix("/preauthorize"), let serial = preauthorizationOfThisInput { preauthorizeInFlight[id] = serial }
        // An authorization that was out when the authN token changed may still deliver its token,
        // through its media-token request too.
        if url.hasSuffix("/deviceShortAuthorize"), let r = authorizationOfThisInput { authorizeInFlight[id] = r }
        let parameters = request.parameters
        if authorizes, let r = parameters.first(where: { $0.0 == "resource_id" })?.1 {
            authorizeInFlight[id] = r
            authorizedSinceChange?.insert(r)
        }
        guard let token = parameters.first(where: { $0.0 == "authentication_token" })?.1 else { return }
        if retiredTokens.contains(token) {
            violate(property: "logout-token", "\(request.method) \(url) after logout carries the authN token logout cleared")
        }
        tokensSent.insert(token)
    }

    // MARK: Preauthorization and user data (invariant 6)

    /// The resources the token's user may be told about: nil when any (TempPass, unknown user).
    var allowedResources: Set<String>? {
        switch holder {
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
    mutating func preauthorizationAnswered(_ answer: [String], input: OracleInput) {
        var matching = preauthorizations.indices.filter { AnswerLedger.isSubsequence(answer, of: preauthorizations[$0].asked) }
        if case .call(.checkPreauthorizedResources) = input { matching.reverse() }
        // An answer from a response is its request's; one given at once is the call's begun in this
        // input (called now, or drained from the queue just before it).
        if let serial = answeredPreauthorization ?? preauthorizationOfThisInput,
           let own = matching.firstIndex(where: { preauthorizations[$0].serial == serial }) {
            matching.insert(matching.remove(at: own), at: 0)
            if answeredPreauthorization != nil { answeredPreauthorization = nil } else { preauthorizationOfThisInput = nil }
        }
        guard let first = matching.first else {
            if !configured, queued.contains(where: { if case .checkPreauthorizedResources = $0 { return true } else { return false } }) {
                violate(5, "preauthorizedResources for a queued call before the engine was configured")
            }
            return
        }
        if let clean = matching.first(where: { i in preauthorizations[i].allowed.map { Set(answer).isSubset(of: $0) } ?? true }) {
            preauthorizations.remove(at: clean)
            return
        }
        let allowed = preauthorizations[first].allowed.map { $0.sorted() } ?? []
        violate(6, "preauthorizedResources(\(answer)) names resources the token's user is not allowed (allowed: \(allowed)): another user's data")
        preauthorizations.remove(at: first)
    }

    // MARK: Timers

    mutating func timerStarted(_ id: TimerID, at: Instant) {
        if timers[id] != nil { violate(property: "timers", "\(id) set again while it is still running") }
        timers[id] = at
    }

    mutating func timerCancelled(_ id: TimerID) {
        if timers.removeValue(forKey: id) == nil {
            violate(property: "timers", "cancels \(id), which is not running (never set, fired or cancelled already)")
        }
    }

    /// After faults healed and hours passed: every timer set has fired or been cancelled.
    mutating func quiescent() {
        if !timers.isEmpty {
            let ids = timers.sorted { $0.key < $1.key }.map { "\($0.key) due \($0.value)" }
            violate(property: "timers", "\(timers.count) timer(s) neither fired nor cancelled: \(ids.joined(separator: ", "))")
            timers = [:]
        }
    }

    // MARK: TempPass

    /// A TempPass used up on this device never authenticates again.
    mutating func tempPassAuthenticated(_ mvpd: String, at now: Instant) {
        guard let ttl = context.tempPassTTL[mvpd] else { return }
        guard let first = tempPassFirstUse[mvpd] else {
            tempPassFirstUse[mvpd] = now
            return
        }
        if now >= first + ttl {
            violate(property: "temppass", "TempPass \(mvpd), first used at \(first) for \(ttl), authenticates again at \(now)")
        }
    }
}
