import PassModel
import PassXML

/// Profiles and logout.
extension RESTv2Family {
    /// `GET /{sp}/profiles` (every MVPD, in the SP's order) and `GET /{sp}/profiles/{mvpd}`: the
    /// device's live profiles; none is an empty map, not an error.
    /// A TempPass MVPD's profile needs no session: asking for it starts the TempPass on first use,
    /// and a TempPass past its end (or a promotional one with no resource left) answers 403.
    mutating func v2Profiles(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, mvpd: String?, _ r: IncomingRequest,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let device = try V2Device.from(r.request.headers)
        let mvpds: [MVPD]
        if let mvpd {
            let m = try v2MVPD(mvpd, sp, requestor, in: context)
            let key = V2ProfileKey(deviceID: device.id, requestorID: requestor.id, mvpdID: m.id)
            var made: V2Profile?
            if let tempPass = context.world.tempPass(for: m.id) {
                made = try v2TempPassProfile(tempPass, key, r, forProfile: true, in: &context, at: now)
            } else if v2Profile(key, r, in: context, at: now) == nil,
                context.world.restV2.degradation(of: m.id) == .authenticateAll
            {
                // AuthNAll: a degraded profile needs no session either (the profiles page's sample).
                made = v2DegradedProfile(requestor, key, in: &context, at: now)
            }
            if let made {
                return Self.v2JSON([
                    Value.Entry(
                        "profiles", .dict([Value.Entry(m.id, v2ProfileObject(made, key: key, in: context, at: now))]))
                ])
            }
            mvpds = [m]
        } else {
            mvpds = context.world.mvpds(offeredBy: sp, to: requestor)
        }
        var entries: [Value.Entry] = []
        for m in mvpds {
            let key = V2ProfileKey(deviceID: device.id, requestorID: requestor.id, mvpdID: m.id)
            if let profile = v2Profile(key, r, in: context, at: now) {
                entries.append(Value.Entry(m.id, v2ProfileObject(profile, key: key, in: context, at: now)))
            }
        }
        return Self.v2JSON([Value.Entry("profiles", .dict(entries))])
    }

    /// `GET /{sp}/profiles/code/{code}`: what a device polls while a user logs in elsewhere. Empty
    /// until the session's login completes, then the profile it made.
    /// A session that ended in a TempPass answers that TempPass's profile as `profiles/{mvpd}`
    /// does, with its 403s.
    mutating func v2ProfileForCode(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, code: String, _ r: IncomingRequest,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let session = try v2Session(code, requestor, at: now)
        // The session names its MVPD: that MVPD's configuration faults fail this call too.
        if let mvpdID = session.parameters.mvpd { _ = try v2MVPD(mvpdID, sp, requestor, in: context) }
        var entries: [Value.Entry] = []
        if case .authenticated(let done) = session.state {
            let key = V2ProfileKey(deviceID: session.deviceID, requestorID: requestor.id, mvpdID: done.mvpdID)
            if let tempPass = context.world.tempPass(for: done.mvpdID) {
                let profile = try v2TempPassProfile(tempPass, key, r, forProfile: true, in: &context, at: now)
                entries.append(Value.Entry(done.mvpdID, v2ProfileObject(profile, key: key, in: context, at: now)))
            } else if let profile = v2LiveProfile(key, at: now) {
                entries.append(Value.Entry(done.mvpdID, v2ProfileObject(profile, key: key, in: context, at: now)))
            }
        }
        return Self.v2JSON([Value.Entry("profiles", .dict(entries))])
    }

    /// One profile: `notBefore`, `notAfter`, `issuer`, `type`, `attributes` (`{value, state}` each;
    /// the user's metadata, `userID` first, a key the world marks encrypted as `enc`).
    /// A temporary profile's are its TempPass's (`v2TempPassAttributes`); a degraded one's, a
    /// `userID` of Adobe's degradation prefix and a digest of the device.
    func v2ProfileObject(_ p: V2Profile, key: V2ProfileKey, in context: MockContext, at now: Instant) -> Value {
        let world = context.world
        let mvpdID = key.mvpdID
        var attributes: [Value.Entry] = []
        if case .sso(_, let subscriber) = p.origin {
            // Adobe's SSO samples: the upstream user id, the user id, the MVPD.
            let user = world.user(mvpdID: subscriber.user.mvpdID, name: subscriber.user.userName)
            let userID = user?.meta.first { $0.key == "userID" }?.value ?? .string(subscriber.user.userName)
            attributes = [
                Self.v2Attribute("upstreamUserID", userID), Self.v2Attribute("userID", userID),
                Self.v2Attribute("mvpd", .string(mvpdID)),
            ]
        } else if case .tempPass(let useKey) = p.origin {
            attributes = v2TempPassAttributes(useKey, in: context, at: now)
        } else if case .degraded = p.origin {
            let digest = Self.v2Digest([key.deviceID, key.requestorID, mvpdID])
            attributes = [Self.v2Attribute("userID", .string(Self.v2DegradedUserPrefix + digest))]
        } else if let subscriber = p.subscriber,
            let user = world.user(mvpdID: subscriber.user.mvpdID, name: subscriber.user.userName)
        {
            var meta = user.meta.filter { $0.key != "userID" }
            let userID = user.meta.first { $0.key == "userID" }?.value ?? .string(user.name)
            meta.insert(Value.Entry("userID", userID), at: 0)
            for entry in meta {
                let encrypted = user.encrypted.contains(entry.key)
                attributes.append(
                    Value.Entry(
                        entry.key,
                        .dict([
                            Value.Entry("value", encrypted ? UserMetaCipher.encrypt(entry.value) : entry.value),
                            Value.Entry("state", .string(encrypted ? "enc" : "plain")),
                        ])))
            }
        }
        return .dict([
            Value.Entry("notBefore", Self.v2Millis(p.notBefore)),
            Value.Entry("notAfter", Self.v2Millis(p.notAfter)),
            Value.Entry("issuer", .string(p.issuer(mvpdID: mvpdID))), Value.Entry("type", .string(p.type)),
            Value.Entry("attributes", .dict(attributes)),
        ])
    }

