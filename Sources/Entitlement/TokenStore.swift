import PassModel
import PassXML

/// One app's token store (BEHAVIOR.md, Vocabulary): its authN token and selected MVPD. Expiry is
/// judged against the instant passed in; an expired token is as good as none and is removed when found.
struct TokenStore: Sendable {
    private(set) var authnToken: AuthnToken?
    /// The stored selected MVPD. Expiry never clears it.
    var selectedMVPD: MVPD?

    mutating func validAuthnToken(at now: Instant) -> AuthnToken? {
        guard let token = authnToken else { return nil }
        if token.expires <= now {
            authnToken = nil
            return nil
        }
        return token
    }

    mutating func store(_ token: AuthnToken) { authnToken = token }

    /// Clears every token (authN now; authZ tokens and the preauthorization cache join in a later issue).
    mutating func clearTokens() { authnToken = nil }
}
