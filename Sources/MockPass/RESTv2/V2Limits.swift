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
    static let throttleDevices = 20_000
    static let throttleMemory = Millis.hours(24)
    /// `mock-v2-header-bytes`: the longest AP-Device-Identifier, X-Device-Info, AP-Partner-Framework-Status
    /// or AP-TempPass-Identity value read; a longer one is refused as invalid.
    static let headerBytes = 8192
    /// `mock-v2-resource-bytes`: the longest resource (an MRSS document included).
    static let resourceBytes = 16_384
    /// `mock-v2-value-bytes`: the longest `redirectUrl` or `domainName` a session or logout takes; a
    /// longer redirect is `invalid_parameter_redirect_url`, a longer domain counts as not given.
    static let valueBytes = 2048
    /// `mock-v2-oauth-codes`: OAuth2 authorization codes, each kept 5 minutes or until redeemed.
    static let oauthCodes = 20_000
    /// The length of a session code (Adobe's are 7 characters).
    static let codeLength = 7
}
