import MockPass
import NIOCore
import NIOPosix
import PassModel

/// The mock SP(s) and IdPs of a `World` over real HTTP/1.1 (SwiftNIO), one loopback port per host,
/// plus an admin port. Every base URL of the world is rewritten to `http://HOST:PORT` + its original
/// path before the mock is built, so the mock's redirects and form actions point at the live ports;
/// `mapping` turns URLs back for transcripts.
///
/// Faults are real: `latency` delays each answer, `down` closes the host's listener (connections are
/// refused) and cuts its open connections, `silent` reads requests and never answers, `fail` answers
/// the next N matching requests with a status. Oversized heads (431) or bodies (413) and malformed
/// HTTP (400) are refused with a short text answer, the connection closes, the server keeps serving.
public final class MockPassServer: Sendable {
    public struct Options: Sendable {
        /// The address every listener binds: loopback unless you mean otherwise.
        public var host: String
        /// Host i (SPs, then IdPs, in world order) listens on `basePort + i`; 0 = ephemeral ports.
        public var basePort: Int
        /// nil: ephemeral when `basePort` is 0, else `basePort` + the number of hosts.
        public var adminPort: Int?
        public var seed: UInt64
        /// Per-host conditions at start; a host not listed is up with a 10 ms latency.
        public var conditions: [LoggedRequest.Host: HostConditions]
        public var limits: ServerLimits
        /// Shared with the clients of a live run so both sides agree on `now`.
        public var clock: LiveClock
        /// Event loops serving the connections. The mock answers one request at a time (under
        /// `ServerCore`'s lock), so more loops only parallelize HTTP parsing and socket I/O; on two
        /// cores shared with the load generator one loop served as much as two (BENCHMARKS.md).
        public var threads: Int
        /// The request log keeps this many of the latest requests (`/admin/log`), so a server under
        /// load for hours does not grow without bound.
        public var logLimit: Int
        /// Which URLs the mock serves; see `URLs`.
        public var urls: URLs

        public init(host: String = "127.0.0.1", basePort: Int = 0, adminPort: Int? = nil, seed: UInt64 = 0x5EED,
                    conditions: [LoggedRequest.Host: HostConditions] = [:], limits: ServerLimits = ServerLimits(),
                    clock: LiveClock = LiveClock(), threads: Int = 1, logLimit: Int = 10_000, urls: URLs = .live) {
            self.logLimit = logLimit
            self.urls = urls
            self.host = host
            self.basePort = basePort
            self.adminPort = adminPort
            self.seed = seed
            self.conditions = conditions
            self.limits = limits
            self.clock = clock
            self.threads = threads
        }
    }

    /// The URLs the mock puts in its pages, redirects and configuration.
    public enum URLs: Sendable {
        /// The world's base URLs are rewritten to the loopback ones, so an app or a port under test can
        /// follow every redirect and form for real (`passim serve`).
        case live
        /// The world is served as written: each port stands for its host's original origin (as a TLS
        /// front or a virtual host would), for a client that maps hosts to ports itself, the way
        /// curl's `--connect-to` does. The live runtime of `passim run --live` works so, and its
        /// transcripts keep the world's URLs with no rewriting.
        case asWritten
    }

    /// Original URL ⇄ live URL for every host, SPs first, in world order.
    public let mapping: URLMapping
    /// The world as served: its base URLs are the live ones.
    public let world: World
    /// `http://HOST:PORT` of the admin endpoint.
    public let adminURL: String
    public let adminPort: Int
    public let clock: LiveClock
    private let core: ServerCore

    public var hosts: [LiveHost] { mapping.hosts }

    private init(mapping: URLMapping, world: World, adminPort: Int, core: ServerCore) {
        self.mapping = mapping
        self.world = world
        self.adminPort = adminPort
        self.adminURL = core.origin(port: adminPort)
        self.clock = core.clock
        self.core = core
    }

    /// Binds every host and the admin port, then starts serving.
    public static func start(world: World, options: Options = Options()) async throws -> MockPassServer {
        try await startFuture(world: world, options: options).get()
    }

    /// `start` for synchronous callers (the command line). Never call it on an event loop.
    @available(*, noasync, message: "use start(world:options:)")
    public static func startAndWait(world: World, options: Options = Options()) throws -> MockPassServer {
        try startFuture(world: world, options: options).wait()
    }

    public func now() -> Instant { clock.now() }

    /// Every request that reached a host, in arrival order.
    public func requestLog() -> [LoggedRequest] {
        core.state.withLockedValue { $0.mock?.log ?? [] }
    }

    public func conditions(of host: LoggedRequest.Host) -> HostConditions? {
        core.state.withLockedValue { s in s.bindings[host] == nil ? nil : s.conditions[host] ?? HostConditions() }
    }

