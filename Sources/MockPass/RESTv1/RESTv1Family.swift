import PassModel

/// REST API v1: what it keeps of its own (its authorizations) and its handlers
/// (`RESTv1Family+Handlers.swift`). Its authentication is the SDK family's
/// (`SDKFamily.deviceSessions`), as on Adobe's servers, where v1 and the SDK share a login: its
/// handler takes `SDKFamily` as a parameter.
struct RESTv1Family: Sendable {
    var authorizations: ExpiringStore<RestAuthzKey, RestAuthz>

    init(limits: MockLimits) {
        authorizations = ExpiringStore(capacity: limits.restAuthorizations, maxBytes: limits.storeBytes)
    }

    mutating func expire(at now: Instant) { authorizations.expire(at: now) }
}
