import Entitlement
import MockPass
import PassModel

/// Everything a simulated run starts from.
public struct SimulationSetup: Sendable {
    /// The device's address on the simulated network, and the second screen's (RFC 5737's
    /// documentation range): its apps and its browser share the first (docs/CONFORMANCE.md, choice 80).
    public static let deviceAddress = "192.0.2.10"
    public static let secondScreenAddress = "192.0.2.20"

    public var world: World
    /// Latency and faults per host; a host without a link answers after 10 ms.
    public var links: [LoggedRequest.Host: HostConditions]
    public var seed: UInt64
    /// App names; the first is the scenario's `app`.
    public var apps: [String]
    /// The engine configuration every app starts with.
    public var engine: EngineConfiguration
    /// Apps with a wire of their own (`app NAME wire W`): a world with both faces, one app on the
    /// SDK's wire and another on REST API v2 against the same SPs.
    public var appWires: [String: EngineWire] = [:]
    /// The wire of the second screen where a tvOS user enters the code; nil: the code's own.
    public var secondScreenWire: EngineWire?
    /// The simulated wire hands the engine and the browser the mock's answers as values too
    /// (`HTTPResponse.decoded`), so they parse no bytes: for the fuzzer's runs, but a seeded sample
    /// of them. Off, every answer is read from its bytes, as over a real wire (`passim run`).
    public var typedResponses = false

    public init(
        world: World, links: [LoggedRequest.Host: HostConditions] = [:], seed: UInt64 = 1,
        apps: [String] = ["app"], engine: EngineConfiguration = EngineConfiguration()
    ) {
        self.world = world
        self.links = links
        self.seed = seed
        self.apps = apps
        self.engine = engine
    }

    /// A world with both faces (an app or the second screen on a wire of its own): written for both
    /// wires at once, so a run's `--wire` leaves it as it is.
    public var isTwoFaced: Bool { !appWires.isEmpty || secondScreenWire != nil }

    /// App `name`'s engine configuration: `engine`, on the app's own wire if it has one.
    public func engine(forApp name: String) -> EngineConfiguration {
        var configuration = engine
        if let wire = appWires[name] { configuration.wire = wire }
        return configuration
    }

    /// Each host of the world with its base URL, SPs first, in the world's order.
    public var bases: [(host: LoggedRequest.Host, url: String)] {
        world.serviceProviders.map { (LoggedRequest.Host.sp($0.name), $0.url) }
            + world.identityProviders.map { (LoggedRequest.Host.idp($0.mvpdID), $0.url) }
    }
}
