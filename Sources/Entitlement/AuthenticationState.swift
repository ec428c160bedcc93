import PassModel

/// A `getAuthorization` waiting for the authentication it started.
struct PendingAuthorization: Hashable, Sendable {
    var resource: String
    var data: Value?
}

/// One `getAuthentication` (or the authentication a `getAuthorization` drives) from its start to
/// its terminal callback.
struct Login: Hashable, Sendable {
    var id: Int
    var forceAuthn: Bool
    var data: Value?
    var authorization: PendingAuthorization?
}

/// What Apple's TV-provider picker shows.
struct Picker: Hashable, Sendable {
    var shown: [MVPD]
    var featured: [MVPD]
}

/// A tvOS registration code being polled.
struct RegistrationCode: Hashable, Sendable {
    var code: String
    var expires: Instant
}

/// The request that starts a login without a browser.
enum StartKind: Hashable, Sendable {
    case tempPass
    case platformSSO
    case registrationCode
}

/// How the authN token is being obtained after the user is done.
enum TokenSource: Hashable, Sendable {
    /// A SAML login in the browser (cookie session), a TempPass or a used registration code.
    case sp
    /// Apple's token, exchanged at the SP (a `SUPPORTED` MVPD): logout answers `VSA203` first.
    case platformSSO
}

/// The authentication state machine. A "login" (BEHAVIOR.md, Overlapping calls) is any state but
/// `idle`; each case carries only what that state needs.
enum AuthenticationState: Hashable, Sendable {
    case idle
    /// `displayProviderDialog` was delivered; waiting for `setSelectedProvider`.
    case selecting(Login)
    /// `presentTvProviderDialog` was delivered; waiting for the user.
    case picking(Login, Picker)
    /// `navigateToUrl` was delivered; waiting for `handleExternalURL`.
    case browsing(Login, MVPD)
    /// A promotional TempPass was selected; waiting for `getAuthentication(false, withData:)`.
    case awaitingPromotionData(Login, MVPD)
    /// A TempPass request, an Apple token exchange or a registration-code request is out.
    case starting(Login, MVPD, RequestID, StartKind)
    /// tvOS: `status(REGCODE, code)` was delivered; polling until the code is used.
    case awaitingCode(Login, MVPD, RegistrationCode, poll: Poll)
    /// The authN token request is out.
    case fetchingToken(Login, MVPD, RequestID, TokenSource)

    enum Poll: Hashable, Sendable {
        case waiting(TimerID)
        /// A poll is out; the next one is due at `next` (every 10 s from the previous one, as a
        /// repeating timer would, however long the answer takes).
        case asking(RequestID, next: Instant)
    }

    var login: Login? {
        switch self {
        case .idle: return nil
        case .selecting(let l), .picking(let l, _), .browsing(let l, _), .awaitingPromotionData(let l, _),
             .starting(let l, _, _, _), .awaitingCode(let l, _, _, _), .fetchingToken(let l, _, _, _):
            return l
        }
    }
}

/// The logout flow: between `navigateToUrl(logoutUrl)` and `handleExternalURL` (iOS), or the
/// logout requests (tvOS): each `logout()` waits for its own request, so two logouts in a row get
/// two answers, each when its request returns (BEHAVIOR.md, Logout: an answer belongs to its logout).
enum LogoutState: Hashable, Sendable {
    case idle
    case awaitingRedirect
    case requesting(Set<RequestID>)
}
