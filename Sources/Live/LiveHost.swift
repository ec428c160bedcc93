import MockPass
import PassModel

/// One SP or IdP of the world as the live server serves it: the URL the world declared and the
/// loopback URL that now stands for it.
public struct LiveHost: Hashable, Sendable {
    public var host: LoggedRequest.Host
    /// The base URL of the world file, e.g. `https://sp.auth.test`.
    public var originalURL: String
    /// `http://HOST:PORT` + the original path, e.g. `http://127.0.0.1:8081`.
    public var liveURL: String
    public var port: Int

    public init(host: LoggedRequest.Host, originalURL: String, liveURL: String, port: Int) {
        self.host = host
        self.originalURL = originalURL
        self.liveURL = liveURL
        self.port = port
    }

    /// `sp:NAME` or `idp:ID`, as the admin endpoint names hosts.
    public var name: String { host.description }
}

/// Both directions between the world's URLs and the live ones, so a live transcript can be written
/// with the URLs of the world file. A URL is mapped when it starts with a base URL at a path-segment
/// boundary; the longest base wins (as the mock's own host table decides).
public struct URLMapping: Hashable, Sendable {
    public var hosts: [LiveHost]

    public init(hosts: [LiveHost]) { self.hosts = hosts }

    public func toLive(_ url: String) -> String {
        map(url, from: \.originalURL, to: \.liveURL)
    }

    public func toOriginal(_ url: String) -> String {
        map(url, from: \.liveURL, to: \.originalURL)
    }

    public func host(_ host: LoggedRequest.Host) -> LiveHost? {
        hosts.first { $0.host == host }
    }

    private func map(_ url: String, from: KeyPath<LiveHost, String>, to: KeyPath<LiveHost, String>) -> String {
        var best: (base: String, replacement: String)?
        for h in hosts {
            let base = h[keyPath: from].withoutTrailingSlashes
            guard url.hasPrefix(base) else { continue }
            let rest = url.dropFirst(base.count)
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" || rest.first == "#" else { continue }
            if best.map({ base.count > $0.base.count }) ?? true {
                best = (base, h[keyPath: to].withoutTrailingSlashes)
            }
        }
        guard let best else { return url }
        return best.replacement + url.dropFirst(best.base.count)
    }
}

extension String {
    var withoutTrailingSlashes: String {
        var s = Substring(self)
        while s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}
