import PassModel

/// SDK 3.x registration and SDK 2.x tvOS signatures (BEHAVIOR.md "Client registration and request
/// signing"): every request of a flow passes through `transmit`, which sends it at once, or holds it
/// until its origin has an access token.
extension EngineCore {
    /// The origin a URL belongs to: registration lives at the host's root, whatever the SP's path.
    static func origin(of url: String) -> String? {
        guard let parts = URLParts(url), !parts.authority.isEmpty else { return nil }
        return parts.scheme + "://" + parts.authority.lowercased()
    }

    /// Sends `held` now, or once its origin has a live access token (registering there first).
    mutating func transmit(_ held: HeldRequest, at now: Instant) -> [EngineAction] {
        // The deprecated init (no statement) registers nothing and sends no Authorization.
        guard let statement = softwareStatement, let origin = EngineCore.origin(of: held.request.url) else {
            return [dispatch(held, token: nil, origin: nil, at: now)]
        }
        switch registration.origins[origin] {
        case nil:
            let body = Value.dict([
                Value.Entry("software_statement", .string(statement)),
                Value.Entry("redirect_uri", .string(Constants.adobePassRedirectURL)),
            ]).jsonText
            let register = HTTPRequest(
                method: Route.clientRegister.method, url: Route.clientRegister.url(origin),
                headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            let (request, actions) = sendUnheld(register, at: now)
            registration.origins[origin] = .registering(request, waiting: [held])
            return actions
        case .registered(let client, let grant)?:
            // A token the engine's clock knows expired is renewed before the request goes.
            if grant.isExpired(at: now) {
                return requestToken(client, at: origin, renewal: true, waiting: [held], at: now)
            }
            return [dispatch(held, token: grant.token, origin: origin, at: now)]
        case let state?:
            registration.origins[origin] = state.holding(held)
            return []
        }
    }

    /// The request as it goes on the wire: signed (tvOS key pair), or with its Bearer token, or both
    /// (the signature takes `Authorization`, so the token goes as an `access_token` parameter, as
    /// EPlusTV's regcode call sends it; docs/CONFORMANCE.md).
    mutating func dispatch(_ held: HeldRequest, token: String?, origin: String?, at now: Instant) -> EngineAction {
        var r = held.request
        if held.signed, let signer {
            signedRequests += 1
            r.headers.add(
                "Authorization", signer.authorization(for: r, requestorID: requestorID, count: signedRequests, at: now))
            if let token {
                // A byte search: `contains` with a string argument is Foundation's, and slow.
                r.url +=
                    (r.url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + FormCoding.encode([("access_token", token)])
            }
        } else if let token {
            r.headers.add("Authorization", "Bearer " + token)
        }
        if let token, let origin {
            registration.bearerRequests[held.wireID] = BearerRequest(held: held, origin: origin, token: token)
        }
        return .send(held.wireID, r)
    }

    mutating func requestToken(
        _ client: RegisteredClient, at origin: String, renewal: Bool, waiting: [HeldRequest],
        at now: Instant
    ) -> [EngineAction] {
        let fields = [("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", client.secret)]
        let (request, actions) = sendUnheld(.form(Route.clientToken.url(origin), fields), at: now)
        registration.origins[origin] = .requestingToken(
            .init(client: client, request: request, sentAt: now, renewal: renewal, waiting: waiting))
        return actions
    }
}

/// Registration's answers: a failure or a resend reaches the flows whose requests waited on it.
extension Engine {
    /// An answer to the origin's own request (`owner(of:)` found it): which one its state says.
    mutating func registrationAnswered(_ origin: String, _ result: HTTPResult, at now: Instant) -> [EngineAction] {
        switch core.registration.origins[origin] {
        case .registering(_, let waiting)?:
            return clientRegistered(origin, waiting, result, at: now)
        case .requestingToken(let t)?:
            return accessTokenArrived(origin, t, result, at: now)
        case .registered?, nil:
            return []  // no request out at that origin (the owner check makes this unreachable)
        }
    }

    /// Drops what the registration keeps of requests no flow waits on any more (no answer may ever
    /// come for them): run once the input's flows have taken their new requests.
    mutating func forgetRequestsOfEndedFlows() {
        if !core.registration.bearerRequests.isEmpty {
            core.registration.bearerRequests = core.registration.bearerRequests.filter {
                isOutstanding($0.value.held.id)
            }
        }
        if !core.registration.resentAs.isEmpty {
            core.registration.resentAs = core.registration.resentAs.filter { isOutstanding($0.value) }
        }
    }

    /// `POST /o/client/register` answered: on to the token request, or the registration failed.
    private mutating func clientRegistered(
        _ origin: String, _ waiting: [HeldRequest], _ result: HTTPResult, at now: Instant
    ) -> [EngineAction] {
        core.registration.origins[origin] = nil
        guard case .response(let r) = result, (200..<300).contains(r.status) else {
            return registrationFailed(result, refused: Engine.isAnswer(result), waiting: waiting, at: now)
        }
        guard let json = try? Value(jsonBytes: r.body), let clientID = json["client_id"]?.stringValue,
            !clientID.isEmpty,
            let secret = json["client_secret"]?.stringValue, !secret.isEmpty
        else {
            return registrationFailed(
                .failure("unusable client registration answer"), refused: true, waiting: waiting, at: now)
        }
        return core.requestToken(
            RegisteredClient(id: clientID, secret: secret), at: origin, renewal: false, waiting: waiting, at: now)
    }

    /// `POST /o/client/token` answered: the waiting requests go with the new token, or fail.
    // Not optimized: Swift 6.3.1's optimizer crashes on this function in a release build ("Found
    // ownership error" in CopyPropagation, on a borrow of `StartupFlow.State` inlined here). It runs
    // once per registration, so nothing measurable is lost.
    @_optimize(none)
    private mutating func accessTokenArrived(
        _ origin: String, _ t: OriginRegistration.TokenRequest, _ result: HTTPResult,
        at now: Instant
    ) -> [EngineAction] {
        core.registration.origins[origin] = nil
        guard case .response(let r) = result, (200..<300).contains(r.status) else {
            if t.renewal, Engine.isAnswer(result) {
                // The SP no longer knows the client (the mock forgets one after a day): register
                // afresh, the waiting requests with it; a refusal of that one is final.
                return t.waiting.filter { isOutstanding($0.id) }.flatMap { core.transmit($0, at: now) }
            }
            return registrationFailed(
                result, refused: !t.renewal && Engine.isAnswer(result), waiting: t.waiting, at: now)
        }
        guard let json = try? Value(jsonBytes: r.body), let token = json["access_token"]?.stringValue, !token.isEmpty
        else {
            return registrationFailed(
                .failure("unusable access token answer"), refused: !t.renewal, waiting: t.waiting, at: now)
        }
        let expires = json["expires_in"]?.intValue.map { seconds in
            let limit = EngineLimits.accessTokenLifetime.value / 1000
            return t.sentAt + .seconds(min(max(Int64(seconds), 0), limit))
        }
        core.registration.origins[origin] = .registered(t.client, AccessGrant(token: token, expires: expires))
        return t.waiting.filter { isOutstanding($0.id) }.map {
            core.dispatch($0, token: token, origin: origin, at: now)
        }
    }

    static func isAnswer(_ result: HTTPResult) -> Bool {
        if case .response = result { return true }
        return false
    }

    /// Registration (or a renewal) failed: the origin is forgotten (a later request registers anew)
    /// and every request waiting on it ends with the failure as its own answer, so a configuration
    /// fetch counts that SP as one that refused. A refused registration (an SP's answer, not an
    /// unreachable or silent SP) first delivers `status(R400)`.
    // Not optimized: Swift 6.3.1's optimizer crashes on this function in a release build ("Found
    // ownership error" in CopyPropagation, on a borrow of `StartupFlow.State` inlined here). It runs
    // once per registration, so nothing measurable is lost.
    @_optimize(none)
    mutating func registrationFailed(_ result: HTTPResult, refused: Bool, waiting: [HeldRequest], at now: Instant)
        -> [EngineAction]
    {
        var actions: [EngineAction] = []
        if refused { actions.append(.deliver(.status(code: StatusCode.registrationRefused, message: nil))) }
        for held in waiting {
            guard let (owner, request) = owner(of: held.id) else { continue }  // its flow has ended: nobody to tell
            actions += Engine.cancelDeadline(of: request)
            // The flow's own request was never sent: a 429 here is the registration's, which is a
            // refusal (R400), not the flow's throttling code (docs/CONFORMANCE.md, choice 52).
            actions += route(owner, held.id, result, at: now).filter { !Engine.isThrottlingStatus($0) }
        }
        return actions
    }

    /// A request sent with a Bearer token and answered 401 gets a new token (a token request only)
    /// and goes once more, with a new wire id and deadline; nil when the answer is the flow's to read.
    mutating func resendAfterRefusedToken(_ result: HTTPResult, for wireID: RequestID, at now: Instant)
        -> [EngineAction]?
    {
        guard let sent = core.registration.bearerRequests.removeValue(forKey: wireID) else { return nil }
        guard case .response(let r) = result, r.status == 401, !sent.held.retried,
            let (owner, request) = owner(of: sent.held.id)
        else { return nil }
        var actions = Engine.cancelDeadline(of: request)
        var held = sent.held
        held.wireID = core.newRequestID()
        held.retried = true
        core.registration.resentAs[held.wireID] = held.id
        if case .registered(let client, let grant)? = core.registration.origins[sent.origin], grant.token == sent.token
        {
            actions += core.requestToken(client, at: sent.origin, renewal: true, waiting: [held], at: now)
        } else {
            // Another request already renewed it (or a renewal is under way): wait for or use that.
            actions += core.transmit(held, at: now)
        }
        if held.deadline {
            let (timer, start) = core.startTimer(at: now + core.configuration.requestTimeout)
            rearm(owner, held.id, deadline: timer)
            actions.append(start)
        }
        return actions
    }
}
