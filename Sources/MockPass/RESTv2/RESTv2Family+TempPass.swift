import Crypto
import PassModel

/// TempPass on REST API v2. Adobe's pages mark a session "not required" for TempPass: a decision,
/// a profile query or a session naming a TempPass MVPD starts the device's TempPass on its first use
/// (per identity too for a promotional one, read from `AP-TempPass-Identity`), and every later call
/// reads that same use. A TempPass ends `ttl` after its first use whatever happens (rest-api-v2.md
/// 1.5); a logout does not undo it.
extension RESTv2Family {
    /// Which use a request names: the device's, and for a promotional TempPass the identity's, whose
    /// `AP-TempPass-Identity` is then required. A malformed header →
    /// `invalid_header_identity_for_temporary_access`.
    func v2TempPassKey(_ tempPass: World.TempPass, deviceID: String, _ r: IncomingRequest) throws(V2Failure)
        -> V2TempPassKey
    {
        let identity = try r.request.headers.tempPassIdentity()
        if tempPass.promotional, identity == nil {
            throw V2Failure(
                .invalidHeaderIdentityForTemporaryAccess, "a promotional TempPass needs AP-TempPass-Identity")
        }
        return V2TempPassKey(
            deviceID: deviceID, mvpdID: tempPass.mvpdID, identity: tempPass.promotional ? identity : nil)
    }

    /// The use `useKey` names, started now if it never was; one past its end →
    /// `temporary_access_duration_limit_exceeded`.
    mutating func v2TempPassUse(_ tempPass: World.TempPass, _ useKey: V2TempPassKey, at now: Instant)
        throws(V2Failure) -> V2TempPassUse
    {
        if var known = tempPassUses.value(useKey, at: now) {
            guard now < known.expires else {
                // The use stays (an ended pass stays ended); what it authorized ends with it.
                if !known.resources.isEmpty {
                    known.forgetResources()
                    tempPassUses.set(useKey, known, until: ExpiringStore<V2TempPassKey, V2TempPassUse>.forever)
                }
                throw V2Failure(.temporaryAccessDurationLimitExceeded, "the TempPass of this device ended")
            }
            return known
        }
        let use = V2TempPassUse(started: now, expires: now + tempPass.ttl)
        tempPassUses.set(useKey, use, until: ExpiringStore<V2TempPassKey, V2TempPassUse>.forever)
        return use
    }

    /// The temporary profile of the request's TempPass, started on first use and stored under the
    /// device's key (so `profiles` lists it and a logout ends it). `forProfile`: a profile query,
    /// which a promotional TempPass with no resource left refuses with
    /// `temporary_access_resources_limit_exceeded` (a decision refuses only a new resource).
    mutating func v2TempPassProfile(
        _ tempPass: World.TempPass, _ key: V2ProfileKey, _ r: IncomingRequest, forProfile: Bool = false,
        in context: inout MockContext, at now: Instant
    ) throws(V2Failure) -> V2Profile {
        if context.world.restV2.fault(of: key.mvpdID) == .configurationTemporaryAccess {
            throw V2Failure(.configurationTemporaryAccess, "the world's fault for \(key.mvpdID)")
        }
        let useKey = try v2TempPassKey(tempPass, deviceID: key.deviceID, r)
        let use = try v2TempPassUse(tempPass, useKey, at: now)
        if forProfile, let limit = v2TempPassResourceLimit(key.mvpdID, in: context), use.resources.count >= limit {
            throw V2Failure(.temporaryAccessResourcesLimitExceeded, "the TempPass allows \(limit) resources")
        }
        if let stored = profiles.value(key, at: now), case .tempPass(let storedKey) = stored.origin,
            storedKey == useKey, stored.notAfter == use.expires
        {
            return stored
        }
        let profile = V2Profile(
            origin: .tempPass(useKey), sessionID: context.random.guid(), notBefore: use.started, notAfter: use.expires)
        v2Store(profile, key, limits: context.limits)
        return profile
    }

    /// How many resources a promotional TempPass of this MVPD may authorize, if the world limits it.
    func v2TempPassResourceLimit(_ mvpdID: String, in context: MockContext) -> Int? {
        context.world.restV2.tempPassResourceLimits.first { $0.mvpdID == mvpdID }?.resources
    }

    /// A temporary profile's attributes as Adobe's samples show them: a promotional TempPass's
    /// `remaining_resources` and `used_assets` (when the world limits its resources), then
    /// `expiration_date` (milliseconds) and `userID` (`temppass_` and a digest of the use).
    func v2TempPassAttributes(_ useKey: V2TempPassKey, in context: MockContext, at now: Instant) -> [Value.Entry] {
        let use = tempPassUses.value(useKey, at: now)
        var out: [Value.Entry] = []
        if useKey.identity != nil, let limit = v2TempPassResourceLimit(useKey.mvpdID, in: context) {
            let used = use?.resources ?? []
            out.append(Self.v2Attribute("remaining_resources", .int(max(limit - used.count, 0))))
            out.append(Self.v2Attribute("used_assets", .list(used.map(Value.string))))
        }
        if let use { out.append(Self.v2Attribute("expiration_date", Self.v2Millis(use.expires))) }
        let digest = Self.v2Digest([useKey.deviceID, useKey.mvpdID, useKey.identity ?? ""])
        out.append(Self.v2Attribute("userID", .string("temppass_" + digest)))
        return out
    }

    /// A plain profile attribute, `{value, state}`.
    static func v2Attribute(_ name: String, _ value: Value) -> Value.Entry {
        Value.Entry(name, .dict([Value.Entry("value", value), Value.Entry("state", .string("plain"))]))
    }

    /// 40 hex digits naming what has no user (a TempPass, a degraded profile) the same way on every
    /// call: the SHA-1 of the parts, as long as the ids in Adobe's samples.
    static func v2Digest(_ parts: [String]) -> String {
        Insecure.SHA1.hash(data: Array(parts.joined(separator: "\u{0}").utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
