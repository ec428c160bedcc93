import PassModel

/// Which host serves a URL: the longest base URL that is a prefix of it, compared on scheme,
/// authority (case-insensitively) and whole path segments.
struct HostTable: Sendable {
    struct Entry: Sendable {
        var scheme: String
        var authority: String
        /// Without a trailing slash; "" for a base URL with no path.
        var path: String
        var host: LoggedRequest.Host
        /// `path + "/"`, built once rather than for every request.
        var pathAndSlash: String
    }

    private(set) var entries: [Entry] = []

    /// SPs come before IdPs, each in declaration order, so a base URL declared twice goes to the first.
    init(world: World) {
        for sp in world.serviceProviders { add(sp.url, .sp(sp.name)) }
        for idp in world.identityProviders { add(idp.url, .idp(idp.mvpdID)) }
    }

    private mutating func add(_ base: String, _ host: LoggedRequest.Host) {
        guard let parts = URLParts(base), !parts.authority.isEmpty else { return }
        let path = parts.path.withoutTrailingSlashes
        entries.append(Entry(scheme: parts.scheme, authority: parts.authority.lowercased(),
                             path: path, host: host, pathAndSlash: path + "/"))
    }

    /// The host and the path relative to its base URL (`/` when the URL is the base itself).
    func match(_ url: RequestURL) -> (host: LoggedRequest.Host, path: String)? {
        let authority = url.authority.lowercased()
        var best: Entry?
        for e in entries where e.scheme == url.scheme && e.authority == authority {
            guard url.path == e.path || url.path.hasPrefix(e.pathAndSlash) else { continue }
            if best.map({ e.path.count > $0.path.count }) ?? true { best = e }
        }
        guard let best else { return rootService(url, authority: authority) }
        // A base URL without a path (the usual case) takes nothing off: no copy, no counting.
        if best.path.isEmpty { return (best.host, url.path.isEmpty ? "/" : url.path) }
        let rest = String(url.path.dropFirst(best.path.count))
        return (best.host, rest.isEmpty ? "/" : rest)
    }

    /// Paths that live at the host's root whatever the SP's base path (real-clients.md "Paths"):
    /// registration, device individualisation, the regcode service and REST API v1.
    static let rootPrefixes = ["/o/client/", "/indiv/", "/reggie/", "/api/v1/"]

    /// An SP whose base URL has a path (`…/adobe-services`) still serves the root services of its
    /// origin: the first SP of that scheme and authority takes them, with the whole path.
    private func rootService(_ url: RequestURL, authority: String) -> (host: LoggedRequest.Host, path: String)? {
        guard HostTable.rootPrefixes.contains(where: { url.path.hasPrefix($0) }) else { return nil }
        for e in entries where e.scheme == url.scheme && e.authority == authority {
            if case .sp = e.host { return (e.host, url.path) }
        }
        return nil
    }
}

extension String {
    var withoutTrailingSlashes: String {
        var s = Substring(self)
        while s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
