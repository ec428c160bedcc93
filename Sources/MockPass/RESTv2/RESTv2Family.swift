import PassModel

/// REST API v2: everything it keeps, apart from the v1/SDK families' state, and its handlers
/// (`RESTv2Family+*.swift`). Adobe does not carry a login across the migration (rest-api-v2.md 1.1),
/// so neither family sees the other's authentication; but a v2 login and logout go through the SDK
/// family's SAML pages, which reach this family only through the methods at the end of this file.
/// Every store is capped in count (`V2Limits`) and in bytes (`mock-store-bytes`, as `Footprint` counts
/// an entry), as the other families' are: the values are held to `mock-v2-value-bytes` at the door,
/// and the byte cap bounds what a count of entries made large on purpose could still hold.
struct RESTv2Family: Sendable {
    var sessions: ExpiringStore<String, V2AuthSession>
    var profiles: ExpiringStore<V2ProfileKey, V2Profile>
    var tempPassUses: ExpiringStore<V2TempPassKey, V2TempPassUse>
    /// Throttle buckets, bounded in count; each key short whatever a client sends (`HTTPHeaders.throttleKey`).
    var buckets: V2BucketTable
    /// The app's `redirectUrl` of each OAuth2 logout whose user agent is at the IdP, by its `state`.
    var oauthLogouts: ExpiringStore<String, String>
    /// Profiles shared through a service token or a platform identity (`V2SSO`), by identity and MVPD.
    var ssoGrants: ExpiringStore<V2SSOKey, V2SSOGrant>
    /// Single logouts of SSO profiles whose user agent has not reached the SP yet, by `pt_device_id`.
    var ssoLogouts: ExpiringStore<String, V2SSOLogout>
    /// The browser a v2 login went through, by its SP cookie (`JSESSIONID`): the SP's `logout`
    /// opened later in that browser ends that login at the IdP, as Adobe's does with its cookies.
    var browserLogins: ExpiringStore<String, V2BrowserLogin>

    init(limits: MockLimits) {
        let bytes = limits.storeBytes
        sessions = ExpiringStore(capacity: V2Limits.sessions, maxBytes: bytes)
        profiles = ExpiringStore(capacity: V2Limits.profiles, maxBytes: bytes)
        tempPassUses = ExpiringStore(capacity: V2Limits.tempPassUses, maxBytes: bytes)
        buckets = V2BucketTable(capacity: V2Limits.throttleDevices)
        oauthLogouts = ExpiringStore(capacity: V2Limits.sessions, maxBytes: bytes)
        ssoGrants = ExpiringStore(capacity: V2Limits.profiles, maxBytes: bytes)
        ssoLogouts = ExpiringStore(capacity: V2Limits.sessions, maxBytes: bytes)
        browserLogins = ExpiringStore(capacity: V2Limits.sessions, maxBytes: bytes)
    }

    mutating func expire(at now: Instant) {
        sessions.expire(at: now)
        profiles.expire(at: now)
        buckets.expire(at: now)
        oauthLogouts.expire(at: now)
        ssoGrants.expire(at: now)
        ssoLogouts.expire(at: now)
        browserLogins.expire(at: now)
    }
}

// MARK: - What the SDK family's SAML pages do for REST v2

extension RESTv2Family {
    /// A single logout under way for the device `deviceRef` (`pt_device_id`), taken: the SP's
    /// `logout` page ends it.
    mutating func takeSSOLogout(_ deviceRef: String, at now: Instant) -> V2SSOLogout? {
        guard let logout = ssoLogouts.value(deviceRef, at: now) else { return nil }
        ssoLogouts.remove(deviceRef)
        return logout
    }

    /// The v2 login made in this browser for `mvpdID`, by the last of its SP cookies that names
    /// one, taken: the SP's `logout` page opened in that browser ends it at the IdP.
    mutating func takeBrowserLogin(cookies: [String], mvpdID: String?, at now: Instant) -> V2BrowserLogin? {
        let browserID = cookies.last { browserLogins.value($0, at: now)?.mvpdID == mvpdID }
        let browser = browserID.flatMap { browserLogins.value($0, at: now) }
        if let browserID { browserLogins.remove(browserID) }
        return browser
    }
}
