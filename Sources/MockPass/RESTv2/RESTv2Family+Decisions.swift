import PassModel
import PassXML

/// `POST decisions/authorize/{mvpd}` and `decisions/preauthorize/{mvpd}`.
extension RESTv2Family {
    enum V2DecisionKind: Sendable {
        /// Before playback: a permit carries a media token.
        case authorize
        /// For the UI only: no token, and a deny is `preauthorization_denied_by_mvpd`.
        case preauthorize
    }

    /// The JSON body `{"resources": [...]}`: a list of non-empty strings, at most `maxResources`
    /// (`too_many_resources`); anything else, an MRSS resource that does not parse included, is
    /// `invalid_parameter_resources`. Checked whole before any decision, so a refusal keeps nothing.
    func v2Resources(_ r: IncomingRequest, in context: MockContext) throws(V2Failure)
        -> [(resource: String, name: String)]
    {
        let world = context.world
        let body: Value
        // Bytes that are not UTF-8 are refused, not read as U+FFFD (docs/CONFORMANCE.md, choice 93):
        // a resource with a replaced character is not the one the client named.
        guard let text = String(validating: r.request.body, as: UTF8.self) else {
            throw V2Failure(.invalidParameterResources, "the body is not UTF-8")
        }
        do {
            body = try Value(jsonText: text)
        } catch {
            throw V2Failure(.invalidParameterResources, "the body is not JSON: \(error.message)")
        }
        guard let list = body["resources"]?.listValue else {
            throw V2Failure(.invalidParameterResources, "the body has no resources list")
        }
        guard !list.isEmpty else { throw V2Failure(.invalidParameterResources, "the resources list is empty") }
        guard list.count <= world.restV2.maxResources else {
            throw V2Failure(.tooManyResources, "\(list.count) resources; at most \(world.restV2.maxResources) at once")
        }
        var out: [(resource: String, name: String)] = []
        for item in list {
            guard let resource = item.stringValue, !resource.isEmpty, resource.utf8.count <= V2Limits.resourceBytes
            else {
                throw V2Failure(
                    .invalidParameterResources,
                    "each resource must be a non-empty string of at most \(V2Limits.resourceBytes) bytes")
            }
            do throws(HandlerFailure) {
                out.append((resource, try MockContext.resourceName(resource)))
            } catch {
                throw V2Failure(.invalidParameterResources, error.message)
            }
        }
        return out
    }

