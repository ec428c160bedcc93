import PassModel

/// What a host of the mock serves at a request's path, recognised once per request (in `prepare`,
/// off a server's lock) through PassModel's definitions (`Route`, `ServiceRoute`, `IdPRoute`;
/// no path is spelled in the mock). Every handler switches over it; a path that is none
/// of them is `unknown`, which each host answers with the 404 it always gave.
enum Endpoint: Sendable, Equatable {
    /// Under `/api/v2/`: REST v2's operation (`V2Route`, which needs the method), nil when none has
    /// the path (REST v2 answers its own JSON 404).
    case restV2(V2Route?)
    /// An endpoint the engine calls (and the mock serves), with its variable part as sent.
    case route(Route, parameter: String?)
    /// An endpoint the mock serves to the SDK's other clients, with its variable part as sent.
    case service(ServiceRoute, parameter: String?)
    /// Under `/config/` without a requestor (`/config/`, `/config/a/b`): the configuration's own 404.
    case configFamily
    /// An identity provider's page.
    case idp(IdPRoute)
    case unknown

    /// The endpoint of a `method` request at `path` (relative to `host`'s base URL, as `HostTable`
    /// gives it).
    init(host: LoggedRequest.Host, method: String, path: String) {
        switch host {
        case .sp: self = Endpoint(spMethod: method, path: path)
        case .idp: self = IdPRoute(path: path).map(Endpoint.idp) ?? .unknown
        }
    }

    /// The SP's endpoint at `path`. The families' paths are disjoint (`RouteTests`), so the order
    /// of the look-ups is only the cheapest first for the engine's requests.
    init(spMethod method: String, path: String) {
        if path.hasPrefix(RoutePrefix.restV2) {
            self = .restV2(V2Route(method: method, path: path))
        } else if let (route, parameter) = Route.route(atSPPath: path) {
            self = .route(route, parameter: parameter)
        } else if let (service, parameter) = ServiceRoute.route(atSPPath: path) {
            self = .service(service, parameter: parameter)
        } else if path.hasPrefix(RoutePrefix.config) {
            self = .configFamily
        } else {
            self = .unknown
        }
    }

    /// A page a browser loads, which carries no Bearer token or signature (the client gate lets it pass).
    var isBrowserPage: Bool {
        switch self {
        case .route(let route, _): route == .authenticateSAML || route == .logout
        case .service(let service, _):
            service == .secondScreenLogin || service == .assertionConsumer || service == .logoutResponse
                || service == .completePassiveAuthentication
        case .restV2, .configFamily, .idp, .unknown: false
        }
    }

    /// The web family's own endpoints, which take no Bearer token: yt-dlp's current release sends one
    /// only while it logs in, and a call that finds its authN token in its cache sends `authorize` and
    /// `shortAuthorize` without it (docs/WIRE.md, "Real clients"; CONFORMANCE choice 30).
    var isWebOnly: Bool {
        guard case .service(let service, _) = self else { return false }
        return service == .webSession || service == .webAuthorize || service == .webShortAuthorize
            || service == .webGetMetadata
    }
}
