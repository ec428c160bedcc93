extension HTTPRequest {
    /// The request sent to `origin` (`http://127.0.0.1:PORT`) in place of its own host, keeping its
    /// path, query and `Host`, as curl's `--connect-to` does: the server sees the world's URL, so
    /// cookies, redirects and logs keep it. nil when the URL has no host.
    public func connecting(to origin: String) -> HTTPRequest? {
        guard let parts = URLParts(url) else { return nil }
        var live = self
        live.url = origin + (parts.path.isEmpty ? "/" : parts.path) + (parts.rawQuery.map { "?" + $0 } ?? "")
        if live.headers["Host"] == nil { live.headers.add("Host", parts.authority) }
        return live
    }
}
