/// The 13 operations of REST API v2 (rest-api-v2.md 1.3), read from a path under `/api/v2/`.
/// Segments are taken as sent: no percent-decoding, as everywhere else in the mock.
enum V2Route: Sendable, Equatable {
    case configuration(sp: String)
    case createSession(sp: String)
    case resumeSession(sp: String, code: String)
    case sessionStatus(sp: String, code: String)
    case authenticate(sp: String, code: String)
    case profiles(sp: String)
    case profile(sp: String, mvpd: String)
    case profileForCode(sp: String, code: String)
    case authorize(sp: String, mvpd: String)
    case preauthorize(sp: String, mvpd: String)
    case logout(sp: String, mvpd: String)
    case partnerSession(sp: String, partner: String)
    case partnerProfile(sp: String, partner: String)
    /// Not Adobe's: the SP's OAuth2 redirect URI (`V2OAuth.callbackPath`), which a user agent opens.
    case oauthCallback

    static let prefix = "/api/v2/"

    /// nil when no operation has this path (404), whatever the method.
    init?(method: String, path: String) {
        guard path.hasPrefix(V2Route.prefix) else { return nil }
        let s = path.dropFirst(V2Route.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
        guard !s.isEmpty, !s.contains(where: \.isEmpty) else { return nil }
        switch s.count {
        case 2 where s[0] == "oauth2" && s[1] == "callback": self = .oauthCallback
        case 2 where s[1] == "configuration": self = .configuration(sp: s[0])
        case 2 where s[1] == "sessions": self = .createSession(sp: s[0])
        case 2 where s[1] == "profiles": self = .profiles(sp: s[0])
        case 3 where s[0] == "authenticate": self = .authenticate(sp: s[1], code: s[2])
        case 3 where s[1] == "sessions":
            self = method == "GET" ? .sessionStatus(sp: s[0], code: s[2]) : .resumeSession(sp: s[0], code: s[2])
        case 3 where s[1] == "profiles": self = .profile(sp: s[0], mvpd: s[2])
        case 3 where s[1] == "logout": self = .logout(sp: s[0], mvpd: s[2])
        case 4 where s[1] == "profiles" && s[2] == "code": self = .profileForCode(sp: s[0], code: s[3])
        case 4 where s[1] == "profiles" && s[2] == "sso": self = .partnerProfile(sp: s[0], partner: s[3])
        case 4 where s[1] == "sessions" && s[2] == "sso": self = .partnerSession(sp: s[0], partner: s[3])
        case 4 where s[1] == "decisions" && s[2] == "authorize": self = .authorize(sp: s[0], mvpd: s[3])
        case 4 where s[1] == "decisions" && s[2] == "preauthorize": self = .preauthorize(sp: s[0], mvpd: s[3])
        default: return nil
        }
    }

    /// The methods the path takes (a session code's path takes two).
    var allowed: [String] {
        switch self {
        case .configuration, .authenticate, .profiles, .profile, .profileForCode, .logout, .oauthCallback:
            return ["GET"]
        case .createSession, .authorize, .preauthorize, .partnerSession, .partnerProfile: return ["POST"]
        case .resumeSession, .sessionStatus: return ["GET", "POST"]
        }
    }

    var serviceProvider: String {
        switch self {
        case .configuration(let sp), .createSession(let sp), .profiles(let sp): return sp
        case .resumeSession(let sp, _), .sessionStatus(let sp, _), .authenticate(let sp, _), .profileForCode(let sp, _):
            return sp
        case .profile(let sp, _), .authorize(let sp, _), .preauthorize(let sp, _), .logout(let sp, _): return sp
        case .partnerSession(let sp, _), .partnerProfile(let sp, _): return sp
        case .oauthCallback: return ""
        }
    }
}
