import PassModel

/// What client admission keeps (Dynamic Client Registration, and the signed calls of the clientless
/// families): the registered clients, their access tokens, and the nonces already used. REST v2 and
/// REST v1 admit their callers through it; nothing else reads it.
struct ClientState: Sendable {
    /// Clients registered through DCR, by `client_id`.
    var registeredClients: ExpiringStore<String, RegisteredClient>
    /// Bearer access tokens, by token.
    var accessTokens: ExpiringStore<String, AccessToken>
    /// Nonces of signed calls, by public key and nonce (only presence matters).
    var nonces: ExpiringStore<String, Bool>

    init(limits: MockLimits) {
        registeredClients = ExpiringStore(capacity: limits.registeredClients, maxBytes: limits.storeBytes)
        accessTokens = ExpiringStore(capacity: limits.accessTokens, maxBytes: limits.storeBytes)
        nonces = ExpiringStore(capacity: limits.nonces, maxBytes: limits.storeBytes)
    }

    mutating func expire(at now: Instant) {
        registeredClients.expire(at: now)
        accessTokens.expire(at: now)
        nonces.expire(at: now)
    }
}