    /// One decision per resource, in request order, each with its `source`:
    /// - `degradation` when the world degrades the MVPD (`deny` refuses, the others permit);
    /// - `temppass` for a TempPass MVPD (from its first use until it ends, within its resource limit);
    /// - `dummy` for an MVPD the world authorizes without asking;
    /// - `mvpd` otherwise: the user's allow/deny lists, then parental controls, then the world's faults.
    /// A device without a live profile gets `authenticated_profile_missing` (or `_expired`) in
    /// each decision. The answer is 200 whatever the decisions say.
    mutating func v2Decisions(
        _ kind: V2DecisionKind, _ sp: World.ServiceProvider, _ requestor: World.Requestor,
        mvpdID: String, _ r: IncomingRequest, in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let device = try V2Device.from(r.request.headers)
        _ = try v2MVPD(mvpdID, sp, requestor, in: context)
        let tempPass = context.world.tempPass(for: mvpdID)
        // A TempPass's identity is judged inside its decisions (below); any other MVPD's call with
        // a malformed one is refused whole.
        if tempPass == nil { _ = try r.request.headers.tempPassIdentity() }
        let resources = try v2Resources(r, in: context)
        let options = context.world.restV2
        let key = V2ProfileKey(deviceID: device.id, requestorID: requestor.id, mvpdID: mvpdID)
        var profile = v2Profile(key, r, in: context, at: now)
        // A TempPass needs no session: the decision starts it on first use, and what ends it (its
        // duration, a missing or malformed identity, its configuration) is each decision's error,
        // source `temppass`, as Adobe's decisions samples show.
        var tempPassRefusal: V2Failure?
        if let tempPass {
            do throws(V2Failure) {
                profile = try v2TempPassProfile(tempPass, key, r, in: &context, at: now)
            } catch {
                profile = nil
                tempPassRefusal = error
            }
        }
        // A profile from Apple's SSO holds only while Apple's framework still grants access to that
        // provider: when the app sends the framework's status, it must say so (rest-api-v2.md 1.4).
        if case .appleSSO? = profile?.origin, r.request.headers.first(lowercased: "ap-partner-framework-status") != nil
        {
            let status = try V2PartnerStatus.from(r.request.headers, at: now)
            guard options.platformMappingID(of: mvpdID) == status.providerID else {
                throw V2Failure(.pfsProviderIDMismatch, "the partner framework's provider is not \(mvpdID)")
            }
        }
        let degradation = options.degradation(of: mvpdID)
        var decisions: [Value] = []
        for (resource, name) in resources {
            var outcome: V2Outcome
            if degradation == .deny {
                outcome = .refused(
                    .degradation, V2Failure(.authorizationDeniedByDegradationRule, "MVPD \(mvpdID) is degraded"))
            } else if degradation == .authenticateAll {
                outcome = .permitted(.degradation, until: now + requestor.authzTTL)
            } else if degradation == .authorizeAll {
                // With or without a profile (Adobe's degraded access flows); the decision carries no
                // validity of its own, only its media token's (the decisions page's AuthZAll sample).
                outcome = .permitted(.degradation, until: nil)
            } else if let tempPassRefusal {
                outcome = .refused(.temppass, tempPassRefusal)
            } else if let profile {
                outcome = v2Outcome(
                    kind, profile: profile, key: key, resource: name, requestor: requestor, in: context, at: now)
            } else {
                let expired = profiles.value(key, at: now) != nil
                outcome = .refused(
                    .mvpd,
                    V2Failure(
                        expired ? .profileExpired : .profileMissing,
                        expired
                            ? "the device's profile for \(mvpdID) expired" : "the device has no profile for \(mvpdID)"))
            }
            decisions.append(
                RESTv2Family.v2Decision(
                    kind, outcome, resource: resource, requestor: requestor, mvpdID: mvpdID,
                    sessionID: profile?.sessionID ?? "", in: &context, at: now))
        }
        return Self.v2JSON([Value.Entry("decisions", .list(decisions))])
    }

    enum V2Source: String, Sendable {
        case mvpd, degradation, temppass, dummy
    }

    /// `until`: the decision's own `notAfter` (nil: none shown). A refusal has one only when the
    /// MVPD itself denied, as Adobe's deny sample shows.
    enum V2Outcome: Sendable {
        case permitted(V2Source, until: Instant?)
        case refused(V2Source, V2Failure, until: Instant? = nil)
    }

