import PassModel
import PassXML

/// The clientless REST API v1 (facts §1 "REST API v1"; pass.en `rest-api-v1/apis/*`), on every SP
/// host, sharing the device-bound sessions of the tvOS and TempPass flows: a device is authenticated
/// for a requestor when `deviceSessions` holds (deviceId, requestor). Endpoints the engine already
/// calls (`checkauthn/{code}`, `tokens/authn` POST, `authenticate`, the regcode) keep their routes in
/// `DeviceEndpoints.swift`/`ServiceProviderHandler.swift`; this takes the others, `logout` included.
extension MockPass {
    private enum RestRoute {
        case checkAuthn, authnToken, authorize, authzToken, mediaToken, preauthorize, logout, userMetadata
        case freePreview, config(requestorID: String)

        var method: String {
            switch self {
            case .logout: return "DELETE"
            case .freePreview: return "POST"
            default: return "GET"
            }
        }
    }

    /// The REST v1 route of an endpoint (recognised on the path without its format suffix), nil
    /// when another handler serves it. `tokens/authn` is ours only for GET: its POST is Apple SSO's
    /// token exchange.
    private static func restRoute(_ method: String, _ endpoint: Endpoint) -> RestRoute? {
        switch endpoint {
        case .service(let service, let parameter):
            switch service {
            case .restCheckAuthentication: return .checkAuthn
            case .restAuthorize: return .authorize
            case .restAuthzToken: return .authzToken
            case .restMediaToken, .restMediaTokenOldName: return .mediaToken
            case .restPreauthorize: return .preauthorize
            case .restUserMetadata: return .userMetadata
            case .restFreePreview: return .freePreview
            case .restConfig: return .config(requestorID: parameter ?? "")
            case .webSession, .webAuthorize, .webShortAuthorize, .webGetMetadata, .assertionConsumer, .logoutResponse,
                .completePassiveAuthentication, .secondScreenLogin, .individualisation:
                return nil
            }
        case .route(.tokenExchange, _): return method == "POST" ? nil : .authnToken
        case .route(.restLogout, _): return .logout
        case .route, .restV2, .configFamily, .idp, .unknown: return nil
        }
    }

    /// The SP host's families in order: REST API v2, the throttle, the client gate, REST API v1, then
    /// the one switch over every other endpoint (`handleServiceProvider`).
    mutating func handleServiceProviderHost(
        _ sp: World.ServiceProvider, _ r: IncomingRequest,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        // REST API v2 has its own client check, errors and throttle (RESTv2/).
        if case .restV2(let route) = r.endpoint { return handleRESTv2(route, sp, r, at: now) }
        if world.restV2.throttleLegacy, MockPass.isThrottledLegacyPath(r.path), let refusal = v2Throttle(r, at: now) {
            return refusal
        }
        do throws(HandlerFailure) {
            // The /config hot path pays for the gate only when some requestor is gated; the check
            // that the request names one requestor is a scan of its parameters, and runs always.
            try MockLimits.admitParameters(r)
            if gatesClients {
                try admitClient(r, at: now)
            } else {
                _ = try MockPass.requestorNamed(by: r)
            }
        } catch {
            if r.endpoint.isClientRegistration { throw error.inDCRForm }
            throw MockPass.isSecondScreenPath(r.path) ? error.rest(RestFormat.of(r).format) : error
        }
        if r.path.hasPrefix(RoutePrefix.restV1) {
            // REST v1 may name its format in a path suffix: its family is recognised without it.
            let (format, restPath) = RestFormat.of(r)
            let endpoint = restPath == r.path ? r.endpoint : Endpoint(spMethod: r.method, path: restPath)
            if let route = MockPass.restRoute(r.method, endpoint) {
                do throws(HandlerFailure) {
                    // `tokens/authn` also takes POST (Apple SSO's exchange, routed elsewhere).
                    if case .authnToken = route, r.method != "GET" { throw .methodNotAllowed("GET, POST") }
                    try r.expect(route.method)
                    return try handleREST(route, sp, r, format: format, at: now)
                } catch {
                    throw error.rest(format)
                }
            }
        }
        return try handleServiceProvider(sp, r, at: now)
    }

