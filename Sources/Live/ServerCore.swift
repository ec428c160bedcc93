import MockPass
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import PassModel

/// The shared heart of `MockPassServer`: the mock, the per-host conditions, the listeners and open
/// connections, all behind one lock. The mock is a value type: every request runs it under the lock,
/// so requests on different connections (and event loops) are handled one at a time, in the order
/// they take the lock, with `now` read from the shared `LiveClock`.
final class ServerCore: Sendable {
    /// A host's listener. `down` and up again: open → releasing → held → opening → open.
    enum Listener {
        case open(any Channel)
        /// Binding or listening again; when it is done, the host's mode decides whether it stays.
        case opening
        /// Closing for `down`; when it is closed, its port is held and the host's mode looked at again.
        case releasing
        /// `down`: nothing listens, the port is held (nil: it could not be, and is free).
        case held(PortHold?)
        /// Shut down.
        case closed
    }

    struct Binding {
        var port: Int
        /// The original base URL's path without trailing slashes ("" for a bare origin).
        var basePath: String
        /// The origin request URLs are built on: nil for the listener's own `http://HOST:PORT`, or the
        /// world's original origin when the server serves the world's URLs as written.
        var origin: String?
    }

    struct State {
        var mock: MockPass?
        var mapping = URLMapping(hosts: [])
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        var bindings: [LoggedRequest.Host: Binding] = [:]
        var listeners: [LoggedRequest.Host: Listener] = [:]
        var connections: [LoggedRequest.Host: [ObjectIdentifier: any Channel]] = [:]
        var admin: (any Channel)?
        var proxy: (any Channel)?
        /// The proxy's host names and where each is served, for the world now served (`POST
        /// /admin/world` may change it; `ServerCore.proxyRoutes(_:urls:)`).
        var proxyRoutes: [(name: String, route: ProxyRoute)] = []
        var shuttingDown = false
    }

    let group: MultiThreadedEventLoopGroup
    let bindHost: String
    /// The host as it appears in the URLs the mock writes (`--public-host`; an IPv6 address in brackets).
    let urlHost: String
    /// The address the admin endpoint binds, and the host of its URL.
    let adminHost: String
    let adminURLHost: String
    let adminToken: String
    let limits: ServerLimits
    /// Open connections over every listener of this server, capped at `limits.connectionCap` (read once at start).
    let openConnections: OpenConnections
    let clock: LiveClock
    /// Host i of a world listens on `basePort + i` (0: ephemeral ports), for every world served.
    let basePort: Int
    let logLimit: Int
    let worldLoader: MockPassServer.WorldLoader?
    let lintReport: MockPassServer.LintReporter?
    let login: MockPassServer.LoginDriver?
    let forwardedFor: String?
    let trustedProxies: TrustedProxies
    let state = NIOLockedValueBox(State())
    /// The CA and whether the hosts' own ports speak TLS (`--tls`); nil: plain HTTP, no proxy tunnels.
    let tls: MockPassServer.TLS?
    /// Where refusals of the proxy and failed TLS handshakes are reported (`passim serve`: standard error).
    let log: @Sendable (String) -> Void
    /// TLS contexts by the names their certificate covers (see `tlsContext(for:requireSNI:)`); bounded
    /// by the host names of the worlds served, since a CONNECT to any other host gets none.
    let tlsContexts = NIOLockedValueBox([String: NIOSSLContext]())

    init(group: MultiThreadedEventLoopGroup, options: MockPassServer.Options, adminToken: String) {
        self.basePort = options.basePort
        self.logLimit = options.logLimit
        self.worldLoader = options.worldLoader
        self.lintReport = options.lintReport
        self.login = options.login
        self.forwardedFor = options.forwardedFor
        self.trustedProxies = options.trustedProxies
        self.group = group
        self.bindHost = options.host
        let publicHost = options.publicHost ?? PublicHost.defaultName(bound: options.host)
        self.urlHost = PublicHost.inURL(publicHost)
        self.adminHost = options.adminHost
        self.adminURLHost =
            PublicHost.isWildcard(options.adminHost)
            ? PublicHost.inURL(publicHost) : PublicHost.inURL(options.adminHost)
        self.adminToken = adminToken
        self.limits = options.limits
        self.openConnections = OpenConnections(
            cap: options.limits.connectionCap, peerCap: options.limits.peerConnectionCap,
            evictionGrace: TimeAmount(options.limits.lingerTimeout) + .seconds(1),
            maxLingering: max(1, options.limits.descriptorMargin / 2))
        self.clock = options.clock
        self.tls = options.tls
        // Every line is made safe here, whatever the sink: its values came from the network.
        let sink = options.log
        self.log = { sink(LogText.line($0)) }
    }

