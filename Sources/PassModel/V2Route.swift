/// The 13 operations of REST API v2 (rest-api-v2.md 1.3), and the SP's OAuth2 redirect URI beside
/// them, defined once: what a client builds (`path`, `url`) is what the mock and the lint recognise
/// (`init(method:path:)`), the path parameters typed (as `Route` for the legacy families).
/// Paths are at the SP's origin's root. Segments are read as sent, not percent-decoded, as everywhere
/// else in the mock; when building, each parameter is percent-escaped (`FormCoding.escape`).
public enum V2Route: Hashable, Sendable {
    /// `GET /api/v2/{serviceProvider}/configuration`
    case configuration(serviceProvider: String)
    /// `POST /api/v2/{serviceProvider}/sessions`
    case createSession(serviceProvider: String)
    /// `POST /api/v2/{serviceProvider}/sessions/{code}`
    case resumeSession(serviceProvider: String, code: String)
    /// `GET /api/v2/{serviceProvider}/sessions/{code}`
    case sessionStatus(serviceProvider: String, code: String)
    /// `GET /api/v2/authenticate/{serviceProvider}/{code}`: the user agent's page, no client.
    case authenticate(serviceProvider: String, code: String)
    /// `GET /api/v2/{serviceProvider}/profiles`
    case profiles(serviceProvider: String)
    /// `GET /api/v2/{serviceProvider}/profiles/{mvpd}`
    case profile(serviceProvider: String, mvpd: String)
    /// `GET /api/v2/{serviceProvider}/profiles/code/{code}`
    case profileForCode(serviceProvider: String, code: String)
    /// `POST /api/v2/{serviceProvider}/decisions/authorize/{mvpd}`
    case authorize(serviceProvider: String, mvpd: String)
    /// `POST /api/v2/{serviceProvider}/decisions/preauthorize/{mvpd}`
    case preauthorize(serviceProvider: String, mvpd: String)
    /// `GET /api/v2/{serviceProvider}/logout/{mvpd}`
    case logout(serviceProvider: String, mvpd: String)
    /// `POST /api/v2/{serviceProvider}/sessions/sso/{partner}`
    case partnerSession(serviceProvider: String, partner: String)
    /// `POST /api/v2/{serviceProvider}/profiles/sso/{partner}`
    case partnerProfile(serviceProvider: String, partner: String)
    /// `GET /api/v2/oauth2/callback`. Not Adobe's: the SP's OAuth2 redirect URI, which a user agent
    /// opens after an OAuth2 IdP's login (the mock's `V2OAuth`).
    case oauthCallback

    /// What every REST v2 path starts with: the mock hands every path under it to REST v2, which
    /// answers its own 404 when no operation has it.
    public static let prefix = "/api/v2/"
    /// The cookie that ties the SP's `authenticate/saml` to the v2 session whose user agent was sent
    /// there: Adobe's Location carries only the SDK's parameters, so the session's code rides in a
    /// cookie of the SP's host, as a browser login's state does.
    public static let loginCookie = "passim_v2_login"

    /// The method a client sends (a session code's path takes two: GET reads it, POST resumes it).
    public var method: String {
        switch self {
        case .configuration, .sessionStatus, .authenticate, .profiles, .profile, .profileForCode, .logout,
            .oauthCallback:
            "GET"
        case .createSession, .resumeSession, .authorize, .preauthorize, .partnerSession, .partnerProfile: "POST"
        }
    }

    /// The methods the path takes (the mock's 405 and its `Allow`).
    public var allowed: [String] {
        switch self {
        case .resumeSession, .sessionStatus: ["GET", "POST"]
        default: [method]
        }
    }

    /// The service provider (requestor) the path names; "" for the OAuth2 callback, which names none.
    public var serviceProvider: String {
        switch self {
        case .configuration(let sp), .createSession(let sp), .profiles(let sp): sp
        case .resumeSession(let sp, _), .sessionStatus(let sp, _), .authenticate(let sp, _), .profileForCode(let sp, _):
            sp
        case .profile(let sp, _), .authorize(let sp, _), .preauthorize(let sp, _), .logout(let sp, _): sp
        case .partnerSession(let sp, _), .partnerProfile(let sp, _): sp
        case .oauthCallback: ""
        }
    }

