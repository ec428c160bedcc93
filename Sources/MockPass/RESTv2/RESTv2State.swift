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

    mutating func expire(at now: Instant) {
        sessions.expire(at: now)
        profiles.expire(at: now)
        buckets.expire(at: now)
        oauthCodes.expire(at: now)
    }
}
