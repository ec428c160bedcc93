/// The admin endpoint of `passim serve` (its own port; Live's `ServerCore+Admin`), which the live
/// runtime drives (Harness's `RemoteServer`): passim's own API, not Adobe's wire, but defined once
/// like it, for the server to recognise and the harness to build.
public enum AdminRoute: String, Hashable, Sendable, CaseIterable {
    /// `GET|POST /admin/clock`
    case clock = "/admin/clock"
    /// `POST /admin/net`
    case net = "/admin/net"
    /// `GET /admin/log[?after=N][&limit=M]`
    case log = "/admin/log"
    /// `GET /admin/lint[?format=json]`
    case lint = "/admin/lint"
    /// `GET /admin/hosts`
    case hosts = "/admin/hosts"
    /// `POST /admin/world`
    case world = "/admin/world"
    /// `POST /admin/login`
    case login = "/admin/login"
    /// `GET /admin/stores`
    case stores = "/admin/stores"

    public var path: String { rawValue }

    /// The URL at `adminURL` (the admin endpoint's origin, no trailing slash), with `query` if any.
    public func url(_ adminURL: String, query: [(String, String)] = []) -> String {
        let url = adminURL + path
        return query.isEmpty ? url : url + "?" + FormCoding.encode(query)
    }

    /// The admin endpoint at exactly `path`, nil when none.
    public init?(path: String) { self.init(rawValue: path) }
}