    func origin(port: Int) -> String { "\(tls?.direct == true ? "https" : "http")://\(urlHost):\(port)" }

    func adminOrigin(port: Int) -> String { "http://\(adminURLHost):\(port)" }

    // MARK: - Listening

    /// `hold`: listen on the held port's own socket instead of binding `port`.
    func bindListener(
        for host: LoggedRequest.Host, basePath: String, port: Int, origin: String?, hold: PortHold? = nil
    ) -> EventLoopFuture<any Channel> {
        bind(host: bindHost, port: port, hold: hold, origin: origin) { [self] channel in
            register(channel, for: host)
            let peer = channel.remoteAddress
            return { request, loop in self.answer(request, host: host, basePath: basePath, from: peer, on: loop) }
        }
    }

    func bindAdmin(port: Int) -> EventLoopFuture<any Channel> {
        let core = self
        return bind(host: adminHost, port: port, adminOrigin: true) { channel in
            core.state.withLockedValue { s in
                if s.shuttingDown { channel.close(promise: nil) }
            }
            let gate = AdminGate(
                token: core.adminToken, port: channel.localAddress?.port ?? port,
                ownHosts: [core.adminURLHost, PublicHost.inURL(core.adminHost)])
            return { request, loop in
                switch gate.check(request) {
                case .refuse(let refusal): return loop.makeSucceededFuture(refusal)
                case .pass(let parameters): return core.adminAnswer(request, parameters: parameters, on: loop)
                }
            }
        }
    }

    /// `SO_REUSEADDR` lets a host closed by `net … down` listen again on its port at once. Accept
    /// failures (EMFILE) back off by NIO's own `AcceptBackoffHandler`, which `ServerBootstrap` adds;
    /// the connection cap keeps them from happening in the first place.
    private func bind(
        host bindHost: String, port: Int, hold: PortHold? = nil, origin fixedOrigin: String? = nil,
        adminOrigin: Bool = false, responder: @escaping @Sendable (any Channel) -> Responder
    ) -> EventLoopFuture<any Channel> {
        let core = self
        let bootstrap = admittingBootstrap { channel in
            let localPort = channel.localAddress?.port ?? port
            let origin = fixedOrigin ?? (adminOrigin ? core.adminOrigin(port: localPort) : core.origin(port: localPort))
            let respond = responder(channel)
            return channel.eventLoop.makeCompletedFuture {
                if !adminOrigin, core.tls?.direct == true {
                    let names = core.directTLSNames(origin: fixedOrigin)
                    try core.addTLS(
                        to: channel, context: try core.tlsContext(for: names, requireSNI: false),
                        peer: "a client of port \(localPort)")
                }
                try core.addHTTPHandlers(to: channel, origin: origin, respond: respond)
            }
        }
        guard let hold else { return bootstrap.bind(host: bindHost, port: port) }
        do {
            return bootstrap.withBoundSocket(try hold.startListening(backlog: ServerCore.backlog))
        } catch {
            return group.next().makeFailedFuture(error)
        }
    }

    static let backlog: CInt = 256

