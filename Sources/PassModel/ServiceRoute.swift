/// The endpoints an SP host of the mock serves besides the engine's (`Route`) and REST v2's
/// (`V2Route`), defined once: the web family's names, the browser's pages, the rest of
/// REST API v1 and device individualisation. Paths are relative to the SP's base URL (the root
/// services and REST v1 to its origin's root, see `RoutePrefix`), matched exactly and
/// case-sensitively; only `restConfig` has a variable part.
public enum ServiceRoute: Hashable, Sendable, CaseIterable {
    // The web family (JS AccessEnabler, yt-dlp): the device family's endpoints under their web names.
    /// `GET|POST /session`: the authN token (`sessionDevice`'s web name).
    case webSession
    /// `POST /authorize`
    case webAuthorize
    /// `POST /shortAuthorize`
    case webShortAuthorize
    /// `POST /getMetadata`
    case webGetMetadata

    // The browser's pages of an SP.
    /// `POST /sp/saml/SAMLAssertionConsumer`: the IdP's SAML answer to a login.
    case assertionConsumer
    /// `POST /sp/saml/LogoutServiceHTTPRedirectResponse`: the IdP's SAML answer to a logout.
    case logoutResponse
    /// `GET /completePassiveAuthentication`
    case completePassiveAuthentication
    /// `GET /api/v1/authenticate?reg_code=…`: the second screen's login page (REST v1).
    case secondScreenLogin

    // REST API v1 beside what the engine calls (`Route`: regcode, `checkauthn/{code}`, `tokens/authn`,
    // `logout`).
    /// `GET /api/v1/checkauthn`
    case restCheckAuthentication
    /// `GET /api/v1/authorize`
    case restAuthorize
    /// `GET /api/v1/tokens/authz`
    case restAuthzToken
    /// `GET /api/v1/tokens/media`
    case restMediaToken
    /// `GET /api/v1/mediatoken`: the older name of `tokens/media`.
    case restMediaTokenOldName
    /// `GET /api/v1/preauthorize`
    case restPreauthorize
    /// `GET /api/v1/tokens/usermetadata`
    case restUserMetadata
    /// `POST /api/v1/authenticate/freepreview`
    case restFreePreview
    /// `GET /api/v1/config/{requestor}`
    case restConfig

    // Root services.
    /// `POST /indiv/devices`: device individualisation.
    case individualisation

    /// The methods the endpoint takes (`session` is read by GET, the JS SDK, or POST with
    /// `_method=GET`, yt-dlp and AND-1.8); the first is the one a client sends.
    public var methods: [String] {
        switch self {
        case .webSession: ["POST", "GET"]
        case .webAuthorize, .webShortAuthorize, .webGetMetadata, .assertionConsumer, .logoutResponse,
            .restFreePreview, .individualisation:
            ["POST"]
        case .completePassiveAuthentication, .secondScreenLogin, .restCheckAuthentication, .restAuthorize,
            .restAuthzToken, .restMediaToken, .restMediaTokenOldName, .restPreauthorize, .restUserMetadata,
            .restConfig:
            ["GET"]
        }
    }

    /// The method a client sends.
    public var method: String { methods[0] }

    /// The path, or its fixed head when the endpoint has a variable part (`restConfig`).
    private var template: String {
        switch self {
        case .webSession: "/session"
        case .webAuthorize: "/authorize"
        case .webShortAuthorize: "/shortAuthorize"
        case .webGetMetadata: "/getMetadata"
        case .assertionConsumer: "/sp/saml/SAMLAssertionConsumer"
        case .logoutResponse: "/sp/saml/LogoutServiceHTTPRedirectResponse"
        case .completePassiveAuthentication: "/completePassiveAuthentication"
        case .secondScreenLogin: "/api/v1/authenticate"
        case .restCheckAuthentication: "/api/v1/checkauthn"
        case .restAuthorize: "/api/v1/authorize"
        case .restAuthzToken: "/api/v1/tokens/authz"
        case .restMediaToken: "/api/v1/tokens/media"
        case .restMediaTokenOldName: "/api/v1/mediatoken"
        case .restPreauthorize: "/api/v1/preauthorize"
        case .restUserMetadata: "/api/v1/tokens/usermetadata"
        case .restFreePreview: "/api/v1/authenticate/freepreview"
        case .restConfig: "/api/v1/config/"
        case .individualisation: "/indiv/devices"
        }
    }

    private var hasParameter: Bool { self == .restConfig }

