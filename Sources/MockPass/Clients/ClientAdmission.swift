import PassModel

/// Client admission (Dynamic Client Registration, and the signed calls of the clientless families):
/// the registered clients, their access tokens and the nonces already used, and the handlers over
/// them (`ClientAdmission+Handlers.swift`). The SP's gate admits the SDK's and REST v1's callers
/// through it; REST v2 checks its own callers' tokens against it (`RESTv2Family.v2Admit`, which
/// takes it as a parameter); nothing else reads it.
struct ClientAdmission: Sendable {
    /// Clients registered through DCR, by `client_id`.
    var registeredClients: ExpiringStore<String, RegisteredClient>
    /// Bearer access tokens, by token.
    var accessTokens: ExpiringStore<String, AccessToken>
    /// Nonces of signed calls, by public key and nonce (only presence matters).
    var nonces: ExpiringStore<String, Bool>
    /// The signing requestors' secrets keyed for HMAC once (not state the clients can see).
    var signingKeys = SigningKeyCache()

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
