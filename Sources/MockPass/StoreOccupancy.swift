/// How full one of the mock's bounded stores is (docs/LIMITS.md, "Mock state"): what `passim serve`'s
/// `GET /admin/stores` shows, so a soak can tell when its stores have filled and its memory should
/// stop growing. Read under the server's lock; a few numbers per store, nothing copied.
public struct StoreOccupancy: Hashable, Sendable {
    /// The store, as docs/LIMITS.md's table of stores names it (`v2-sessions`, `authz-tokens`, …).
    public var store: String
    /// The limit on its count (`mock-v2-sessions`).
    public var limit: String
    /// Entries held (live, or expired and not yet swept).
    public var count: Int
    public var capacity: Int
    /// Its entries' size as `Footprint` counts them, when the store is capped in bytes (`mock-store-bytes`).
    public var bytes: Int?
    public var maxBytes: Int?

    /// Whether the store is at its cap, in count or (within one entry's worth, 16 KiB) in bytes.
    public var full: Bool {
        count >= capacity || (bytes.map { b in maxBytes.map { b + 16_384 >= $0 } ?? false } ?? false)
    }
}

extension ExpiringStore {
    func occupancy(_ store: String, limit: String) -> StoreOccupancy {
        StoreOccupancy(
            store: store, limit: limit, count: count, capacity: capacity, bytes: maxBytes == nil ? nil : bytes,
            maxBytes: maxBytes)
    }
}

extension MockPass {
    /// Every store a server fills, with the request log first (docs/LIMITS.md's names).
    public var storeOccupancy: [StoreOccupancy] {
        [
            StoreOccupancy(
                store: "request-log", limit: "mock-log-entries", count: requestLog.count,
                capacity: requestLog.maxEntries ?? Int.max, bytes: requestLog.bytes, maxBytes: requestLog.maxBytes),
            sdk.loginSessions.occupancy("login-sessions", limit: "mock-login-sessions"),
            sdk.logoutSessions.occupancy("logout-sessions", limit: "mock-logout-sessions"),
            sdk.pendingLogouts.occupancy("pending-logouts", limit: "mock-logout-sessions"),
            idps.sessions.occupancy("idp-sessions", limit: "mock-idp-sessions"),
            sdk.issuedAuthn.occupancy("authn-tokens", limit: "mock-authn-tokens"),
            sdk.issuedAuthz.occupancy("authz-tokens", limit: "mock-authz-tokens"),
            sdk.deviceSessions.occupancy("device-sessions", limit: "mock-device-sessions"),
            sdk.tempPassExpiry.occupancy("temppass-uses", limit: "mock-temppass-devices"),
            sdk.registrationCodes.occupancy("registration-codes", limit: "mock-registration-codes"),
            clients.registeredClients.occupancy("dcr-clients", limit: "mock-dcr-clients"),
            clients.accessTokens.occupancy("access-tokens", limit: "mock-access-tokens"),
            clients.nonces.occupancy("nonces", limit: "mock-nonces"),
            restV1.authorizations.occupancy("rest-authorizations", limit: "mock-rest-authz"),
            v2.sessions.occupancy("v2-sessions", limit: "mock-v2-sessions"),
            v2.profiles.occupancy("v2-profiles", limit: "mock-v2-profiles"),
            v2.tempPassUses.occupancy("v2-temppass-uses", limit: "mock-v2-temppass-uses"),
            idps.oauthCodes.occupancy("v2-oauth-codes", limit: "mock-v2-oauth-codes"),
            v2.oauthLogouts.occupancy("v2-oauth-logouts", limit: "mock-v2-sessions"),
            v2.ssoGrants.occupancy("v2-sso-grants", limit: "mock-v2-profiles"),
            v2.ssoLogouts.occupancy("v2-sso-logouts", limit: "mock-v2-sessions"),
            v2.browserLogins.occupancy("v2-browser-logins", limit: "mock-v2-sessions"),
            StoreOccupancy(
                store: "v2-throttle-buckets", limit: "mock-v2-throttle-devices", count: v2.buckets.count,
                capacity: v2.buckets.capacity),
        ]
    }
}
