import MockPass
import NIOCore
import NIOPosix
import NIOSSL
import PassModel

/// The forward proxy (`passim serve --proxy PORT`) and TLS on the hosts' own ports (`--tls`).
///
/// A proxy connection starts with one request head (`ProxyFrontHandler`): `CONNECT host:port` to a
/// host of the world opens a tunnel in which passim itself is that host over TLS (a certificate for
/// it, signed by the server's CA); an absolute-form request (`GET http://host/path`) is answered
/// as that host, and so are the requests after it on the same connection. The mock serves every
/// request in-process: nothing is ever forwarded and no outgoing connection is ever made, so a host
/// the world lacks gets 502 naming the hosts it has.
extension ServerCore {
    /// One host name the proxy serves: the origin its requests are built on (the URL the mock serves
    /// it at) and the world hosts there, the first one standing for the name when a path matches none.
    struct ProxyRoute {
        var origin: String
        var host: LoggedRequest.Host
    }

    func bindProxy(port: Int) -> EventLoopFuture<any Channel> {
        let core = self
        return admittingBootstrap { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ProxyFrontHandler(core: core))
            }
        }
        .bind(host: bindHost, port: port)
    }

    /// A refusal of the proxy, after which its connection closes (docs/WIRE.md, "Refusals"): what
    /// follows on it is not read, so a client learns of the refusal once, not request after request.
    static func closing(_ response: HTTPResponse) -> HTTPResponse {
        var r = response
        r.headers.fields.append(HTTPHeader("Connection", "close"))
        return r
    }

    /// Each distinct host name of the world now served, with the origin its requests are built on,
    /// in world order (SPs first). Made once per world served (`serve(world:…)`), not per request.
    func proxyRoutes() -> [(name: String, route: ProxyRoute)] {
        state.withLockedValue { $0.proxyRoutes }
    }

    static func proxyRoutes(_ mapping: URLMapping, urls: MockPassServer.URLs) -> [(name: String, route: ProxyRoute)] {
        var out: [(name: String, route: ProxyRoute)] = []
        for h in mapping.hosts {
            guard let original = URLParts(h.originalURL), let name = ServerCore.hostName(of: original.authority) else {
                continue
            }
            guard !out.contains(where: { $0.name == name }) else { continue }
            let origin = urls == .asWritten ? original.origin : (URLParts(h.liveURL)?.origin ?? original.origin)
            out.append((name, ProxyRoute(origin: origin, host: h.host)))
        }
        return out
    }

    func proxyRoute(forHostName name: String) -> ProxyRoute? {
        let wanted = name.lowercased()
        return proxyRoutes().first { $0.name == wanted }?.route
    }

    /// The 502 of a host the world lacks; `what` names the request ("CONNECT evil.test:443").
    func unknownHostResponse(_ what: String) -> HTTPResponse {
        let names = proxyRoutes().map(\.name)
        let text =
            "502 Bad Gateway: passim serves only the hosts of its world and forwards nothing; "
            + "\(what) is none of them. Its hosts: \(names.isEmpty ? "(none)" : names.joined(separator: ", "))\n"
        return HTTPResponse(status: 502, contentType: ServerCore.text, text: text)
    }

    /// Answers a request that came through the proxy (in a tunnel or in absolute form) as the host
    /// its URL names. In a tunnel `request.url` is already absolute: the tunnel's origin + the target.
    /// `peer` names the client in log lines; `address` is its address, for `TrustedProxies`.
    func proxyAnswer(_ request: HTTPRequest, peer: String, address: SocketAddress?, on loop: any EventLoop)
        -> EventLoopFuture<HTTPResponse?>
    {
        guard let parts = URLParts(request.url), parts.isHTTP, let name = ServerCore.hostName(of: parts.authority)
        else {
            log("proxy: \(peer) sent \(request.method) \(Self.shown(request.url)): refused (400, not an absolute URL)")
            let text =
                "400 Bad Request: a proxy request names its target in absolute form "
                + "(GET http://host/path HTTP/1.1, or CONNECT host:443 first); got \(Self.shown(request.url))\n"
            return loop.makeSucceededFuture(
                ServerCore.closing(HTTPResponse(status: 400, contentType: ServerCore.text, text: text)))
        }
        if request.method == "CONNECT" {
            log("proxy: \(peer) sent CONNECT after another request on its connection: refused (400)")
            return loop.makeSucceededFuture(
                ServerCore.closing(
                    HTTPResponse(
                        status: 400, contentType: ServerCore.text,
                        text: "400 Bad Request: CONNECT must be the first request on a proxy connection\n")))
        }
        guard let route = proxyRoute(forHostName: name) else {
            log(
                "proxy: \(peer) asked for \(request.method) \(Self.shown(parts.origin)): refused (502, not a host of the world)"
            )
            return loop.makeSucceededFuture(ServerCore.closing(unknownHostResponse(Self.shown(parts.authority))))
        }
        var served = request
        served.url = route.origin + (parts.path.isEmpty ? "/" : parts.path) + (parts.rawQuery.map { "?" + $0 } ?? "")
        let (host, basePath) = state.withLockedValue { s -> (LoggedRequest.Host, String) in
            let host = s.mock?.host(for: served.url) ?? route.host
            return (host, s.bindings[host]?.basePath ?? "")
        }
        return answer(served, host: host, basePath: basePath, from: address, on: loop)
    }

    /// The names a direct TLS listener's certificate covers: where clients reach it, and the world
    /// host it stands for when it serves the world's URLs as written (a client mapping hosts to ports).
    func directTLSNames(origin: String?) -> [String] {
        var names = [urlHost, "localhost", "127.0.0.1", "::1"].map {
            $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0
        }
        if let origin, let authority = URLParts(origin)?.authority, let name = ServerCore.hostName(of: authority) {
            names.insert(name, at: 0)
        }
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted }
    }

    /// A TLS context for `names`, made once per server (signing a certificate costs a millisecond or two).
    func tlsContext(for names: [String], requireSNI: Bool) throws -> NIOSSLContext {
        guard let tls else { throw LiveError("this server has no certificate authority (give --proxy or --tls)") }
        let key = names.joined(separator: ",") + (requireSNI ? " sni" : "")
        if let context = tlsContexts.withLockedValue({ $0[key] }) { return context }
        let log = self.log
        let context = try tls.authority.makeServerContext(for: names, requireSNI: requireSNI) { log("tls: " + $0) }
        tlsContexts.withLockedValue { $0[key] = context }
        return context
    }

    /// TLS in front of whatever the channel has after it; failed handshakes are logged by `TLSWatcher`.
    func addTLS(to channel: any Channel, context: NIOSSLContext, peer: String) throws {
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(NIOSSLServerHandler(context: context))
        try sync.addHandler(TLSWatcher(peer: peer, timeout: limits.handshakeTimeout, log: log))
    }

    /// `host` of `host:port` or `[v6]:port`, lowercased; nil when empty.
    static func hostName(of authority: String) -> String? {
        var a = Substring(authority)
        if let at = a.lastIndex(of: "@") { a = a[a.index(after: at)...] }
        if a.hasPrefix("[") {
            guard let close = a.firstIndex(of: "]") else { return nil }
            let inner = a[a.index(after: a.startIndex)..<close]
            return inner.isEmpty ? nil : inner.lowercased()
        }
        if let colon = a.lastIndex(of: ":") { a = a[..<colon] }
        return a.isEmpty ? nil : a.lowercased()
    }

    /// A client's text as a log line shows it: user-info and secret query values redacted
    /// (`LogText.redacted`), then printable ASCII, at most 200 characters.
    static func shown(_ text: String) -> String {
        let safe = LogText.redacted(text)
        let clean = String(
            safe.unicodeScalars.prefix(200).map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
        return safe.unicodeScalars.count > 200 ? clean + "…" : clean
    }
}
