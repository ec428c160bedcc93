import Entitlement
import MockPass

/// Everything a simulated run starts from.
public struct SimulationSetup: Sendable {
    public var world: World
    /// Latency and faults per host; a host without a link answers after 10 ms.
    public var links: [LoggedRequest.Host: HostConditions]
    public var seed: UInt64
    /// App names; the first is the scenario's `app`.
    public var apps: [String]
    /// The engine configuration every app starts with.
    public var engine: EngineConfiguration
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

    /// Each host of the world with its base URL, SPs first, in the world's order.
    public var bases: [(host: LoggedRequest.Host, url: String)] {
        world.serviceProviders.map { (LoggedRequest.Host.sp($0.name), $0.url) }
            + world.identityProviders.map { (LoggedRequest.Host.idp($0.mvpdID), $0.url) }
    }
}
