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
/// the next N matching requests with a status. Oversized heads (431) or bodies (413), heads that take
/// too long (408) and malformed HTTP (400) are refused with a short text answer, the connection
/// closes, the server keeps serving; idle connections are closed and their number is capped
/// (`ServerLimits`). The admin port listens on loopback and requires `adminToken` (`AdminGate`).
public final class MockPassServer: Sendable {
    public struct Options: Sendable {
        /// The address every host's listener binds: loopback unless you mean otherwise.
        public var host: String
        /// The name put into the URLs the mock writes (redirects, form actions); nil: the machine's
        /// host name when `host` is a wildcard (`0.0.0.0`, `::`), else `host`.
        public var publicHost: String?
        /// The address the admin endpoint binds: loopback whatever `host` is, unless you mean otherwise.
        public var adminHost: String
        /// The token every admin request carries (`Authorization: Bearer TOKEN`); nil: a random one.
        public var adminToken: String?
        /// Host i (SPs, then IdPs, in world order) listens on `basePort + i`; 0 = ephemeral ports.
        public var basePort: Int
        /// nil: ephemeral when `basePort` is 0, else `basePort` + the number of hosts.
        public var adminPort: Int?
        /// The seed of the world served at start; nil: no seed, every token, secret and code from the
        /// system's secure random source (`passim serve` without `--seed`: one client's token must not
        /// tell another's). A world loaded by `POST /admin/world` brings its own seed.
        public var seed: UInt64?
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
        /// Reads a world file's text for `POST /admin/world` (the command line's world parser: Live does
        /// not know the scenario format); nil refuses that endpoint.
        public var worldLoader: WorldLoader?
        /// The CA of the proxy's tunnels and of `direct` TLS; nil: plain HTTP only (and no proxy tunnels).
        public var tls: TLS?
        /// The forward proxy's port (0: a free one); nil: no proxy.
        public var proxyPort: Int?
        /// Each refusal of the proxy and each failed TLS handshake, one line (never a key).
        public var log: @Sendable (String) -> Void
        /// The address the server's front names in `X-Forwarded-For` when a request names none, as
        /// Adobe's edge names the client's (its throttle counts by it, rest-api-v2.md 1.10): set by
        /// `passim run --live`, whose world is one device whatever process sends its requests (a
        /// port's own HTTP included); nil (`passim serve`, many clients on one address): requests
        /// reach the mock as they came, but for an `X-Forwarded-For` no trusted proxy sent.
        public var forwardedFor: String?
        /// The peers whose `X-Forwarded-For` reaches the mock (`passim serve --trusted-proxy`); from
        /// any other the header is dropped, so a client cannot pick its own throttle bucket. Default: none.
        public var trustedProxies: TrustedProxies = .none
        /// `GET /admin/lint`'s answer: a report on the request log and how many entries it dropped
        /// (`passim serve --lint`: Live does not know the rules); nil: that path is 404. It runs on a
        /// thread of its own, never an event loop, and gives up (nil) once `stopping` says the server
        /// is shutting down, so neither another host nor an exit waits for it.
        public var lintReport: LintReporter?
        /// `POST /admin/login`'s browser (`passim serve`: Harness's `RunningServer.login`, since Live
        /// has none): it walks a user's login from a REST API v2 session's
        /// `/api/v2/authenticate/{sp}/{code}`, each page load answered in-process by this server's
        /// hosts through `fetch` (nil: the URL is on no host it serves), and says how it ended. nil:
        /// that path is 404.
        public var login: LoginDriver?

