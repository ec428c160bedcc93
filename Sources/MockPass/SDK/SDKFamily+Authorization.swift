import PassModel
import PassXML

/// `authorizeDevice`, `deviceShortAuthorize`, `preauthorize` and `getMetadataDevice` (facts §4).
extension SDKFamily {
    static let notAuthenticated = "User not authenticated"
    static let notAuthorized = "User not authorized"
    static let deniedByMVPD = "authorization_denied_by_mvpd"
    static let mediaTokenTTL = Millis.minutes(5)

    /// A resource in the user's `allow` list gets a token that ends with the authN token or after the
    /// requestor's authZ TTL, whichever comes first; a TempPass token authorizes everything until the
    /// TempPass ends. Otherwise 403 with the MVPD's deny message (or "") as details, and the
    /// `Authzf-Error-Code`/`Authzf-Sub-Error-Code` headers the JS SDK reads. Without `device_id` (web
    /// clients, and SDKs that take it as optional) the token carries the authN token's device id.
    mutating func authorizeDevice(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let resource = try r.required("resource_id")
        let requestorID = try r.required("requestor_id")
        let mvpdID = try r.required("mso_id")
        let resourceName = try r.resourceNames([resource])[0]
        let requestor = try context.knownRequestor(requestorID, at: sp)
        let issued = try verifiedAuthentication(r, at: now)
        guard mvpdID == issued.token.mvpdID else {
            throw .badRequest("mso_id \(mvpdID) does not match the authentication token's MVPD \(issued.token.mvpdID)")
        }
        if let refusal = context.decision(for: issued.subject, resource: resourceName) {
            throw SDKFamily.authorizationRefused(refusal)
        }
        let deviceID = r.parameter("device_id").flatMap { $0.isEmpty ? nil : $0 } ?? issued.token.deviceID
        let expires: Instant
        switch issued.subject {
        case .tempPass: expires = issued.token.expires
        case .user: expires = min(now + requestor.authzTTL, issued.token.expires)
        }
        let token = AuthzToken(
            sessionGUID: issued.token.guid, requestorID: requestorID, resourceID: resource,
            mvpdID: issued.token.mvpdID, deviceID: deviceID, expires: expires.wholeSeconds)
        issuedAuthz.set(token, true, until: token.expires + context.limits.expiredMemory)
        return Reply.xml(
            AuthorizeDeviceXML.build(.token(token), issuedAt: now), decoded: AuthorizeDeviceXML.Content.token(token))
    }

    /// The short media token for an authZ token this mock issued and still valid. `session_guid` is
    /// required but not compared with the token's: two device clients send a random one
    /// (CONFORMANCE.md, "No session_guid check"). `hashed_guid=true` is refused.
    func deviceShortAuthorize(_ r: IncomingRequest, at now: Instant) throws(HandlerFailure) -> HTTPResponse {
        _ = try r.required("session_guid")
        let text = try r.required("authz_token")
        if r.parameter("hashed_guid")?.lowercased() == "true" { throw .badRequest("hashed_guid=true is not supported") }
        let token = try r.authzToken(text)
        guard issuedAuthz.value(token, at: now) != nil else { throw .xml(403, "Unknown authorization token") }
        guard now < token.expires else { throw .xml(403, "Authorization token expired") }
        let media = ShortMediaToken(
            sessionGUID: token.sessionGUID, requestorID: token.requestorID,
            resourceID: token.resourceID, ttl: SDKFamily.mediaTokenTTL, issueTime: now,
            mvpdID: token.mvpdID)
        return HTTPResponse(status: 200, contentType: Reply.plainToken, text: ShortMediaTokenXML.serialize(media))
    }

    /// One decision per `resource_id`, in request order (repeats included).
    func preauthorize(_ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        let requestorID = try r.required("requestor_id")
        let resources = r.parameters.filter { $0.0 == "resource_id" }.map(\.1)
        let names = try r.resourceNames(resources)
        _ = try context.knownRequestor(requestorID, at: sp)
        let issued = try verifiedAuthentication(r, at: now)
        let decisions = zip(resources, names).map { resource, name in
            let refusal = context.decision(for: issued.subject, resource: name)
            return PreauthorizeXML.Decision(
                resourceID: resource, authorized: refusal == nil,
                error: refusal.map { ErrorBody(status: 403, message: SDKFamily.deniedByMVPD, details: $0) })
        }
        return Reply.xml(PreauthorizeXML.build(decisions), decoded: decisions)
    }

    /// `getMetadataDevice`: the device id in `<metadata><deviceID>`.
    func metadataDevice(_ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        Reply.xml(MetadataXML.build(deviceID: try metadataDeviceID(sp, r, in: context, at: now)))
    }

    /// The device id the request sent, when the requestor enables that metadata. A web client may send
    /// none: then the device id of its `authentication_token` (a 400 names `device_id` when neither came).
    func metadataDeviceID(_ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext, at now: Instant)
        throws(HandlerFailure) -> String
    {
        let requestorID = try r.required("requestor_id")
        let deviceID: String
        if let sent = r.parameter("device_id"), !sent.isEmpty {
            deviceID = sent
        } else if r.parameter("authentication_token").map({ !$0.isEmpty }) ?? false {
            deviceID = try verifiedAuthentication(r, at: now).token.deviceID
        } else {
            throw .badRequest("missing parameter device_id")
        }
        guard let requestor = context.world.requestor(requestorID), requestor.isAt(sp), requestor.deviceID else {
            throw .xml(403, "Device ID metadata is not available to requestor \(requestorID)")
        }
        return deviceID
    }

    /// Header values of an MVPD's refusal (the throttling page lists these headers as exposed to
    /// browsers; the values are the codes real-clients.md says clients look for).
    static let authzfErrorCode = "notAuthorized"
    static let authzfSubErrorCode = deniedByMVPD

    static func authorizationRefused(_ details: String) -> HandlerFailure {
        var failure = HandlerFailure.xml(403, notAuthorized, details: details)
        failure.headers = [("Authzf-Error-Code", authzfErrorCode), ("Authzf-Sub-Error-Code", authzfSubErrorCode)]
        return failure
    }

    // MARK: - Shared checks

    /// The `authentication_token` field: a token this mock issued, unchanged and unexpired, else 401.
    /// A field that is not a token at all (or hostile XML) is a 400.
    func verifiedAuthentication(_ r: IncomingRequest, at now: Instant) throws(HandlerFailure) -> IssuedAuthn {
        let text = try r.required("authentication_token")
        let token = try r.authnToken(text)
        guard let issued = issuedAuthn.value(token.guid, at: now), issued.token == token, now < token.expires else {
            throw .xml(401, SDKFamily.notAuthenticated)
        }
        return issued
    }
}