    /// The decision for a device with a live profile.
    private mutating func v2Outcome(
        _ kind: V2DecisionKind, profile: V2Profile, key: V2ProfileKey, resource: String,
        requestor: World.Requestor, in context: MockContext, at now: Instant
    ) -> V2Outcome {
        let options = context.world.restV2
        switch profile.origin {
        case .tempPass(let useKey):
            guard var use = tempPassUses.value(useKey, at: now), now < use.expires else {
                return .refused(.temppass, V2Failure(.temporaryAccessDurationLimitExceeded, "the TempPass ended"))
            }
            // Only a pass with a resource limit counts its resources: one without reads none, so
            // it keeps none (a client could otherwise grow one use by a resource per call).
            if let limit = options.tempPassResourceLimits.first(where: { $0.mvpdID == key.mvpdID })?.resources,
                !use.resources.contains(resource)
            {
                guard use.resources.count < limit, use.hasRoom(for: resource) else {
                    return .refused(
                        .temppass,
                        V2Failure(
                            .temporaryAccessResourcesLimitExceeded,
                            use.resources.count < limit
                                ? "the TempPass remembers at most \(V2Limits.tempPassResources) resources, "
                                    + "\(V2Limits.tempPassResourceBytes) bytes (limit: mock-v2-temppass-resources)"
                                : "the TempPass allows \(limit) resources"))
                }
                // Only an authorization uses up a resource; a preauthorization only asks.
                if kind == .authorize {
                    use.remember(resource)
                    tempPassUses.set(useKey, use, until: ExpiringStore<V2TempPassKey, V2TempPassUse>.forever)
                }
            }
            return .permitted(.temppass, until: use.expires)
        case .degraded:
            return .permitted(.degradation, until: min(now + requestor.authzTTL, profile.notAfter))
        case .login, .appleSSO, .sso:
            break
        }
        let until = min(now + requestor.authzTTL, profile.notAfter)
        if options.dummyAuthorization.contains(key.mvpdID) { return .permitted(.dummy, until: until) }
        if let fault = options.fault(of: key.mvpdID) {
            return .refused(.mvpd, V2Failure(fault, "the world's fault for \(key.mvpdID)"))
        }
        guard let subscriber = profile.subscriber else { return .refused(.mvpd, V2Failure(.profileMissing)) }
        if options.parentalControls.contains(where: {
            $0.mvpdID == subscriber.user.mvpdID && $0.userName == subscriber.user.userName && $0.resource == resource
        }) {
            return .refused(
                .mvpd, V2Failure(.authorizationDeniedByParentalControls, "parental controls deny \(resource)"))
        }
        if let refusal = context.decision(for: .user(subscriber.user), resource: resource) {
            let code: V2ErrorCode = kind == .authorize ? .authorizationDeniedByMVPD : .preauthorizationDeniedByMVPD
            // The MVPD's message is an authorization's `details`; a preauthorization shows none (Adobe's samples).
            let details = kind == .authorize ? refusal : nil
            return .refused(.mvpd, V2Failure(code, "the MVPD denies \(resource)", details: details), until: until)
        }
        return .permitted(.mvpd, until: until)
    }

    /// One `DecisionResponse`, keys in a fixed order; a permitted authorization carries the media token.
    private static func v2Decision(
        _ kind: V2DecisionKind, _ outcome: V2Outcome, resource: String,
        requestor: World.Requestor, mvpdID: String, sessionID: String,
        in context: inout MockContext, at now: Instant
    ) -> Value {
        var e = [
            Value.Entry("resource", .string(resource)), Value.Entry("serviceProvider", .string(requestor.id)),
            Value.Entry("mvpd", .string(mvpdID)),
        ]
        switch outcome {
        case .permitted(let source, let until):
            e.append(Value.Entry("source", .string(source.rawValue)))
            e.append(Value.Entry("authorized", .bool(true)))
            if kind == .authorize {
                let ttl = context.world.restV2.mediaTokenTTL
                let media = ShortMediaToken(
                    sessionGUID: sessionID.isEmpty ? context.random.guid() : sessionID, requestorID: requestor.id,
                    resourceID: resource, ttl: ttl, issueTime: now, mvpdID: mvpdID)
                e.append(
                    Value.Entry(
                        "token",
                        .dict([
                            Value.Entry("notBefore", Self.v2Millis(now)),
                            Value.Entry("notAfter", Self.v2Millis(now + ttl)),
                            Value.Entry("serializedToken", .string(ShortMediaTokenXML.serialize(media))),
                        ])))
            }
            // A preauthorization is for the UI only: its decisions carry no validity (Adobe's samples).
            if kind == .authorize, let until {
                e.append(Value.Entry("notBefore", Self.v2Millis(now)))
                e.append(Value.Entry("notAfter", Self.v2Millis(until)))
            }
        case .refused(let source, let failure, let until):
            e.append(Value.Entry("source", .string(source.rawValue)))
            e.append(Value.Entry("authorized", .bool(false)))
            e.append(Value.Entry("error", failure.object(trace: context.random.guid())))
            if kind == .authorize, let until {
                e.append(Value.Entry("notBefore", Self.v2Millis(now)))
                e.append(Value.Entry("notAfter", Self.v2Millis(until)))
            }
        }
        return .dict(e)
    }
}