    private mutating func handleREST(
        _ route: RestRoute, _ sp: World.ServiceProvider, _ r: IncomingRequest,
        format: RestFormat, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch route {
        case .config(let id): return try config(sp, requestorID: id)
        case .freePreview:
            // REST v1 spells the device `deviceId`; the SDK endpoint `device_id`.
            var sdk = r
            sdk.parameters.append(("device_id", try r.required("deviceId")))
            return try freePreview(sp, sdk, at: now)
        case .logout:
            let deviceID = try r.required("deviceId")
            let response = try deviceLogout(r)
            restV1.authorizations.removeAll { key, _ in key.deviceID == deviceID }
            return response
        default: break
        }
        guard let requestorID = try MockPass.requestorNamed(by: r) else {
            throw .badRequest("missing parameter requestor")
        }
        let deviceID = try r.required("deviceId")
        let requestor = try knownRequestor(requestorID, at: sp)
        let device = DeviceKey(deviceID: deviceID, requestorID: requestorID)
        switch route {
        case .checkAuthn:
            guard let session = sdk.deviceSessions.value(device, at: now), now < session.token.expires else {
                throw .xml(403, MockPass.notAuthenticated)
            }
            return RestRecord(
                root: "authentication",
                fields: [
                    ("requestor", .string(requestorID)),
                    ("mvpd", .string(session.token.mvpdID)),
                ]
            ).response(format)
        case .authnToken:
            guard let session = sdk.deviceSessions.value(device, at: now) else { throw .xml(404, "Not found") }
            guard now < session.token.expires else { throw .xml(410, "Gone", details: "authentication token expired") }
            return RestRecord(
                root: "authentication",
                fields: [
                    ("expires", .string(String(session.token.expires.milliseconds))),
                    ("userId", .string(MockPass.userID(session))), ("mvpd", .string(session.token.mvpdID)),
                    ("requestor", .string(requestorID)),
                ]
            ).response(format)
        case .authorize:
            let session = try liveSession(device, at: now)
            let resource = try r.required("resource")
            let authz = try authorizeREST(session, requestor: requestor, resource: resource, at: now)
            return authzRecord(authz, requestorID: requestorID, resource: resource).response(format)
        case .authzToken:
            let session = try liveSession(device, at: now)
            let resource = try r.required("resource")
            let key = RestAuthzKey(deviceID: deviceID, requestorID: requestorID, resource: resource)
            guard let authz = restV1.authorizations.value(key, at: now), authz.sessionGUID == session.token.guid else {
                throw .xml(404, "Not found")
            }
            guard now < authz.expires else { throw .xml(410, "Gone", details: "authorization token expired") }
            return authzRecord(authz, requestorID: requestorID, resource: resource).response(format)
        case .mediaToken:
            let session = try liveSession(device, at: now)
            let resource = try r.required("resource")
            let key = RestAuthzKey(deviceID: deviceID, requestorID: requestorID, resource: resource)
            let live: RestAuthz
            if let a = restV1.authorizations.value(key, at: now), now < a.expires, a.sessionGUID == session.token.guid {
                live = a
            } else {
                live = try authorizeREST(session, requestor: requestor, resource: resource, at: now)
            }
            let media = ShortMediaToken(
                sessionGUID: live.sessionGUID, requestorID: requestorID, resourceID: resource,
                ttl: MockPass.mediaTokenTTL, issueTime: now, mvpdID: live.mvpdID)
            return RestRecord(
                root: "play",
                fields: [
                    ("expires", .string(String((now + MockPass.mediaTokenTTL).milliseconds))),
                    ("mvpdId", .string(live.mvpdID)), ("requestor", .string(requestorID)),
                    ("resource", .string(resource)), ("serializedToken", .string(ShortMediaTokenXML.serialize(media))),
                    ("userId", .string(MockPass.userID(session))),
                ]
            ).response(format)
        case .preauthorize:
            let session = try liveSession(device, at: now)
            let resources = try r.required("resource").split(separator: ",", omittingEmptySubsequences: false).map(
                String.init)
            var entries: [Value] = []
            for resource in resources {
                guard !resource.isEmpty else { throw .badRequest("empty resource in the resource list") }
                let name = try MockPass.resourceName(resource)
                var fields = [Value.Entry("id", .string(resource))]
                if let refusal = decision(for: session.subject, resource: name) {
                    fields.append(Value.Entry("authorized", .bool(false)))
                    fields.append(
                        Value.Entry(
                            "error",
                            .dict([
                                Value.Entry("status", .int(403)), Value.Entry("code", .string(MockPass.deniedByMVPD)),
                                Value.Entry("message", .string(MockPass.notAuthorized)),
                                Value.Entry("details", .string(refusal)),
                            ])))
                } else {
                    fields.append(Value.Entry("authorized", .bool(true)))
                }
                entries.append(.dict(fields))
            }
            return RestRecord(root: "preauthorization", fields: [("resources", .list(entries))]).response(format)
        case .userMetadata:
            let session = try liveSession(device, at: now)
            guard case .user(let key) = session.subject, let user = world.user(mvpdID: key.mvpdID, name: key.userName)
            else {
                throw .xml(404, "Not found", details: "no user metadata for this authentication")
            }
            // Always JSON: the documented answer is a JSON document (`data` holds JSON values).
            return HTTPResponse(
                status: 200, contentType: Reply.json, text: MockPass.userMetadata(of: user, at: now).jsonText)
        case .config, .freePreview, .logout:
            throw .notFound()
        }
    }