    /// Which operation a route is, without its arguments: what Lint judges by (one vocabulary with the
    /// routes, not a copy of them).
    public enum Operation: String, Hashable, Sendable, CaseIterable {
        case configuration, createSession, resumeSession, sessionStatus, authenticate, profiles, profile,
            profileForCode, authorize, preauthorize, logout, partnerSession, partnerProfile, oauthCallback
    }

    public var operation: Operation {
        switch self {
        case .configuration: .configuration
        case .createSession: .createSession
        case .resumeSession: .resumeSession
        case .sessionStatus: .sessionStatus
        case .authenticate: .authenticate
        case .profiles: .profiles
        case .profile: .profile
        case .profileForCode: .profileForCode
        case .authorize: .authorize
        case .preauthorize: .preauthorize
        case .logout: .logout
        case .partnerSession: .partnerSession
        case .partnerProfile: .partnerProfile
        case .oauthCallback: .oauthCallback
        }
    }

    /// The path's last parameter (code, MVPD or partner), "" for the operations with none.
    public var argument: String {
        switch self {
        case .configuration, .createSession, .profiles, .oauthCallback: ""
        case .resumeSession(_, let code), .sessionStatus(_, let code), .authenticate(_, let code),
            .profileForCode(_, let code):
            code
        case .profile(_, let mvpd), .authorize(_, let mvpd), .preauthorize(_, let mvpd), .logout(_, let mvpd): mvpd
        case .partnerSession(_, let partner), .partnerProfile(_, let partner): partner
        }
    }

    /// The path's segments after `prefix`, parameters as given (unescaped).
    private var segments: [String] {
        switch self {
        case .configuration(let sp): [sp, "configuration"]
        case .createSession(let sp): [sp, "sessions"]
        case .resumeSession(let sp, let code), .sessionStatus(let sp, let code): [sp, "sessions", code]
        case .authenticate(let sp, let code): ["authenticate", sp, code]
        case .profiles(let sp): [sp, "profiles"]
        case .profile(let sp, let mvpd): [sp, "profiles", mvpd]
        case .profileForCode(let sp, let code): [sp, "profiles", "code", code]
        case .authorize(let sp, let mvpd): [sp, "decisions", "authorize", mvpd]
        case .preauthorize(let sp, let mvpd): [sp, "decisions", "preauthorize", mvpd]
        case .logout(let sp, let mvpd): [sp, "logout", mvpd]
        case .partnerSession(let sp, let partner): [sp, "sessions", "sso", partner]
        case .partnerProfile(let sp, let partner): [sp, "profiles", "sso", partner]
        case .oauthCallback: ["oauth2", "callback"]
        }
    }

    /// Which segments are parameters (escaped when building), by position.
    private var parameterPositions: [Int] {
        switch self {
        case .configuration, .createSession, .profiles: [0]
        case .resumeSession, .sessionStatus, .profile, .logout: [0, 2]
        case .authenticate: [1, 2]
        case .profileForCode, .authorize, .preauthorize, .partnerSession, .partnerProfile: [0, 3]
        case .oauthCallback: []
        }
    }

    /// A route of `operation`, every parameter a placeholder: the template `pathRegex` is read from.
    static func sample(of operation: Operation) -> V2Route {
        let p = "p"
        switch operation {
        case .configuration: return .configuration(serviceProvider: p)
        case .createSession: return .createSession(serviceProvider: p)
        case .resumeSession: return .resumeSession(serviceProvider: p, code: p)
        case .sessionStatus: return .sessionStatus(serviceProvider: p, code: p)
        case .authenticate: return .authenticate(serviceProvider: p, code: p)
        case .profiles: return .profiles(serviceProvider: p)
        case .profile: return .profile(serviceProvider: p, mvpd: p)
        case .profileForCode: return .profileForCode(serviceProvider: p, code: p)
        case .authorize: return .authorize(serviceProvider: p, mvpd: p)
        case .preauthorize: return .preauthorize(serviceProvider: p, mvpd: p)
        case .logout: return .logout(serviceProvider: p, mvpd: p)
        case .partnerSession: return .partnerSession(serviceProvider: p, partner: p)
        case .partnerProfile: return .partnerProfile(serviceProvider: p, partner: p)
        case .oauthCallback: return .oauthCallback
        }
    }

    /// An `operation`'s method and path as documentation writes them, `{…}` for each parameter.
    public static func shown(_ operation: Operation) -> String {
        let route = sample(of: operation)
        let positions = route.parameterPositions
        return route.method + " " + V2Route.prefix
            + route.segments.enumerated().map { i, s in positions.contains(i) ? "{…}" : s }.joined(separator: "/")
    }

