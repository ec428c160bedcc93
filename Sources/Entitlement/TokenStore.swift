import PassModel
import PassXML

/// One app's token store (BEHAVIOR.md, Vocabulary): its authN token, authZ tokens (one per resource),
/// selected MVPD and preauthorization cache. Expiry is judged against the instant passed in; an
/// expired token is as good as none and is removed when found.
struct TokenStore: Sendable {
    private(set) var authnToken: AuthnToken?
    /// The user metadata that came with the authN token (`{updated, encrypted, data}`).
    private(set) var userMeta: Value?
    /// The authN token came from Apple's token (a `SUPPORTED` MVPD): logout says `VSA203` first.
    private(set) var fromPlatformSSO = false
    /// REST API v2: the identity a promotional TempPass token was issued to (`SharedAuthentication`).
    private(set) var tempPassIdentity: Value?
    private(set) var authzTokens: [String: AuthzToken] = [:]
    /// Both decisions, per resource, valid until the authN token changes.
    private(set) var preauthorizations: [String: Bool] = [:]
    /// The stored selected MVPD. Expiry never clears it.
    var selectedMVPD: MVPD?

    mutating func validAuthnToken(at now: Instant) -> AuthnToken? {
        guard let token = authnToken else { return nil }
        if token.expires <= now {
            clearTokens()
            return nil
        }
        return token
    }

    mutating func validAuthzToken(for resource: String, at now: Instant) -> AuthzToken? {
        guard let token = authzTokens[resource] else { return nil }
        if token.expires <= now || token.sessionGUID != authnToken?.guid {
            authzTokens[resource] = nil
            return nil
        }
        return token
    }

    /// A new authN token: authZ tokens and the preauthorization cache of the old one go.
    mutating func store(_ token: AuthnToken, userMeta: Value?, fromPlatformSSO: Bool, tempPassIdentity: Value? = nil) {
        if token.guid != authnToken?.guid {
            authzTokens = [:]
            preauthorizations = [:]
        }
        authnToken = token
        self.userMeta = userMeta
        self.fromPlatformSSO = fromPlatformSSO
        self.tempPassIdentity = tempPassIdentity
    }

    mutating func store(_ token: AuthzToken) { authzTokens[token.resourceID] = token }

    /// Records decisions, unless the authN token they were asked for has changed since.
    mutating func remember(_ decisions: [(String, Bool)], forSession guid: String) {
        guard guid == authnToken?.guid else { return }
        for (resource, allowed) in decisions { preauthorizations[resource] = allowed }
    }

    /// Clears every token and the preauthorization cache.
    mutating func clearTokens() {
        authnToken = nil
        userMeta = nil
        fromPlatformSSO = false
        tempPassIdentity = nil
        authzTokens = [:]
        preauthorizations = [:]
    }
}