    /// A listener whose every accepted connection passes the connection caps before `initialize` sets
    /// it up; one refused (`OpenConnections.admit`) is closed at once (a failed initializer makes NIO
    /// close the socket).
    func admittingBootstrap(_ initialize: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) -> ServerBootstrap
    {
        let core = self
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: ServerCore.backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                if let refusal = core.openConnections.admit(channel) {
                    return channel.eventLoop.makeFailedFuture(LiveError(refusal.message))
                }
                return initialize(channel)
            }
    }

    /// The HTTP/1.1 server handlers every connection ends with (after TLS, when there is TLS).
    /// `origin` nil: a forward proxy's connection, whose requests name their target in absolute form.
    func addHTTPHandlers(to channel: any Channel, origin: String?, respond: @escaping Responder) throws {
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.headBytes
        decoderLimits.maxHeaderListSize = limits.headBytes
        let decoder = HTTPRequestDecoder(
            leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop,
            limitConfiguration: decoderLimits)
        let core = self
        let connection = HTTPConnectionHandler(origin: origin, limits: limits, respond: respond) { activity in
            core.openConnections.report(activity, channel)
        }
        let sync = channel.pipeline.syncOperations
        try sync.addHandler(ByteWatcher(connection))
        // The buffer bound stops a request line that never ends (the decoder only bounds headers).
        try sync.addHandler(ByteToMessageHandler(decoder, maximumBufferSize: limits.headBytes + 1024))
        try sync.addHandler(connection)
    }

    /// Tracks a host's connections so `down` can cut them too: a client reusing a kept-alive
    /// connection must see the host disappear, not just new connections.
    private func register(_ channel: any Channel, for host: LoggedRequest.Host) {
        let id = ObjectIdentifier(channel)
        let keep = state.withLockedValue { s -> Bool in
            guard !s.shuttingDown, s.conditions[host]?.mode != .down else { return false }
            s.connections[host, default: [:]][id] = channel
            return true
        }
        guard keep else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            state.withLockedValue { s in s.connections[host]?[id] = nil }
        }
    }

    // MARK: - Answering a host's request

    private enum Step {
        case answered(HTTPResponse?, Millis)
        case prepare(RequestPreparer, Millis)
        /// An injected failure answers: journaled (log entry made outside the lock), then answered.
        case fault(InjectedFailure, RequestPreparer?, Millis)
    }

    /// The lock is held only to read the host's conditions and to run the mock's state transitions:
    /// the request is prepared (URL, form, every XML it carries) outside it, and a large body on a
    /// thread pool, so a slow parse delays only its own answer, never another host's.
    ///
    /// `peer`: the connection's remote address; its `X-Forwarded-For` reaches the mock only when it
    /// is a trusted proxy (`TrustedProxies`).
    func answer(
        _ received: HTTPRequest, host: LoggedRequest.Host, basePath: String, from peer: SocketAddress?,
        on loop: any EventLoop
    ) -> EventLoopFuture<HTTPResponse?> {
        let now = clock.now()
        let edged = trustedProxies.edge(received, from: peer)
        let request = forwardedFor.map { edged.forwarded(for: $0) } ?? edged
        let step = state.withLockedValue { s -> Step in
            var conditions = s.conditions[host] ?? HostConditions()
            // A request that slipped in as the host went down gets no answer; its connection is being closed.
            guard conditions.mode == .up else { return .answered(nil, .zero) }
            // The path is parsed (and the conditions written back) only when a failure is pending:
            // on the hot path of a load test both were a measurable share of a request's cost.
            if !conditions.failures.isEmpty {
                let failure = conditions.takeFailure(for: ServerCore.relativePath(of: request.url, basePath: basePath))
                s.conditions[host] = conditions
                if let failure { return .fault(failure, s.mock?.preparer, conditions.latency) }
            }
            guard let mock = s.mock else {
                return .answered(
                    HTTPResponse(status: 503, contentType: "text/plain", text: "503 Service Unavailable: starting\n"),
                    .zero)
            }
            return .prepare(mock.preparer, conditions.latency)
        }
        let delayed: @Sendable (HTTPResponse?, Millis) -> EventLoopFuture<HTTPResponse?> = { response, latency in
            guard let response, latency.value > 0 else { return loop.makeSucceededFuture(response) }
            return loop.scheduleTask(in: .milliseconds(latency.value)) { Optional(response) }.futureResult
        }
        switch step {
        case .answered(let response, let latency):
            return delayed(response, latency)
        case .fault(let failure, let preparer, let latency):
            // Only the URL, form fields and headers are read (no document is parsed), so this stays
            // on the event loop whatever the body.
            if let prepared = preparer?.prepareForJournal(request) {
                state.withLockedValue { $0.mock?.journal(prepared, fault: failure, at: now) }
            }
            return delayed(failure.response, latency)
        case .prepare(let preparer, let latency) where request.body.count < MockLimits.prepareInlineBytes:
            let prepared = preparer.prepare(request)
            return delayed(state.withLockedValue { $0.mock?.handle(prepared, at: now) }, latency)
        case .prepare(let preparer, let latency):
            return NIOThreadPool.singleton.runIfActive(eventLoop: loop) { preparer.prepare(request) }
                .flatMapErrorThrowing { _ in preparer.prepare(request) }
                .flatMap { [self] prepared in
                    let response = state.withLockedValue { s -> HTTPResponse? in
                        guard (s.conditions[host]?.mode ?? .up) == .up else { return nil }
                        return s.mock?.handle(prepared, at: now)
                    }
                    return delayed(response, latency)
                }
        }
    }

    /// The path of `url` relative to the host's base path, `/` for the base itself.
    static func relativePath(of url: String, basePath: String) -> String {
        let path = URLParts(url)?.path ?? "/"
        let relative = path.hasPrefix(basePath) ? String(path.dropFirst(basePath.count)) : path
        return relative.isEmpty ? "/" : relative
    }

    // MARK: - Network commands

    func apply(_ command: NetCommand, to host: LoggedRequest.Host) -> EventLoopFuture<Void> {
        let loop = group.next()
        let name = host.description
        guard state.withLockedValue({ $0.bindings[host] != nil }) else {
            return loop.makeFailedFuture(LiveError("unknown host \(name)"))
        }
        switch command {
        case .latency(let latency):
            guard latency.value >= 0 else { return loop.makeFailedFuture(LiveError("a latency cannot be negative")) }
            state.withLockedValue { $0.conditions[host, default: HostConditions()].latency = latency }
            return loop.makeSucceededVoidFuture()
        case .fail(let failure):
            guard failure.remaining >= 1 else {
                return loop.makeFailedFuture(LiveError("fail takes a count of at least 1"))
            }
            guard InjectedStatus.range.contains(failure.status) else {
                let range = InjectedStatus.range
                return loop.makeFailedFuture(
                    LiveError(
                        "status \(failure.status) is not a final HTTP status (\(range.lowerBound)-\(range.upperBound))")
                )
            }
            var cost = 0
            if let pattern = failure.pathPattern {
                guard let regex = try? LinearRegex(pattern) else {
                    return loop.makeFailedFuture(LiveError("path is not a valid pattern: \(ServerCore.shown(pattern))"))
                }
                cost = regex.stepCost
            }
            let limits = self.limits
            let refusal = state.withLockedValue { s -> LiveError? in
                var conditions = s.conditions[host, default: HostConditions()]
                // Every request to the host is matched against every pending pattern until one
                // matches, so their costs add up.
                let pending = conditions.failures.reduce(0) { $0 + $1.patternStepCost }
                if cost > 0, let problem = ServerCore.patternWorkProblem(pending: pending, adding: cost, limits) {
                    return LiveError(problem)
                }
                conditions.failures.append(failure)
                s.conditions[host] = conditions
                return nil
            }
            if let refusal { return loop.makeFailedFuture(refusal) }
            return loop.makeSucceededVoidFuture()
        case .mode(let mode):
            return setMode(mode, for: host, on: loop)
        }
    }

    /// Why a path pattern of cost `adding` (`LinearRegex.stepCost`) cannot join patterns costing
    /// `pending` on one host, or nil: a path holds at most `headBytes` scalars, so a request costs at
    /// most their sum times that (limit `net-pattern-steps`).
    static func patternWorkProblem(pending: Int, adding: Int, _ limits: ServerLimits) -> String? {
        let allowed = limits.netPatternSteps / max(limits.headBytes, 1)
        guard pending + adding > allowed else { return nil }
        let with = pending == 0 ? "" : " (\(pending + adding) with the patterns pending on the host)"
        return
            "path pattern too costly: \(adding) steps per path character\(with), at most \(allowed) (limit: net-pattern-steps, \(limits.netPatternSteps) steps over a \(limits.headBytes)-byte head)"
    }

    private enum ModeAction {
        case nothing
        case close([any Channel], listener: (any Channel)?)
        case listen(Binding, PortHold?)
    }

    /// `down` closes the host's connections and its listener and holds its port (`PortHold`); up
    /// listens on it again. A change that arrives while the listener is opening or releasing is
    /// looked at when that ends (`settle`).
    private func setMode(_ mode: LinkMode, for host: LoggedRequest.Host, on loop: any EventLoop) -> EventLoopFuture<
        Void
    > {
        let action = state.withLockedValue { s -> ModeAction in
            s.conditions[host, default: HostConditions()].mode = mode
            guard s.bindings[host] != nil, !s.shuttingDown else { return .nothing }
            if mode == .down {
                let connections = Array((s.connections[host] ?? [:]).values)
                s.connections[host] = [:]
                guard case .open(let listener) = s.listeners[host] else { return .close(connections, listener: nil) }
                s.listeners[host] = .releasing
                return .close(connections, listener: listener)
            }
            guard case .held(let hold) = s.listeners[host], let binding = s.bindings[host] else { return .nothing }
            s.listeners[host] = .opening
            return .listen(binding, hold)
        }
        return perform(action, for: host, on: loop)
    }

    private func perform(_ action: ModeAction, for host: LoggedRequest.Host, on loop: any EventLoop)
        -> EventLoopFuture<Void>
    {
        switch action {
        case .nothing:
            return loop.makeSucceededVoidFuture()
        case .close(let connections, let listener):
            let closed = EventLoopFuture.andAllComplete(connections.map { $0.close() }, on: loop)
            guard let listener else { return closed }
            return closed.flatMap { self.release(listener, of: host, on: loop) }
        case .listen(let binding, let hold):
            let core = self
            return bindListener(
                for: host, basePath: binding.basePath, port: binding.port, origin: binding.origin, hold: hold
            ).flatMap { channel in
                let opened = core.state.withLockedValue { s -> Bool? in
                    guard case .opening = s.listeners[host], !s.shuttingDown else { return nil }
                    guard s.conditions[host]?.mode != .down else {
                        s.listeners[host] = .releasing
                        return false
                    }
                    s.listeners[host] = .open(channel)
                    return true
                }
                switch opened {
                case true?: return loop.makeSucceededVoidFuture()
                case false?: return core.release(channel, of: host, on: loop)
                case nil: return channel.close()
                }
            }.flatMapError { error in
                core.state.withLockedValue { s in
                    if case .opening = s.listeners[host] { s.listeners[host] = .held(nil) }
                }
                return loop.makeFailedFuture(LiveError("cannot listen again on port \(binding.port): \(error)"))
            }
        }
    }

    /// Closes a `releasing` listener, holds its port, then settles.
    private func release(_ listener: any Channel, of host: LoggedRequest.Host, on loop: any EventLoop)
        -> EventLoopFuture<Void>
    {
        let address = listener.localAddress
        return listener.close().flatMapError { _ in loop.makeSucceededVoidFuture() }.flatMap {
            // A port that cannot be held is free, as a closed listener's always was: the host is still down.
            let hold = address.flatMap { try? PortHold(address: $0) }
            let action = self.state.withLockedValue { s -> ModeAction in
                guard case .releasing = s.listeners[host], !s.shuttingDown, let binding = s.bindings[host] else {
                    hold?.release()  // the world was replaced or the server is shutting down
                    return .nothing
                }
                guard s.conditions[host]?.mode != .down else {
                    s.listeners[host] = .held(hold)
                    return .nothing
                }
                s.listeners[host] = .opening  // up again while it was releasing
                return .listen(binding, hold)
            }
            return self.perform(action, for: host, on: loop)
        }
    }

    // MARK: - Shutdown

    /// Closes every listener and connection. The event loop group is shut down by the caller.
    func closeAll() -> EventLoopFuture<Void> {
        let channels = state.withLockedValue { s -> [any Channel] in
            s.shuttingDown = true
            var out: [any Channel] = []
            for (_, listener) in s.listeners { out += ServerCore.stop(listener) }
            for (_, connections) in s.connections { out += connections.values }
            if let admin = s.admin { out.append(admin) }
            if let proxy = s.proxy { out.append(proxy) }
            s.listeners = s.listeners.mapValues { _ in .closed }
            s.connections = [:]
            s.admin = nil
            s.proxy = nil
            return out
        }
        return EventLoopFuture.andAllComplete(channels.map { $0.close() }, on: group.next())
    }

    /// What closing a listener takes: its channel to close, or its held port released now.
    static func stop(_ listener: Listener) -> [any Channel] {
        switch listener {
        case .open(let channel): return [channel]
        case .held(let hold?):
            hold.release()
            return []
        case .held(nil), .opening, .releasing, .closed: return []
        }
    }
}
