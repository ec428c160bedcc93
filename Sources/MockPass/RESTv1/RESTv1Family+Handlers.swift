import PassModel
import PassXML

/// The clientless REST API v1 (facts §1 "REST API v1"; pass.en `rest-api-v1/apis/*`), on every SP
/// host, sharing the device-bound sessions of the tvOS and TempPass flows: a device is authenticated
/// for a requestor when `deviceSessions` holds (deviceId, requestor). Endpoints the engine already
/// calls (`checkauthn/{code}`, `tokens/authn` POST, `authenticate`, the regcode) keep their routes in
/// `MockPass+Routing.swift`; this takes the others, `logout` included.
extension RESTv1Family {
    enum RestRoute {
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
    static func route(_ method: String, _ endpoint: Endpoint) -> RestRoute? {
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

    /// `sdk`: the family whose device-bound sessions authenticate a v1 device (its login, TempPass
    /// and logout are the SDK's, at v1's paths; the configuration too).
    mutating func handle(
        _ route: RestRoute, _ sp: World.ServiceProvider, _ r: IncomingRequest,
        format: RestFormat, in context: inout MockContext, sdk: inout SDKFamily, at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        switch route {
        case .config(let id): return try sdk.config(sp, requestorID: id, in: context)
        case .freePreview:
            // REST v1 spells the device `deviceId`; the SDK endpoint `device_id`.
            var asSDK = r
            asSDK.parameters.append(("device_id", try r.required("deviceId")))
            return try sdk.freePreview(sp, asSDK, in: &context, at: now)
        case .logout:
            let deviceID = try r.required("deviceId")
            let response = try sdk.deviceLogout(r)
            authorizations.removeAll { key, _ in key.deviceID == deviceID }
            return response
        default: break
        }
        guard let requestorID = try ClientAdmission.requestorNamed(by: r) else {
            throw .badRequest("missing parameter requestor")
        }
        let deviceID = try r.required("deviceId")
        let requestor = try context.knownRequestor(requestorID, at: sp)
        let device = DeviceKey(deviceID: deviceID, requestorID: requestorID)
        let sessions = sdk.deviceSessions
        switch route {
        case .checkAuthn:
            guard let session = sessions.value(device, at: now), now < session.token.expires else {
                throw .xml(403, SDKFamily.notAuthenticated)
            }
            return RestRecord(
                root: "authentication",
                fields: [
                    ("requestor", .string(requestorID)),
                    ("mvpd", .string(session.token.mvpdID)),
                ]
            ).response(format)
        case .authnToken:
            guard let session = sessions.value(device, at: now) else { throw .xml(404, "Not found") }
            guard now < session.token.expires else { throw .xml(410, "Gone", details: "authentication token expired") }
            return RestRecord(
                root: "authentication",
                fields: [
                    ("expires", .string(String(session.token.expires.milliseconds))),
                    ("userId", .string(RESTv1Family.userID(session))), ("mvpd", .string(session.token.mvpdID)),
                    ("requestor", .string(requestorID)),
                ]
            ).response(format)
        case .authorize:
            let session = try RESTv1Family.liveSession(device, in: sessions, at: now)
            let resource = try r.required("resource")
            let authz = try authorize(session, requestor: requestor, resource: resource, in: context, at: now)
            return authzRecord(authz, requestorID: requestorID, resource: resource).response(format)
        case .authzToken:
            let session = try RESTv1Family.liveSession(device, in: sessions, at: now)
            let resource = try r.required("resource")
            let key = RestAuthzKey(deviceID: deviceID, requestorID: requestorID, resource: resource)
            guard let authz = authorizations.value(key, at: now), authz.sessionGUID == session.token.guid else {
                throw .xml(404, "Not found")
            }
            guard now < authz.expires else { throw .xml(410, "Gone", details: "authorization token expired") }
            return authzRecord(authz, requestorID: requestorID, resource: resource).response(format)
        case .mediaToken:
            let session = try RESTv1Family.liveSession(device, in: sessions, at: now)
            let resource = try r.required("resource")
            let key = RestAuthzKey(deviceID: deviceID, requestorID: requestorID, resource: resource)
            let live: RestAuthz
            if let a = authorizations.value(key, at: now), now < a.expires, a.sessionGUID == session.token.guid {
                live = a
            } else {
                live = try authorize(session, requestor: requestor, resource: resource, in: context, at: now)
            }
            let media = ShortMediaToken(
                sessionGUID: live.sessionGUID, requestorID: requestorID, resourceID: resource,
                ttl: SDKFamily.mediaTokenTTL, issueTime: now, mvpdID: live.mvpdID)
            return RestRecord(
                root: "play",
                fields: [
                    ("expires", .string(String((now + SDKFamily.mediaTokenTTL).milliseconds))),
                    ("mvpdId", .string(live.mvpdID)), ("requestor", .string(requestorID)),
                    ("resource", .string(resource)), ("serializedToken", .string(ShortMediaTokenXML.serialize(media))),
                    ("userId", .string(RESTv1Family.userID(session))),
                ]
            ).response(format)
        case .preauthorize:
            let session = try RESTv1Family.liveSession(device, in: sessions, at: now)
            let resources = try r.required("resource").split(separator: ",", omittingEmptySubsequences: false).map(
                String.init)
            var entries: [Value] = []
            for resource in resources {
                guard !resource.isEmpty else { throw .badRequest("empty resource in the resource list") }
                let name = try MockContext.resourceName(resource)
                var fields = [Value.Entry("id", .string(resource))]
                if let refusal = context.decision(for: session.subject, resource: name) {
                    fields.append(Value.Entry("authorized", .bool(false)))
                    fields.append(
                        Value.Entry(
                            "error",
                            .dict([
                                Value.Entry("status", .int(403)), Value.Entry("code", .string(SDKFamily.deniedByMVPD)),
                                Value.Entry("message", .string(SDKFamily.notAuthorized)),
                                Value.Entry("details", .string(refusal)),
                            ])))
                } else {
                    fields.append(Value.Entry("authorized", .bool(true)))
                }
                entries.append(.dict(fields))
            }
            return RestRecord(root: "preauthorization", fields: [("resources", .list(entries))]).response(format)
        case .userMetadata:
            let session = try RESTv1Family.liveSession(device, in: sessions, at: now)
            guard case .user(let key) = session.subject,
                let user = context.world.user(mvpdID: key.mvpdID, name: key.userName)
            else {
                throw .xml(404, "Not found", details: "no user metadata for this authentication")
            }
            // Always JSON: the documented answer is a JSON document (`data` holds JSON values).
            return HTTPResponse(
                status: 200, contentType: Reply.json, text: SDKFamily.userMetadata(of: user, at: now).jsonText)
        case .config, .freePreview, .logout:
            throw .notFound()
        }
    }

    /// The device's live authentication for the requestor, else 412 (facts: "User not authenticated").
    private static func liveSession(
        _ device: DeviceKey, in sessions: ExpiringStore<DeviceKey, DeviceSession>, at now: Instant
    ) throws(HandlerFailure) -> DeviceSession {
        guard let session = sessions.value(device, at: now), now < session.token.expires else {
            throw .xml(412, SDKFamily.notAuthenticated)
        }
        return session
    }

    /// The MVPD's decision, kept when it allows; 403 with the MVPD's message as details when not.
    private mutating func authorize(
        _ session: DeviceSession, requestor: World.Requestor, resource: String, in context: MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> RestAuthz {
        let name = try MockContext.resourceName(resource)
        if let refusal = context.decision(for: session.subject, resource: name) {
            throw .xml(403, SDKFamily.notAuthorized, details: refusal)
        }
        let expires: Instant
        switch session.subject {
        case .tempPass: expires = session.token.expires
        case .user: expires = min(now + requestor.authzTTL, session.token.expires)
        }
        let authz = RestAuthz(
            mvpdID: session.token.mvpdID, sessionGUID: session.token.guid, expires: expires.wholeSeconds)
        authorizations.set(
            RestAuthzKey(deviceID: session.token.deviceID, requestorID: requestor.id, resource: resource),
            authz, until: authz.expires + context.limits.expiredMemory)
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