        public init(
            host: String = "127.0.0.1", basePort: Int = 0, adminPort: Int? = nil, seed: UInt64? = 0x5EED,
            conditions: [LoggedRequest.Host: HostConditions] = [:], limits: ServerLimits = ServerLimits(),
            clock: LiveClock = LiveClock(), threads: Int = 1, logLimit: Int = 10_000, urls: URLs = .live,
            worldLoader: WorldLoader? = nil, publicHost: String? = nil, adminHost: String = "127.0.0.1",
            adminToken: String? = nil, tls: TLS? = nil, proxyPort: Int? = nil,
            log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.tls = tls
            self.proxyPort = proxyPort
            self.log = log
            self.publicHost = publicHost
            self.adminHost = adminHost
            self.adminToken = adminToken
            self.worldLoader = worldLoader
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

    /// `Options.lintReport`: the log, how many entries it dropped, JSON or text, and whether to give up.
    public typealias LintReporter =
        @Sendable (
            _ log: [LoggedRequest], _ dropped: Int, _ json: Bool, _ stopping: @Sendable () -> Bool
        ) -> String?

    /// `Options.login`: the URL to open, the user name and password to type, and each load's answer.
    public typealias LoginDriver =
        @Sendable (
            _ url: String, _ user: String, _ password: String, _ fetch: (HTTPRequest) -> HTTPResult?
        ) -> LoginOutcome

    /// How `POST /admin/login`'s browser walk ended.
    public enum LoginOutcome: Sendable, Equatable {
        /// The login completed: the browser left the server's hosts at this URL (the session's `redirectUrl`).
        case completed(at: String)
        /// It did not: the admin answer's status (4xx, or 502 when a host did not answer) and why.
        case refused(status: Int, reason: String)
    }

    /// TLS for `passim serve --proxy/--tls`.
    public struct TLS: Sendable {
        public var authority: CertificateAuthority
        /// Every host's own port speaks HTTPS (`--tls`), its URLs `https://HOST:PORT`.
        public var direct: Bool
        public init(authority: CertificateAuthority, direct: Bool) {
            self.authority = authority
            self.direct = direct
        }
    }

    /// What `POST /admin/world` needs from a world file's text: the world, its hosts' conditions and
    /// its seed, or why the text is unusable.
    public typealias WorldLoader = @Sendable (String) -> Result<LoadedWorld, LiveError>

    public struct LoadedWorld: Sendable {
        public var world: World
        public var conditions: [LoggedRequest.Host: HostConditions]
        public var seed: UInt64
        public init(world: World, conditions: [LoggedRequest.Host: HostConditions], seed: UInt64) {
            self.world = world
            self.conditions = conditions
            self.seed = seed
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

    /// Original URL ⇄ live URL for every host, SPs first, in world order (of the world served now:
    /// `POST /admin/world` can replace it).
    public var mapping: URLMapping { core.state.withLockedValue { $0.mapping } }
    /// The world as served: with `URLs.live`, its base URLs are the live ones.
    public var world: World {
        core.state.withLockedValue {
            $0.mock?.world ?? World(serviceProviders: [], identityProviders: [], users: [], requestors: [])
        }
    }
    /// `http://HOST:PORT` of the admin endpoint.
    public let adminURL: String
    public let adminPort: Int
    /// The forward proxy's port, when it has one.
    public let proxyPort: Int?
    /// `http://HOST:PORT` of the forward proxy (what a client's proxy setting takes), when it has one.
    public var proxyURL: String? { proxyPort.map { "http://\(core.urlHost):\($0)" } }
    /// What every admin request carries as `Authorization: Bearer TOKEN`.
    public let adminToken: String
    public let clock: LiveClock
    private let core: ServerCore

    public var hosts: [LiveHost] { mapping.hosts }

    private init(adminPort: Int, proxyPort: Int?, core: ServerCore) {
        self.adminPort = adminPort
        self.proxyPort = proxyPort
        self.adminURL = core.adminOrigin(port: adminPort)
        self.adminToken = core.adminToken
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

    /// How many of the oldest requests the log dropped (its bound, `Options.logLimit`).
    public func requestLogDropped() -> Int {
        core.state.withLockedValue { $0.mock?.logDropped ?? 0 }
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

    /// 32 bytes from the system's random source, in hex. The live server is not the simulation:
    /// this token must not be predictable.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }

    /// Why a token cannot be used, or nil: it goes into a header, so visible ASCII only.
    public static func tokenProblem(_ token: String) -> String? {
        if token.isEmpty { return "the admin token is empty" }
        if !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            return "the admin token must be visible ASCII (no spaces)"
        }
        return nil
    }

    private static func startFuture(world: World, options: Options) -> EventLoopFuture<MockPassServer> {
        if let token = options.adminToken, let problem = tokenProblem(token) {
            return MultiThreadedEventLoopGroup.singleton.next().makeFailedFuture(LiveError(problem))
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, options.threads))
        let core = ServerCore(group: group, options: options, adminToken: options.adminToken ?? randomToken())
        let hostCount = world.serviceProviders.count + world.identityProviders.count
        let started = core.serve(world: world, seed: options.seed, conditions: options.conditions, urls: options.urls)
            .flatMap { _ -> EventLoopFuture<Int> in
                let adminPort = options.adminPort ?? (options.basePort == 0 ? 0 : options.basePort + hostCount)
                return core.bindAdmin(port: adminPort).flatMapError { error in
                    core.closeAll().flatMapThrowing {
                        throw LiveError("cannot listen on \(options.adminHost):\(adminPort) (admin): \(error)")
                    }
                }.map { admin in
                    core.state.withLockedValue { $0.admin = admin }
                    return admin.localAddress?.port ?? adminPort
                }
            }
            .flatMap { adminPort -> EventLoopFuture<MockPassServer> in
                guard let proxyPort = options.proxyPort else {
                    return core.group.next().makeSucceededFuture(
                        MockPassServer(adminPort: adminPort, proxyPort: nil, core: core))
                }
                return core.bindProxy(port: proxyPort).flatMapError { error in
                    core.closeAll().flatMapThrowing {
                        throw LiveError("cannot listen on \(options.host):\(proxyPort) (proxy): \(error)")
                    }
                }.map { proxy in
                    core.state.withLockedValue { $0.proxy = proxy }
                    return MockPassServer(
                        adminPort: adminPort, proxyPort: proxy.localAddress?.port ?? proxyPort, core: core)
                }
            }
        // A server that failed to start leaves no threads behind.
        started.whenFailure { _ in group.shutdownGracefully { _ in } }
        return started
    }
}
