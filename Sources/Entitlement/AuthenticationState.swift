import PassModel

/// One `getAuthentication` (or the authentication a `getAuthorization` drives) from its start to
/// its terminal callback.
struct Login: Hashable, Sendable {
    var id: Int
    var forceAuthn: Bool
    var data: Value?
}

/// The authentication state machine. A "login" (BEHAVIOR.md, Overlapping calls) is any state but
/// `idle`; each case carries only what that state needs.
enum AuthenticationState: Hashable, Sendable {
    case idle
    /// `displayProviderDialog` was delivered; waiting for `setSelectedProvider`.
    case selecting(Login)
    /// `navigateToUrl` was delivered; waiting for `handleExternalURL`.
    case browsing(Login, MVPD)
    /// `handleExternalURL` came; the authN token request is out.
    case fetchingToken(Login, MVPD, RequestID)

    var login: Login? {
        switch self {
        case .idle: return nil
        case .selecting(let l), .browsing(let l, _), .fetchingToken(let l, _, _): return l
        }
    }
}

/// The logout flow (iOS): between `navigateToUrl(logoutUrl)` and `handleExternalURL`.
enum LogoutState: Hashable, Sendable {
    case idle
    case awaitingRedirect
}
