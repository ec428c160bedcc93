import MockPass
import NIOCore
import PassModel

/// Serving a world: at start, and again for each `POST /admin/world` (a `passim run --live --server`
/// run loads every scenario's world into one running server).
extension ServerCore {
    /// Stops serving the current world's hosts (their listeners and connections close; the admin port
    /// stays), then binds one listener per host of `world` and serves it. Hosts `down` in `conditions`
    /// are bound (their port is part of the mapping), then closed. `seed` nil: the system's secure
    /// random source (`MockPass.init(world:seed:limits:)`).
    func serve(
        world: World, seed: UInt64?, conditions: [LoggedRequest.Host: HostConditions],
        urls: MockPassServer.URLs
    ) -> EventLoopFuture<URLMapping> {
        let loop = group.next()
        let declared: [(host: LoggedRequest.Host, url: String)] =
            world.serviceProviders.map { (.sp($0.name), $0.url) }
            + world.identityProviders.map { (.idp($0.mvpdID), $0.url) }
        let basePaths = declared.map { (URLParts($0.url)?.path ?? "").withoutTrailingSlashes }
        let origins: [String?] = declared.map { d in urls == .asWritten ? URLParts(d.url)?.origin : nil }
        let base = basePort
        @Sendable func port(_ i: Int) -> Int { base == 0 ? 0 : base + i }
        let core = self

        return stopServingHosts().flatMap { _ in
            let binds = declared.indices.map { i in
                core.bindListener(for: declared[i].host, basePath: basePaths[i], port: port(i), origin: origins[i])
            }
            return EventLoopFuture.whenAllComplete(binds, on: loop)
        }.flatMap { results -> EventLoopFuture<URLMapping> in
            var channels: [any Channel] = []
            var failures: [String] = []
            for (i, result) in results.enumerated() {
                switch result {
                case .success(let channel): channels.append(channel)
                case .failure(let error): failures.append("cannot listen on \(core.bindHost):\(port(i)): \(error)")
                }
            }
            guard failures.isEmpty else {
                let error = LiveError(failures.joined(separator: "; "))
                return EventLoopFuture.andAllComplete(channels.map { $0.close() }, on: loop).flatMapThrowing {
                    throw error
                }
            }
            var hosts: [LiveHost] = []
            var served = world
            for (i, channel) in channels.enumerated() {
                let boundPort = channel.localAddress?.port ?? port(i)
                let liveURL = core.origin(port: boundPort) + basePaths[i]
                hosts.append(
                    LiveHost(host: declared[i].host, originalURL: declared[i].url, liveURL: liveURL, port: boundPort))
                guard urls == .live else { continue }
                if i < world.serviceProviders.count {
                    served.serviceProviders[i].url = liveURL
                } else {
                    served.identityProviders[i - world.serviceProviders.count].url = liveURL
                }
            }
            let mapping = URLMapping(hosts: hosts)
            let logLimit = core.logLimit
            core.state.withLockedValue { s in
                s.mock = MockPass(world: served, seed: seed, logLimit: logLimit)
                s.mapping = mapping
                s.proxyRoutes = ServerCore.proxyRoutes(mapping, urls: urls)
                for (i, h) in hosts.enumerated() {
                    s.bindings[h.host] = ServerCore.Binding(port: h.port, basePath: basePaths[i], origin: origins[i])
                    s.listeners[h.host] = .open(channels[i])
                    s.conditions[h.host] = conditions[h.host] ?? HostConditions()
                }
            }
            let down = hosts.filter { conditions[$0.host]?.mode == .down }
            return EventLoopFuture.andAllSucceed(down.map { core.apply(.mode(.down), to: $0.host) }, on: loop).map {
                mapping
            }
        }
    }

    /// Closes every host listener and connection and forgets the world (the admin port stays open).
    private func stopServingHosts() -> EventLoopFuture<Void> {
        let channels = state.withLockedValue { s -> [any Channel] in
            var out: [any Channel] = []
            for (_, listener) in s.listeners { out += ServerCore.stop(listener) }
            for (_, connections) in s.connections { out += connections.values }
            s.mock = nil
            s.mapping = URLMapping(hosts: [])
            s.proxyRoutes = []
            s.bindings = [:]
            s.listeners = [:]
            s.connections = [:]
            s.conditions = [:]
            return out
        }
        return EventLoopFuture.andAllComplete(channels.map { $0.close() }, on: group.next())
    }
}
