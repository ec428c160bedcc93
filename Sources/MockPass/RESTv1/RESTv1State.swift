import PassModel

/// What REST API v1 keeps of its own: its authorizations. Its authentication is the SDK family's
/// (`SDKState.deviceSessions`), as on Adobe's servers, where v1 and the SDK share a login.
struct RESTv1State: Sendable {
    var authorizations: ExpiringStore<RestAuthzKey, RestAuthz>

    init(limits: MockLimits) {
        authorizations = ExpiringStore(capacity: limits.restAuthorizations, maxBytes: limits.storeBytes)
    }

    mutating func expire(at now: Instant) { authorizations.expire(at: now) }
}