    /// A regex (LinearRegex syntax) that an `operation`'s paths match whole, each parameter one
    /// segment: what a fault injected on an operation (`net SP fail N OPERATION`) is matched with.
    public static func pathRegex(of operation: Operation) -> String {
        let route = sample(of: operation)
        let positions = route.parameterPositions
        return LinearRegex.escaped(V2Route.prefix)
            + route.segments.enumerated().map { i, s in positions.contains(i) ? "[^/]+" : LinearRegex.escaped(s) }
            .joined(separator: "/")
    }

    /// The path, each parameter percent-escaped.
    public var path: String {
        let positions = parameterPositions
        return V2Route.prefix
            + segments.enumerated().map { i, s in positions.contains(i) ? FormCoding.escape(s) : s }
            .joined(separator: "/")
    }

    /// The URL of this operation at `origin` (the SP's scheme and authority, no trailing slash:
    /// REST v2 lives at its root), with `query` if any.
    public func url(_ origin: String, query: [(String, String)] = []) -> String {
        let url = origin + path
        return query.isEmpty ? url : url + "?" + FormCoding.encode(query)
    }

    /// The URL of this operation for the SP whose base URL is `spURL` (its path, if any, ignored:
    /// REST v2 lives at the origin's root), with `query` if any: what the engine sends.
    public func url(atSP spURL: String, query: [(String, String)] = []) -> String {
        url(V2Route.origin(ofSP: spURL), query: query)
    }

    /// `scheme://authority` of an SP's base URL; the URL without its trailing slashes when it does
    /// not parse (the mock's worlds are checked before: a fallback, not a path a client relies on).
    public static func origin(ofSP spURL: String) -> String {
        if let parts = URLParts(spURL) { return parts.scheme + "://" + parts.authority }
        var trimmed = Substring(spURL)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// The operation at `path` (the URL's path, from `/api/v2/`), nil when none has it, whatever the
    /// method; `method` tells a session code's status (GET) from its resumption (anything else).
    public init?(method: String, path: String) {
        guard path.hasPrefix(V2Route.prefix) else { return nil }
        let rest = path.dropFirst(V2Route.prefix.count)
        // An ASCII path (every one a client sends) is split by bytes, where a byte is a character:
        // the same pieces, without the walk by grapheme that was a twentieth of a REST v2 fuzz run.
        let s =
            rest.utf8.allSatisfy({ $0 < 0x80 })
            ? rest.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
                String(Substring($0))
            }
            : rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !s.isEmpty, !s.contains(where: \.isEmpty) else { return nil }
        switch s.count {
        case 2 where s[0] == "oauth2" && s[1] == "callback": self = .oauthCallback
        case 2 where s[1] == "configuration": self = .configuration(serviceProvider: s[0])
        case 2 where s[1] == "sessions": self = .createSession(serviceProvider: s[0])
        case 2 where s[1] == "profiles": self = .profiles(serviceProvider: s[0])
        case 3 where s[0] == "authenticate": self = .authenticate(serviceProvider: s[1], code: s[2])
        case 3 where s[1] == "sessions":
            self =
                method == "GET"
                ? .sessionStatus(serviceProvider: s[0], code: s[2]) : .resumeSession(serviceProvider: s[0], code: s[2])
        case 3 where s[1] == "profiles": self = .profile(serviceProvider: s[0], mvpd: s[2])
        case 3 where s[1] == "logout": self = .logout(serviceProvider: s[0], mvpd: s[2])
        case 4 where s[1] == "profiles" && s[2] == "code": self = .profileForCode(serviceProvider: s[0], code: s[3])
        case 4 where s[1] == "profiles" && s[2] == "sso": self = .partnerProfile(serviceProvider: s[0], partner: s[3])
        case 4 where s[1] == "sessions" && s[2] == "sso": self = .partnerSession(serviceProvider: s[0], partner: s[3])
        case 4 where s[1] == "decisions" && s[2] == "authorize": self = .authorize(serviceProvider: s[0], mvpd: s[3])
        case 4 where s[1] == "decisions" && s[2] == "preauthorize":
            self = .preauthorize(serviceProvider: s[0], mvpd: s[3])
        default: return nil
        }
    }
}
