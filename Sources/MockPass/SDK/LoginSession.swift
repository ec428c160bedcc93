import PassXML

/// An SP's browser session (keyed by its `JSESSIONID`): one login at a time.
struct LoginSession: Sendable {
    struct Authentication: Sendable {
        var userName: String
        var nameID: String
        var sessionIndex: String
    }

    let id: String
    let spName: String
    var requestorID: String
    var mvpdID: String
    var redirectURL: String
    /// The AuthnRequest the SP waits an answer for; nil once answered.
    var pendingAuthnRequestID: String?
    var authentication: Authentication?
    /// Issued on the first `sessionDevice` after the login, then handed out again unchanged.
    var token: AuthnToken?
    /// The tvOS registration code a second-screen login (`/api/v1/authenticate`) is for.
    var regCode: String? = nil
    /// The REST API v2 session a login through `/api/v2/authenticate` completes.
    var v2: V2LoginLink? = nil
}

/// A user's SAML session at an IdP, as assertions and logout requests name it.
struct SAMLSessionKey: Hashable, Sendable {
    var nameID: String
    var sessionIndex: String
}

/// An SP-initiated SAML logout on its way through the IdP (keyed by its RelayState).
struct LogoutSession: Sendable {
    let id: String
    let spName: String
    var redirectURL: String
    var logoutRequestID: String
    var nameID: String
    var sessionIndex: String
}

/// An IdP's record of a user it logged in.
struct IdPSession: Sendable {
    var mvpdID: String
    var userName: String
    var nameID: String
    var sessionIndex: String
}
