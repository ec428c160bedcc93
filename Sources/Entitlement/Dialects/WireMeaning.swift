import PassModel
import PassXML

// What answers mean, whichever wire they came on: the events a dialect hands its flows.

/// The SP's authentication session a login runs in (REST API v2): its code, and its id, which
/// becomes the authN token's GUID. The SDK's wire has none.
struct LoginSession: Hashable, Sendable {
    var code: String
    var id: String
}

/// How a login with its MVPD chosen begins.
enum LoginOpening {
    /// The login page opens in the browser at once, no request first.
    case browser(url: String)
    /// A request goes first; `kind` says what its answer is expected to start.
    case request(WireRequest, kind: StartKind)
}

/// What a login's first request was for.
struct LoginStartContext {
    var mvpd: MVPD
    var kind: StartKind
    /// The login's data (a promotional TempPass's e-mail).
    var data: Value?
}

/// What the answer to a login's first request says to do next.
enum LoginStart {
    /// The login fails; `codeRefused`: a second screen's code was refused for want of a signature
    /// or an access token, which the app hears of first (BEHAVIOR.md, tvOS).
    case failed(codeRefused: Bool)
    /// A second screen's code to show and poll; `session`, the SP's session it belongs to.
    case showCode(RegistrationCode, session: String?)
    /// The login page to open for the session.
    case browse(url: String, session: LoginSession)
    /// No login needed, or it is done: the token is read with `request`.
    case readToken(WireRequest, source: TokenSource, session: String?)
    /// The answer was the token itself (Apple's token exchanged for a profile).
    case arrived(LoginTokenAnswer)
}

/// What a token's read is about: the login's MVPD, how the token was obtained, the SP's session.
struct TokenContext {
    var mvpd: MVPD
    var source: TokenSource
    var session: String?
    var data: Value?
}

/// What a poll of a second screen's code says.
enum CodeCheck {
    /// Not used yet, or the SP could not say (an error, throttling, no answer): ask again.
    case pending
    /// The code is unknown or expired: the login fails.
    case gone
    /// The code was used: the token is read with `request`.
    case readToken(WireRequest)
    /// The code was used and the answer is the token.
    case arrived(LoginTokenAnswer)
}

/// A login's token as the store keeps it.
struct LoginToken {
    var token: AuthnToken
    var userMeta: Value?
    /// Made from Apple's token (logout answers `VSA203` first).
    var platformSSO: Bool
    /// A promotional TempPass's identity, which its decisions name.
    var tempPassIdentity: Value? = nil
}

/// What the answer to a token's read holds.
enum LoginTokenAnswer {
    case token(LoginToken)
    /// The SP holds a logout still to finish: the store's tokens go, and the login fails.
    case pendingLogout
    /// No usable token (none, expired, an error, no answer).
    case none
}

/// What a `checkAuthentication`'s answer says.
enum ProfileCheckAnswer {
    /// Unusable (an error, no answer): the store answers.
    case unusable
    /// The SP holds no live profile for the MVPD.
    case none
    /// The SP's live profile, as a token.
    case profile(LoginToken)
}

/// What an authorization's answer says.
enum AuthorizeAnswer {
    /// An authZ token (the SDK's wire): the media token is asked for with it.
    case permitted(AuthzToken)
    /// A decision that carries its media token (REST API v2), and the authZ token it stands for
    /// (`getMetadata` reads its expiry), when the decision says how long it lives.
    case granted(mediaToken: String, authorization: AuthzToken?)
    /// The MVPD said no: its message, `""` when none.
    case denied(details: String)
    /// An error, an unusable body, a throttle or no answer.
    case unusable
}

/// What a media token's answer says.
enum MediaTokenAnswer {
    case granted(mediaToken: String)
    case denied(details: String)
    case unusable
}

/// How a logout goes to the browser (iOS).
enum LogoutStep {
    /// The logout page opens at once.
    case open(url: String)
    /// The SP is asked which page opens, if any.
    case ask(WireRequest)
}

/// `getMetadata` of the device id.
enum DeviceIDQuery {
    /// Known without asking.
    case known(String)
    /// The SP is asked.
    case ask(WireRequest)
}
