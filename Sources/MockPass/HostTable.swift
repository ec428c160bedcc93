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
        entries.append(
            Entry(
                scheme: parts.scheme, authority: parts.authority.lowercased(),
                path: path, host: host, pathAndSlash: path + "/"))
    }

    /// The host and the path relative to its base URL (`/` when the URL is the base itself).
    /// Runs of slashes count as one, as real front ends take them (an old client sends
    /// `//adobe-services/1.0/…`), and an SP path loses a leading `/1.0` version segment, which the
    /// SDKs put before every SDK endpoint (facts §1): handlers see one spelling of each path.
    func match(_ url: URLParts) -> (host: LoggedRequest.Host, path: String)? {
        let authority = HostTable.lowercased(url.authority)
        let path = HostTable.collapsingSlashes(url.path)
        var best: Entry?
        for e in entries where e.scheme == url.scheme && e.authority == authority {
            guard path == e.path || path.hasPrefix(e.pathAndSlash) else { continue }
            if best.map({ e.path.count > $0.path.count }) ?? true { best = e }
        }
        guard let best else { return rootService(path, scheme: url.scheme, authority: authority) }
        // A base URL without a path (the usual case) takes nothing off: no copy, no counting.
        var rest = best.path.isEmpty ? path : String(path.dropFirst(best.path.count))
        if case .sp = best.host, rest == HostTable.versionSegment || rest.hasPrefix(HostTable.versionSegment + "/") {
            rest = String(rest.dropFirst(HostTable.versionSegment.count))
        }
        return (best.host, rest.isEmpty ? "/" : rest)
    }

    /// `text.lowercased()`, and `text` itself when that is the same: an ASCII text without an
    /// uppercase letter (every authority the simulation sends) is not copied per request.
    static func lowercased(_ text: String) -> String {
        func plain(_ c: UInt8) -> Bool { c < 0x80 && !(c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) }
        let unchanged =
            text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(plain) } ?? text.utf8.allSatisfy(plain)
        return unchanged ? text : text.lowercased()
    }

    /// The SDK family's version segment (AND-1.8 `/1.0/config/…`, iOS 1.9 `/adobe-services/1.0/…`).
    static let versionSegment = RoutePrefix.versionSegment

    /// `path` with every run of `/` made one; the same string when it has none (the usual case).
    static func collapsingSlashes(_ path: String) -> String {
        var previousSlash = false
        let doubled =
            path.utf8.withContiguousStorageIfAvailable { b in
                b.indices.dropFirst().contains { b[$0] == UInt8(ascii: "/") && b[$0 - 1] == UInt8(ascii: "/") }
            }
            ?? path.utf8.contains(where: { c in
                defer { previousSlash = c == UInt8(ascii: "/") }
                return previousSlash && c == UInt8(ascii: "/")
            })
        guard doubled else { return path }
        var out = ""
        out.reserveCapacity(path.utf8.count)
        previousSlash = false
        for ch in path.unicodeScalars {
            if ch == "/" && previousSlash { continue }
            previousSlash = ch == "/"
            out.unicodeScalars.append(ch)
        }
        return out
    }

    /// Paths that live at the host's root whatever the SP's base path (real-clients.md "Paths"):
    /// registration, device individualisation, the regcode service and REST API v1 and v2.
    static let rootPrefixes = RoutePrefix.originRoot

    /// An SP whose base URL has a path (`…/adobe-services`) still serves the root services of its
    /// origin: the first SP of that scheme and authority takes them, with the whole path.
    private func rootService(_ path: String, scheme: String, authority: String) -> (
        host: LoggedRequest.Host, path: String
    )? {
        guard HostTable.rootPrefixes.contains(where: { path.hasPrefix($0) }) else { return nil }
        for e in entries where e.scheme == scheme && e.authority == authority {
            if case .sp = e.host { return (e.host, path) }
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
