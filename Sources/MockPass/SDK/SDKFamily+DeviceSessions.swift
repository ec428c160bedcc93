import PassModel
import PassXML

/// Device-bound sessions: how `sessionDevice` answers a device with no browser login (TempPass,
/// tvOS codes, Apple SSO), TempPass itself, and REST API v1 logout (REST v1 shares these sessions:
/// `RESTv1Family` reads them).
extension SDKFamily {
    /// The device-bound session of (`device_id`, `requestor_id`), while its token is unexpired.
    func deviceBoundSession(_ r: IncomingRequest, at now: Instant) -> DeviceSession? {
        guard let deviceID = r.parameter("device_id"), !deviceID.isEmpty,
            let requestorID = r.parameter("requestor_id"), !requestorID.isEmpty
        else { return nil }
        let key = DeviceKey(deviceID: deviceID, requestorID: requestorID)
        guard let session = deviceSessions.value(key, at: now), now < session.token.expires else { return nil }
        return session
    }

    /// `<result>` with the token, and `<userMeta>` when the subject is a real user.
    func tokenReply(_ token: AuthnToken, subject: TokenSubject, in context: MockContext, at now: Instant)
        -> HTTPResponse
    {
        var meta: Value?
        if case .user(let key) = subject, let user = context.world.user(mvpdID: key.mvpdID, name: key.userName) {
            meta = SDKFamily.userMetadata(of: user, at: now)
        }
        return Reply.xml(
            SessionDeviceXML.build(.token(token), userMeta: meta),
            decoded: SessionDeviceXML.Answer(content: .token(token), userMeta: meta))
    }

    /// `usermetadata` (both families; facts §4: `requestor`, `authn`, `metadata`): the user metadata of
    /// the authN token in `authn` (or `authentication_token`), as JSON in the `tokens/usermetadata`
    /// shape, encrypted keys still encrypted. A TempPass has no user: 404.
    func userMetadata(_ sp: World.ServiceProvider, _ r: IncomingRequest, in context: MockContext, at now: Instant)
        throws(HandlerFailure) -> HTTPResponse
    {
        let requestorID = try SDKFamily.either(r, "requestor", "requestor_id")
        _ = try context.knownRequestor(requestorID, at: sp)
        let text = try SDKFamily.either(r, "authn", "authentication_token")
        let token = try r.authnToken(text)
        guard let issued = issuedAuthn.value(token.guid, at: now), issued.token == token, now < token.expires else {
            throw .xml(401, SDKFamily.notAuthenticated)
        }
        guard case .user(let key) = issued.subject,
            let user = context.world.user(mvpdID: key.mvpdID, name: key.userName)
        else {
            throw .xml(404, "No user metadata for this authentication")
        }
        return HTTPResponse(
            status: 200, contentType: Reply.json, text: SDKFamily.userMetadata(of: user, at: now).jsonText)
    }

    /// The first of two names a client may send a parameter under; a 400 names the first.
    static func either(_ r: IncomingRequest, _ name: String, _ other: String) throws(HandlerFailure) -> String {
        if let v = r.parameter(name), !v.isEmpty { return v }
        if let v = r.parameter(other), !v.isEmpty { return v }
        throw .badRequest("missing parameter \(name)")
    }

    /// REST API v1's `tokens/usermetadata` shape: `{"updated": now, "encrypted": [keys], "data": {…}}`.
    /// `data` is the user's metadata in order, plus `userID` (their name) when it lacks one; a key
    /// listed as encrypted carries `UserMetaCipher.encrypt(value)` instead of the value.
    static func userMetadata(of user: World.User, at now: Instant) -> Value {
        var data = user.meta
        if !data.contains(where: { $0.key == "userID" }) { data.append(Value.Entry("userID", .string(user.name))) }
        data = data.map { user.encrypted.contains($0.key) ? Value.Entry($0.key, UserMetaCipher.encrypt($0.value)) : $0 }
        return .dict([
            Value.Entry("updated", .int(Int(now.milliseconds))),
            Value.Entry("encrypted", .list(user.encrypted.map(Value.string))),
            Value.Entry("data", .dict(data)),
        ])
    }