    /// The path, with `parameter` (percent-escaped here) for `restConfig`.
    public func path(_ parameter: String? = nil) -> String {
        hasParameter ? template + (parameter.map(FormCoding.escape) ?? "") : template
    }

    /// The URL at `base` (as `Route.url`: the path appended as it is), with `query` if any.
    public func url(_ base: String, _ parameter: String? = nil, query: [(String, String)] = []) -> String {
        let url = base + path(parameter)
        return query.isEmpty ? url : url + "?" + FormCoding.encode(query)
    }

    /// The endpoint at exactly `path` (relative to its SP, as the mock's host table gives it), with
    /// its variable part as sent; nil when it is none of these.
    public static func route(atSPPath path: String) -> (route: ServiceRoute, parameter: String?)? {
        if let route = fixedPaths[path] { return (route, nil) }
        let head = ServiceRoute.restConfig.template
        guard path.utf8.count > head.utf8.count, path.hasPrefix(head) else { return nil }
        let parameter = path.utf8.dropFirst(head.utf8.count)
        return parameter.contains(UInt8(ascii: "/")) ? nil : (.restConfig, String(Substring(parameter)))
    }

    private static let fixedPaths = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { r in r.hasParameter ? nil : (r.template, r) })
}

/// An MVPD's identity provider as the mock serves it, relative to the IdP's URL: SAML's
/// pages, Apple SSO's stand-in, and the OAuth2 + PKCE IdP of REST v2 logins.
public enum IdPRoute: String, Hashable, Sendable, CaseIterable {
    /// `POST /sso`: the login page for an AuthnRequest.
    case sso = "/sso"
    /// `POST /login`: the credentials.
    case login = "/login"
    /// `POST /slo`: a LogoutRequest.
    case slo = "/slo"
    /// `POST /platform-sso`: Apple SSO's stand-in.
    case platformSSO = "/platform-sso"
    /// `GET /oauth2/authorize`: the OAuth2 login page.
    case oauth2Authorize = "/oauth2/authorize"
    /// `POST /oauth2/login`: the OAuth2 credentials.
    case oauth2Login = "/oauth2/login"
    /// `POST /oauth2/token`: a code and its verifier for an access token.
    case oauth2Token = "/oauth2/token"
    /// `GET /oauth2/logout`: back to `redirect_uri`.
    case oauth2Logout = "/oauth2/logout"

    public var path: String { rawValue }

    public var method: String {
        switch self {
        case .oauth2Authorize, .oauth2Logout: "GET"
        case .sso, .login, .slo, .platformSSO, .oauth2Login, .oauth2Token: "POST"
        }
    }

    /// Whether it belongs to the OAuth2 IdP (served only by the MVPDs a world declares OAuth2).
    public var isOAuth2: Bool { rawValue.hasPrefix(RoutePrefix.oauth2) }

    /// The URL at `idp` (the IdP's URL, the path appended as it is).
    public func url(_ idp: String) -> String { idp + path }

    /// The IdP endpoint at exactly `path`, nil when none.
    public init?(path: String) { self.init(rawValue: path) }
}

/// The prefixes that group the mock's paths into families (spelled once, beside the
/// routes): what lives at an SP's origin root whatever its base path, what is throttled, what a
/// second-screen signature covers.
public enum RoutePrefix {
    /// REST API v1.
    public static let restV1 = "/api/v1/"
    /// REST API v2.
    public static let restV2 = V2Route.prefix
    /// The registration-code service (`Route.registrationCode`).
    public static let registrationService = "/reggie/"
    /// Its version 1, the one the mock serves.
    public static let registrationServiceV1 = "/reggie/v1/"
    /// Dynamic Client Registration (`Route.clientRegister`, `Route.clientToken`).
    public static let clientRegistration = "/o/client/"
    /// Device individualisation (`ServiceRoute.individualisation`).
    public static let individualisation = "/indiv/"
    /// The SDK's configuration (`Route.config`).
    public static let config = "/config/"
    /// An OAuth2 IdP's endpoints (`IdPRoute`).
    public static let oauth2 = "/oauth2/"
    /// The SDK family's version segment (AND-1.8 `/1.0/config/…`, iOS 1.9 `/adobe-services/1.0/…`),
    /// which the mock drops.
    public static let versionSegment = "/1.0"

    /// The paths that live at the host's root whatever the SP's base path (real-clients.md "Paths").
    public static let originRoot = [clientRegistration, individualisation, registrationService, restV1, restV2]
}
