import PassModel

/// What REST v2 keeps, bounded like the rest of the mock (docs/LIMITS.md, `mock-v2-*`): each store
/// by a count, the oldest entry going first, and by the natural lifetime of what it holds.
enum V2Limits {
    /// `mock-v2-sessions`: authentication sessions (by code), each kept until its `notAfter`.
    static let sessions = 20_000
    /// `mock-v2-profiles`: profiles per (device, requestor, MVPD), kept `expiredMemory` past their end
    /// so an expired one answers `authenticated_profile_expired` rather than `..._missing`.
    static let profiles = 20_000
    /// `mock-v2-temppass-uses`: TempPass uses per (device, MVPD, identity); never expire but by the cap.
    static let tempPassUses = 20_000
    /// `mock-v2-throttle-devices`: token buckets, each forgotten a day after the device's last call.
    /// At the cap a new key takes the place of an idle or whole bucket, else is refused (`V2BucketTable`).
    static let throttleDevices = 20_000
    static let throttleMemory = Millis.hours(24)
    /// `mock-v2-throttle-idle`: a bucket not called for this long may make room for a new key at the
    /// cap. Its device then gets its burst again, but only after waiting ten minutes, in which it could
    /// have made 600 calls anyway.
    static let throttleIdle = Millis.minutes(10)
    /// `mock-v2-header-bytes`: the longest AP-Partner-Framework-Status or SSO token read (neither is
    /// kept whole); a longer one is refused as invalid. The headers a session or profile keeps are
    /// held to `valueBytes` instead.
    static let headerBytes = 8192
    /// `mock-v2-resource-bytes`: the longest resource (an MRSS document included).
    static let resourceBytes = 16_384
    /// `mock-v2-value-bytes`: the longest value REST v2 or the OAuth2 IdP may keep: a form value
    /// (`mvpd`, `domainName`, `redirectUrl`), an OAuth2 parameter, and the headers a session, profile or
    /// TempPass use keeps (AP-Device-Identifier, X-Device-Info, AP-TempPass-Identity; a User-Agent is
    /// cut to it). Refused at the door with the value's own code, so an entry is bounded in bytes as
    /// its store is in count; a 900 KB `redirect_uri` was kept whole per OAuth2 code.
    static let valueBytes = 2048
    /// `mock-v2-temppass-resources`: the most resources one TempPass use remembers (only a use whose
    /// MVPD has a resource limit remembers any: nothing else reads them). Past it, or past
    /// `tempPassResourceBytes`, a new resource is `temporary_access_resources_limit_exceeded`.
    static let tempPassResources = 1000
    /// `mock-v2-temppass-resource-bytes`: the resources one TempPass use remembers, in bytes.
    static let tempPassResourceBytes = 65_536
    /// `mock-v2-oauth-codes`: OAuth2 authorization codes, each kept 5 minutes or until redeemed.
    static let oauthCodes = 20_000
    /// The length of a session code (Adobe's are 7 characters).
    static let codeLength = 7
}