    /// Binds a new token for a real user to (device, requestor), replacing any earlier session there.
    mutating func bindUser(
        _ user: IdPFamily.UserKey, deviceID: String, requestorID: String, nameID: String,
        sessionIndex: String, in context: inout MockContext, at now: Instant
    ) {
        let ttl = context.world.requestor(requestorID)?.authnTTL ?? .hours(24)
        let token = AuthnToken(
            guid: context.random.guid(), requestorID: requestorID, domainName: "adobe.com",
            expires: (now + ttl).wholeSeconds, mvpdID: user.mvpdID, deviceID: deviceID,
            nameID: nameID, sessionIndex: sessionIndex)
        bind(token, subject: .user(user), limits: context.limits)
    }

    mutating func bind(_ token: AuthnToken, subject: TokenSubject, limits: MockLimits) {
        deviceSessions.set(
            DeviceKey(deviceID: token.deviceID, requestorID: token.requestorID),
            DeviceSession(token: token, subject: subject), until: token.expires + limits.expiredMemory)
        issuedAuthn.set(token.guid, IssuedAuthn(token: token, subject: subject), until: token.expires)
    }

    /// `authenticate/freepreview` (facts §8). The first use of a TempPass on a device (and e-mail, for
    /// a promotional one) starts it; until it ends every use answers 204 with the same expiry, after
    /// that 403. Each 204 makes sure the device-bound session holds a token with that expiry: an
    /// unchanged session keeps its token (and GUID), anything else gets a new one.
    mutating func freePreview(
        _ sp: World.ServiceProvider, _ r: IncomingRequest, in context: inout MockContext,
        at now: Instant
    ) throws(HandlerFailure) -> HTTPResponse {
        let requestorID = try r.required("requestor_id")
        let mvpdID = try r.required("mso_id")
        let deviceID = try r.required("device_id")
        let requestor = try context.knownRequestor(requestorID, at: sp)
        guard context.world.mvpds(offeredBy: sp, to: requestor).contains(where: { $0.id == mvpdID }),
            let tempPass = context.world.tempPass(for: mvpdID)
        else {
            throw .badRequest("MVPD \(mvpdID) is not a TempPass offered to \(requestorID)")
        }
        var email: String?
        if tempPass.promotional {
            guard let data = r.parameter("generic_data"), !data.isEmpty else {
                throw .badRequest("a promotional TempPass needs generic_data with an email")
            }
            let json: Value
            do {
                json = try Value(jsonText: data)
            } catch {
                throw .badRequest("malformed generic_data: \(error.message)")
            }
            guard let e = json["email"]?.stringValue, !e.isEmpty else {
                throw .badRequest("generic_data has no email")
            }
            email = e
        }
        let key = TempPassKey(deviceID: deviceID, mvpdID: mvpdID, email: email)
        let expires: Instant
        if let known = tempPassExpiry.value(key, at: now) {
            guard now < known else { throw .xml(403, "TempPass expired") }
            expires = known
        } else {
            expires = (now + tempPass.ttl).wholeSeconds
            tempPassExpiry.set(key, expires, until: ExpiringStore<TempPassKey, Instant>.forever)
        }
        let existing = deviceSessions.value(DeviceKey(deviceID: deviceID, requestorID: requestorID), at: now)
        if existing?.subject != .tempPass(key) || existing?.token.expires != expires {
            bind(
                AuthnToken(
                    guid: context.random.guid(), requestorID: requestorID, domainName: "adobe.com", expires: expires,
                    mvpdID: mvpdID, deviceID: deviceID, nameID: "", sessionIndex: ""),
                subject: .tempPass(key), limits: context.limits)
        }
        return Reply.noContent
    }

    /// `DELETE /api/v1/logout`: ends every device-bound session of the device (all requestors). It
    /// leaves TempPass usage alone, and tokens already issued stay valid until they expire.
    mutating func deviceLogout(_ r: IncomingRequest) throws(HandlerFailure) -> HTTPResponse {
        _ = try r.required("requestor")
        let deviceID = try r.required("deviceId")
        deviceSessions.removeAll { key, _ in key.deviceID == deviceID }
        return Reply.noContent
    }
}
