import PassModel

/// Everything REST v2 keeps, apart from the v1/SDK families' state: Adobe does not carry a
/// login across the migration (rest-api-v2.md 1.1), so neither family sees the other's authentication.
struct RESTv2State: Sendable {
    var sessions = ExpiringStore<String, V2AuthSession>(capacity: V2Limits.sessions)
    var profiles = ExpiringStore<V2ProfileKey, V2Profile>(capacity: V2Limits.profiles)
    var tempPassUses = ExpiringStore<V2TempPassKey, V2TempPassUse>(capacity: V2Limits.tempPassUses)
    var buckets = ExpiringStore<String, V2Bucket>(capacity: V2Limits.throttleDevices)
    /// Authorization codes the OAuth2 IdPs issued (`V2OAuth`), until redeemed or expired.
    var oauthCodes = ExpiringStore<String, V2OAuthGrant>(capacity: V2Limits.oauthCodes)
    /// Profiles shared through a service token or a platform identity (`V2SSO`), by identity and MVPD.
    var ssoGrants = ExpiringStore<V2SSOKey, V2SSOGrant>(capacity: V2Limits.profiles)
    /// Single logouts of SSO profiles whose user agent has not reached the SP yet, by `pt_device_id`.
    var ssoLogouts = ExpiringStore<String, V2SSOLogout>(capacity: V2Limits.sessions)
    /// The browser a v2 login went through, by its SP cookie (`JSESSIONID`): the SP's `logout`
    /// opened later in that browser ends that login at the IdP, as Adobe's does with its cookies.
    var browserLogins = ExpiringStore<String, V2BrowserLogin>(capacity: V2Limits.sessions)

    mutating func expire(at now: Instant) {
        sessions.expire(at: now)
        profiles.expire(at: now)
        buckets.expire(at: now)
        oauthCodes.expire(at: now)
        ssoGrants.expire(at: now)
        ssoLogouts.expire(at: now)
        browserLogins.expire(at: now)
    }
}
