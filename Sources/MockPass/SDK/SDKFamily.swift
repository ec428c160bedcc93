import PassModel
import PassXML

/// The SDK's families (the device and web endpoints of an SP, the tvOS registration codes, TempPass,
/// the Apple SSO token exchange): the SP's login and logout sessions, the tokens it issued, the
/// device-bound sessions, and the handlers over them (`SDKFamily+*.swift`). REST v1 reads the
/// device-bound sessions and ends them (`RESTv1Family`); REST v2 keeps none of it (`RESTv2Family`).
/// A login a REST v2 session started, and a logout of one, go through this family's SAML pages:
/// those handlers take `RESTv2Family` as a parameter, as the assertion consumer and the Apple SSO
/// exchange take `IdPFamily` (whose NameIDs name the users).
struct SDKFamily: Sendable {
    /// SP login sessions by `JSESSIONID`.
    var loginSessions: ExpiringStore<String, LoginSession>
    /// SP logout sessions by RelayState.
    var logoutSessions: ExpiringStore<String, LogoutSession>
    /// The SAML sessions (NameID, SessionIndex) an SP logout is under way for: their other SP sessions
    /// answer `<pendingLogout>` until the IdP's answer ends them. One per logout session, same cap.
    var pendingLogouts: ExpiringStore<SAMLSessionKey, Bool>
    /// Every live authN token the SPs issued, by GUID: `authorizeDevice` and `preauthorize` accept only these.
    var issuedAuthn: ExpiringStore<String, IssuedAuthn>
    /// Every authZ token issued, kept `expiredMemory` past its expiry; `deviceShortAuthorize` accepts only these.
    var issuedAuthz: ExpiringStore<AuthzToken, Bool>
    /// Sessions bound to a device rather than a browser cookie (TempPass, tvOS codes, Apple SSO).
    var deviceSessions: ExpiringStore<DeviceKey, DeviceSession>
    /// When each TempPass ends, from its first use; kept across logouts, as Adobe keeps it.
    var tempPassExpiry: ExpiringStore<TempPassKey, Instant>
    /// tvOS registration codes by code.
    var registrationCodes: ExpiringStore<String, RegistrationCode>
    /// `/config` answers already built (see `config(_:requestorID:in:)`); a cache, never part of an answer's logic.
    var configResponses: [ConfigKey: HTTPResponse] = [:]

    struct ConfigKey: Hashable, Sendable {
        var spName: String
        var requestorID: String
    }

    init(limits: MockLimits) {
        loginSessions = ExpiringStore(capacity: limits.loginSessions, maxBytes: limits.storeBytes)
        logoutSessions = ExpiringStore(capacity: limits.logoutSessions, maxBytes: limits.storeBytes)
        pendingLogouts = ExpiringStore(capacity: limits.logoutSessions, maxBytes: limits.storeBytes)
        issuedAuthn = ExpiringStore(capacity: limits.authnTokens, maxBytes: limits.storeBytes)
        issuedAuthz = ExpiringStore(capacity: limits.authzTokens, maxBytes: limits.storeBytes)
        deviceSessions = ExpiringStore(capacity: limits.deviceSessions, maxBytes: limits.storeBytes)
        tempPassExpiry = ExpiringStore(capacity: limits.tempPassUses, maxBytes: limits.storeBytes)
        registrationCodes = ExpiringStore(capacity: limits.registrationCodes, maxBytes: limits.storeBytes)
    }

    /// Lets go of what ended by `now` (lookups check expiry themselves: this only bounds memory).
    mutating func expire(at now: Instant) {
        loginSessions.expire(at: now)
        logoutSessions.expire(at: now)
        pendingLogouts.expire(at: now)
        issuedAuthn.expire(at: now)
        issuedAuthz.expire(at: now)
        deviceSessions.expire(at: now)
        registrationCodes.expire(at: now)
    }
}
