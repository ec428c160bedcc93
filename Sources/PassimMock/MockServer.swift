@_exported import Passim
import Live
import Scenario

/// The mock Adobe Pass (SP and MVPD identity providers) over real loopback HTTP, for a test: start it
/// for a world, point the client under test at `url(of:)`, read what it received from
/// `requestLog`, move its clock and break its hosts. One listener per host of the world; URLs in its
/// pages and redirects are the live ones, so a client can follow them for real (as `passim serve`).
///
/// ```swift
/// let mock = try await MockServer.start(world: """
///     sp main "https://sp.auth.test"
///     mvpd Comcast "Xfinity" at main
///     user alice "secret" at Comcast allow CNN
///     requestor REQ1
///     """)
/// defer { Task { try await mock.stop() } }
/// let config = mock.url(of: .sp("main"))! + "/config/REQ1"
/// ```
public final class MockServer: Sendable {
    private let server: MockPassServer

    private init(_ server: MockPassServer) { self.server = server }

    /// A world in the scenario format's world statements (SCENARIO-FORMAT.md: `sp`, `mvpd`, `user`,
    /// `requestor`, `seed`…; the hosts' `latency`, `unreachable` and `silent` apply).
    public static func start(world text: String) async throws -> MockServer {
        let loaded = try load(text)
        return try await start(world: loaded.world, conditions: loaded.conditions, seed: loaded.seed)
    }

    /// A world built in Swift. `conditions`: hosts that start slow, down or silent (default: up, 10 ms).
    public static func start(
        world: World, conditions: [LoggedRequest.Host: HostConditions] = [:], seed: UInt64 = 0x5EED
    ) async throws -> MockServer {
        MockServer(try await MockPassServer.start(world: world, options: options(conditions, seed)))
    }

    @available(*, noasync, message: "use start(world:)")
    public static func startAndWait(world text: String) throws -> MockServer {
        let loaded = try load(text)
        return MockServer(
            try MockPassServer.startAndWait(world: loaded.world, options: options(loaded.conditions, loaded.seed)))
    }

    private static func load(_ text: String) throws -> MockPassServer.LoadedWorld {
        switch WorldBuilder.setup(forWorldText: text) {
        case .success(let setup):
            return MockPassServer.LoadedWorld(world: setup.world, conditions: setup.links, seed: setup.seed)
        case .failure(let error): throw PassimError(error.message)
        }
    }

    private static func options(_ conditions: [LoggedRequest.Host: HostConditions], _ seed: UInt64)
        -> MockPassServer.Options
    {
        // The clock is held at the simulation's start, so tokens and TTLs come out as in a scenario.
        MockPassServer.Options(seed: seed, conditions: conditions, clock: LiveClock(heldAt: .simulationStart))
    }

    /// Closes every listener. Call it once.
    public func stop() async throws { try await server.shutdown() }

    @available(*, noasync, message: "use stop()")
    public func stopAndWait() throws { try server.shutdownAndWait() }

    /// The live base URL of a host (`http://127.0.0.1:PORT` + the world URL's path), nil if the world has no such host.
    public func url(of host: LoggedRequest.Host) -> String? { server.mapping.host(host)?.liveURL }

    /// A URL of the world (`https://sp.auth.test/...`) as this server serves it.
    public func liveURL(_ worldURL: String) -> String { server.mapping.toLive(worldURL) }

    /// The admin endpoint (`POST /admin/world`, `/admin/net`, `/admin/clock`; docs/SERVE.md) and its token.
    public var adminURL: String { server.adminURL }
    public var adminToken: String { server.adminToken }

    /// Every request that reached a host, in arrival order.
    public var requestLog: [LoggedRequest] { server.requestLog() }

    // MARK: Clock

    /// The server's time (held at 2026-01-01 00:00:00 GMT until moved).
    public var now: Instant { server.now() }
    /// Moves the clock (token expiry, TTLs).
    @discardableResult
    public func advanceClock(by span: Millis) -> Instant { server.clock.advance(by: span) }
    public func holdClock(at instant: Instant) { server.clock.hold(at: instant) }

    // MARK: Faults

    /// Changes a host's conditions: `.mode(.down)`, `.mode(.silent)`, `.latency(…)`, `.fail(…)`.
    public func apply(_ command: NetCommand, to host: LoggedRequest.Host) async throws {
        try await server.apply(command, to: host)
    }

    @available(*, noasync, message: "use apply(_:to:)")
    public func applyAndWait(_ command: NetCommand, to host: LoggedRequest.Host) throws {
        try server.applyAndWait(command, to: host)
    }

    public func conditions(of host: LoggedRequest.Host) -> HostConditions? { server.conditions(of: host) }
}