    /// Changes a host's conditions; returns once listeners are closed or open again.
    public func apply(_ command: NetCommand, to host: LoggedRequest.Host) async throws {
        try await core.apply(command, to: host).get()
    }

    @available(*, noasync, message: "use apply(_:to:)")
    public func applyAndWait(_ command: NetCommand, to host: LoggedRequest.Host) throws {
        try core.apply(command, to: host).wait()
    }

    /// Closes every listener and connection and stops the event loops. Call it once.
    public func shutdown() async throws {
        try? await core.closeAll().get()
        try await core.group.shutdownGracefully()
    }

    @available(*, noasync, message: "use shutdown()")
    public func shutdownAndWait() throws {
        try? core.closeAll().wait()
        try core.group.syncShutdownGracefully()
    }

    // MARK: - Starting

    private static func startFuture(world: World, options: Options) -> EventLoopFuture<MockPassServer> {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, options.threads))
        let core = ServerCore(group: group, bindHost: options.host, limits: options.limits, clock: options.clock)
        let loop = group.next()
        let declared: [(host: LoggedRequest.Host, url: String)] =
            world.serviceProviders.map { (.sp($0.name), $0.url) } + world.identityProviders.map { (.idp($0.mvpdID), $0.url) }
        let basePaths = declared.map { (URLParts($0.url)?.path ?? "").withoutTrailingSlashes }
        let origins: [String?] = declared.map { d in
            guard options.urls == .asWritten, let parts = URLParts(d.url) else { return nil }
            return parts.origin
        }
        @Sendable func port(_ i: Int) -> Int { options.basePort == 0 ? 0 : options.basePort + i }

        let binds = declared.indices.map { i in
            core.bindListener(for: declared[i].host, basePath: basePaths[i], port: port(i), origin: origins[i])
        }
        let started = EventLoopFuture.whenAllComplete(binds, on: loop).flatMap { results -> EventLoopFuture<MockPassServer> in
            var channels: [any Channel] = []
            var failures: [String] = []
            for (i, result) in results.enumerated() {
                switch result {
                case .success(let channel): channels.append(channel)
                case .failure(let error): failures.append("cannot listen on \(options.host):\(port(i)): \(error)")
                }
            }
            guard failures.isEmpty else {
                let error = LiveError(failures.joined(separator: "; "))
                return EventLoopFuture.andAllComplete(channels.map { $0.close() }, on: loop)
                    .flatMapThrowing { throw error }
            }
            var hosts: [LiveHost] = []
            var served = world
            for (i, channel) in channels.enumerated() {
                let boundPort = channel.localAddress?.port ?? port(i)
                let liveURL = core.origin(port: boundPort) + basePaths[i]
                hosts.append(LiveHost(host: declared[i].host, originalURL: declared[i].url, liveURL: liveURL, port: boundPort))
                if options.urls == .asWritten { continue }
                if i < world.serviceProviders.count {
                    served.serviceProviders[i].url = liveURL
                } else {
                    served.identityProviders[i - world.serviceProviders.count].url = liveURL
                }
            }
            let mapping = URLMapping(hosts: hosts)
            let servedWorld = served
            core.state.withLockedValue { s in
                s.mock = MockPass(world: served, seed: options.seed, logLimit: options.logLimit)
                s.mapping = mapping
                for (i, h) in hosts.enumerated() {
                    s.bindings[h.host] = ServerCore.Binding(port: h.port, basePath: basePaths[i], origin: origins[i])
                    s.listeners[h.host] = .open(channels[i])
                    s.conditions[h.host] = options.conditions[h.host] ?? HostConditions()
                }
            }
            let adminPort = options.adminPort ?? (options.basePort == 0 ? 0 : options.basePort + declared.count)
            return core.bindAdmin(port: adminPort).flatMapError { error in
                core.closeAll().flatMapThrowing { throw LiveError("cannot listen on \(options.host):\(adminPort) (admin): \(error)") }
            }.flatMap { admin in
                core.state.withLockedValue { $0.admin = admin }
                // Hosts declared `unreachable` were bound (their port is part of the mapping), now closed.
                let down = mapping.hosts.filter { options.conditions[$0.host]?.mode == .down }
                return EventLoopFuture.andAllSucceed(down.map { core.apply(.mode(.down), to: $0.host) }, on: loop)
                    .map { MockPassServer(mapping: mapping, world: servedWorld, adminPort: admin.localAddress?.port ?? adminPort, core: core) }
            }
        }
        // A server that failed to start leaves no threads behind.
        started.whenFailure { _ in group.shutdownGracefully { _ in } }
        return started
    }
}