    /// The prefix Adobe's degraded profiles' `userID` starts with (profiles page, degradation sample).
    static let v2DegradedUserPrefix = "95cf93bcd183214a"

    /// `GET /{sp}/logout/{mvpd}`: ends the device's profile and says what the user agent must do:
    /// `logout`/`interactive` with the SP's SAML logout URL for a login at an IdP,
    /// `partner_logout`/`partner_interactive` for Apple SSO (the user also logs out in Settings),
    /// `complete`/`none` for a TempPass or degraded profile or an MVPD without a logout endpoint,
    /// `invalid`/`none` when the device has no profile. A TempPass's use is not undone by a logout.
    /// A request carrying an SSO identity that shares this MVPD's profile (`V2SSO`) is a single
    /// logout: every profile shared through it ends, and the SP's logout URL names the device
    /// (`pt_device_id`, relative, as Adobe's samples write it) instead of a redirect.
    mutating func v2Logout(
        _ sp: World.ServiceProvider, _ requestor: World.Requestor, mvpdID: String, _ r: IncomingRequest,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> HTTPResponse {
        let world = context.world
        let device = try V2Device.from(r.request.headers)
        _ = try v2MVPD(mvpdID, sp, requestor, in: context)
        // Adobe's logout page makes `redirectUrl` required, whatever the logout turns out to be.
        guard let redirect = r.parameter("redirectUrl").flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw V2Failure(.invalidParameterRedirectURL, "missing parameter redirectUrl")
        }
        try Self.v2CheckRedirect(redirect)
        let key = V2ProfileKey(deviceID: device.id, requestorID: requestor.id, mvpdID: mvpdID)
        let shared = r.request.headers.ssoIdentities(world.restV2, at: now).filter {
            ssoGrants.value(V2SSOKey(identity: $0, mvpdID: mvpdID), at: now) != nil
        }
        guard let profile = v2Profile(key, r, in: context, at: now) else {
            return Self.v2Logouts(mvpdID, Self.v2LogoutAction("invalid", "none", mvpdID))
        }
        let idp = world.restV2.noLogoutMVPDs.contains(mvpdID) ? nil : world.identityProvider(for: mvpdID)
        profiles.remove(key)
        for identity in shared { ssoGrants.remove(V2SSOKey(identity: identity, mvpdID: mvpdID)) }
        switch profile.origin {
        case .login(let s), .sso(_, let s):
            guard let idp else { break }
            var e = Self.v2LogoutAction("logout", "interactive", mvpdID)
            if world.restV2.oauth2MVPDs.contains(mvpdID) {
                e.append(
                    Value.Entry("url", .string(v2OAuthLogoutURL(sp, idp, redirect: redirect, in: &context, at: now))))
            } else if !shared.isEmpty {
                let deviceRef = Self.v2Digest([device.id, requestor.id])
                ssoLogouts.set(
                    deviceRef, V2SSOLogout(subscriber: s, redirectURL: redirect),
                    until: now + context.limits.logoutSessionTTL)
                let page = joinURL(sp.url, Route.logout.path())
                let query = FormCoding.encode([
                    ("requestor_id", requestor.id), ("mso_id", mvpdID), ("pt_device_id", deviceRef),
                ])
                e.append(Value.Entry("url", .string((URLParts(page)?.path ?? Route.logout.path()) + "?" + query)))
            } else {
                // Adobe's URL names no session: the browser that logged in is known by its cookie
                // (`browserLogins`); another browser only reaches `redirect_url`.
                let url =
                    joinURL(sp.url, Route.logout.path()) + "?"
                    + FormCoding.encode([
                        ("noflash", "true"), ("mso_id", mvpdID), ("requestor_id", requestor.id),
                        ("redirect_url", redirect),
                    ])
                e.append(Value.Entry("url", .string(url)))
            }
            return Self.v2Logouts(mvpdID, e)
        case .appleSSO:
            return Self.v2Logouts(mvpdID, Self.v2LogoutAction("partner_logout", "partner_interactive", mvpdID))
        case .tempPass, .degraded:
            break
        }
        return Self.v2Logouts(mvpdID, Self.v2LogoutAction("complete", "none", mvpdID))
    }

    static func v2Logouts(_ mvpdID: String, _ entries: [Value.Entry]) -> HTTPResponse {
        Self.v2JSON([Value.Entry("logouts", .dict([Value.Entry(mvpdID, .dict(entries))]))])
    }

    static func v2LogoutAction(_ name: String, _ type: String, _ mvpdID: String) -> [Value.Entry] {
        [
            Value.Entry("actionName", .string(name)), Value.Entry("actionType", .string(type)),
            Value.Entry("mvpd", .string(mvpdID)),
        ]
    }
}