    /// The device's live authentication for the requestor, else 412 (facts: "User not authenticated").
    private func liveSession(_ device: DeviceKey, at now: Instant) throws(HandlerFailure) -> DeviceSession {
        guard let session = sdk.deviceSessions.value(device, at: now), now < session.token.expires else {
            throw .xml(412, MockPass.notAuthenticated)
        }
        return session
    }

    /// The MVPD's decision, kept when it allows; 403 with the MVPD's message as details when not.
    private mutating func authorizeREST(
        _ session: DeviceSession, requestor: World.Requestor, resource: String,
        at now: Instant
    ) throws(HandlerFailure) -> RestAuthz {
        let name = try MockPass.resourceName(resource)
        if let refusal = decision(for: session.subject, resource: name) {
            throw .xml(403, MockPass.notAuthorized, details: refusal)
        }
        let expires: Instant
        switch session.subject {
        case .tempPass: expires = session.token.expires
        case .user: expires = min(now + requestor.authzTTL, session.token.expires)
        }
        let authz = RestAuthz(
            mvpdID: session.token.mvpdID, sessionGUID: session.token.guid, expires: expires.wholeSeconds)
        restV1.authorizations.set(
            RestAuthzKey(deviceID: session.token.deviceID, requestorID: requestor.id, resource: resource),
            authz, until: authz.expires + limits.expiredMemory)
        return authz
    }

    private func authzRecord(_ authz: RestAuthz, requestorID: String, resource: String) -> RestRecord {
        RestRecord(
            root: "authorization",
            fields: [
                ("expires", .string(String(authz.expires.milliseconds))), ("mvpd", .string(authz.mvpdID)),
                ("requestor", .string(requestorID)), ("resource", .string(resource)),
            ])
    }

    /// The user id a REST answer shows: the IdP's NameID, or the device for a TempPass (which has no user).
    private static func userID(_ session: DeviceSession) -> String {
        session.token.nameID.isEmpty ? session.token.deviceID : session.token.nameID
    }
}
