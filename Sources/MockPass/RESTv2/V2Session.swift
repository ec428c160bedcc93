import PassModel

/// The three parameters an authentication session needs before the user agent can log in. A client
/// may give them when it creates the session or later when it resumes it (rest-api-v2.md 1.3).
struct V2SessionParameters: Sendable, Equatable {
    var mvpd: String?
    var domainName: String?
    var redirectUrl: String?

    /// In Adobe's order, the names of those not given yet.
    var missing: [String] {
        var out: [String] = []
        if mvpd == nil { out.append("mvpd") }
        if domainName == nil { out.append("domainName") }
        if redirectUrl == nil { out.append("redirectUrl") }
        return out
    }

    /// Those given, in the same order (the status answer's `existingParameters`).
    var existing: [Value.Entry] {
        var out: [Value.Entry] = []
        if let mvpd { out.append(Value.Entry("mvpd", .string(mvpd))) }
        if let domainName { out.append(Value.Entry("domainName", .string(domainName))) }
        if let redirectUrl { out.append(Value.Entry("redirectUrl", .string(redirectUrl))) }
        return out
    }

    /// `self` with what `other` gives for the fields `self` lacks; an empty field counts as not given.
    func merged(with other: V2SessionParameters) -> V2SessionParameters {
        V2SessionParameters(
            mvpd: mvpd ?? other.mvpd, domainName: domainName ?? other.domainName,
            redirectUrl: redirectUrl ?? other.redirectUrl)
    }

    /// A resume may only fill what the session lacks (docs/CONFORMANCE.md, choice 91): anyone holding
    /// the code can resume, so a value the session has, given again otherwise, is refused with its
    /// parameter's code (`invalid_authentication_session` for `domainName`, which has none), nil if none.
    func conflict(with other: V2SessionParameters) -> V2Failure? {
        if let mvpd, let given = other.mvpd, given != mvpd {
            return V2Failure(.invalidParameterMVPD, "the session already has another mvpd")
        }
        if let domainName, let given = other.domainName, given != domainName {
            return V2Failure(.invalidAuthenticationSession, "the session already has another domainName")
        }
        if let redirectUrl, let given = other.redirectUrl, given != redirectUrl {
            return V2Failure(.invalidParameterRedirectURL, "the session already has another redirectUrl")
        }
        return nil
    }

    static func from(_ r: IncomingRequest) -> V2SessionParameters {
        // An oversized domain is not one (no code names it: it stays missing, docs/CONFORMANCE.md,
        // choice 90); an oversized redirect is refused by `v2CheckRedirect`, an oversized MVPD by
        // `v2MVPD` (no MVPD has such an id), so none is kept.
        func given(_ name: String) -> String? { r.parameter(name).flatMap { $0.isEmpty ? nil : $0 } }
        let domain = given("domainName").flatMap { $0.utf8.count <= V2Limits.valueBytes ? $0 : nil }
        return V2SessionParameters(
            mvpd: given("mvpd"), domainName: domain, redirectUrl: given("redirectUrl"))
    }
}

/// An authentication session, by its code: made by `POST sessions` on the streaming device, completed
/// by a login in a user agent (maybe another device's) through `GET authenticate/{sp}/{code}`.
struct V2AuthSession: Sendable {
    enum State: Sendable {
        /// Some parameter is still missing: the device must resume the session.
        case collecting
        /// Everything is known; nobody has opened the login yet.
        case ready
        /// A user agent was sent to the MVPD's IdP with this session (the SP's login session id).
        case loggingIn(LoggingIn)
        /// The login completed: the device's profile for `mvpdID` exists (or existed).
        case authenticated(Authenticated)
    }

    struct LoggingIn: Sendable {
        var started: Instant
        /// Set for an OAuth2 MVPD: the PKCE verifier and state the SP sent (`V2OAuth`).
        var oauth: V2OAuthPending? = nil
    }

    struct Authenticated: Sendable {
        var mvpdID: String
        var at: Instant
    }

    var code: String
    var sessionID: String
    var requestorID: String
    var spName: String
    var deviceID: String
    /// The X-Device-Info JSON of the device that made the session (the status answer's `device`).
    var deviceInfo: Value
    var parameters: V2SessionParameters
    var notBefore: Instant
    var notAfter: Instant
    var state: State
    /// The SSO identities the device presented (`V2SSO`): its login is shared with each.
    var sso: [V2SSOIdentity] = []

    var isAuthenticated: Bool {
        if case .authenticated = state { return true }
        return false
    }
}

/// Where an SP login started by `authenticate/{sp}/{code}` ends: the v2 session it completes.
struct V2LoginLink: Sendable, Equatable {
    var code: String
}
