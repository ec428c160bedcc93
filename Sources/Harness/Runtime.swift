import Entitlement
import Live
import MockPass
import PassModel
import Port
import Simulation

/// Whose engine runs, and where its requests go: the runtimes of ARCHITECTURE.md, chosen by
/// `passim run`'s `--live`, `--server` and `--port`. `start` composes one for a world; the scenario
/// runner drives what it returns and never builds a runtime itself.
public struct Runtime: Sendable {
    public enum Network: Sendable, Hashable {
        /// The in-process mock, in virtual time.
        case simulated
        /// Over loopback HTTP to a server started for each scenario (`LiveWire`).
        case live
        /// Over loopback HTTP to a running `passim serve`, through its admin endpoint at this URL,
        /// each admin request carrying this token.
        case server(adminURL: String, adminToken: String?)
    }
    public var network: Network
    /// A port of the SDK behind the driver protocol (docs/PORTING.md) in place of passim's engine.
    /// On a live network the port sends its own requests ("Live network").
    public var port: PortCommand?
    /// On a live network: the wall time a run may take before the wire stops sending (each request
    /// then fails at once). nil: no budget. The mock comparison of `passim fuzz` sets it.
    public var wallBudget: Duration?
    /// The requests passim's engine makes behind the API (`--wire`): every app of every
    /// world runs on it, whatever the world says; nil: each world's own (`wire`, SDK by default).
    public var wire: EngineWire?

    public init(
        network: Network = .simulated, port: PortCommand? = nil, wallBudget: Duration? = nil, wire: EngineWire? = nil
    ) {
        self.network = network
        self.port = port
        self.wallBudget = wallBudget
        self.wire = wire
    }

    public static let simulated = Runtime()
    public static let live = Runtime(network: .live)
    public static func liveServer(adminURL: String, adminToken: String?) -> Runtime {
        Runtime(network: .server(adminURL: adminURL, adminToken: adminToken))
    }
    public static func port(_ command: PortCommand) -> Runtime { Runtime(port: command) }

    /// The options of `passim run` that choose this runtime, each followed by a space.
    public var flags: String {
        var flags = ""
        switch network {
        case .simulated: break
        case .live: flags += "--live "
        case .server(let url, _): flags += "--live --server \(url) "
        }
        if let port { flags += "--port '" + port.command.replacingOccurrences(of: "'", with: "'\\''") + "' " }
        if let wire { flags += "--wire \(wire.rawValue) " }
        return flags
    }

    /// How long a port on the live network waits for an answer, beyond the largest latency the
    /// world gives a host: long enough for a busy machine, and what a silent host costs in real time.
    static let portFetchSlack = Millis.seconds(2)

    /// Checks, once before any scenario runs, what every scenario would need from outside: a running
    /// server's admin endpoint and token, a port's process and its `ready`. One set-up mistake is then
    /// one message quoting what came, not a failure per scenario.
    public func preflight() throws(HarnessError) {
        if case .server(let url, let token) = network {
            do throws(LiveError) {
                try RemoteServer.check(adminURL: url, token: token)
            } catch {
                throw HarnessError("live mode: \(error.message)")
            }
        }
        // An in-process port (PassimConformance's adapters) has no process to fail to start.
        if let port, port.inProcess == nil {
            do {
                let session = try PortSession(
                    port, apps: ["app"], engine: EngineConfiguration(),
                    at: .simulationStart)
                session.close()
            } catch {
                var why = error.message
                while why.hasSuffix("\n") { why.removeLast() }
                throw HarnessError("the port did not start (\(port.command)): \(why)")
            }
        }
    }

    /// Composes this runtime for `world`: its wire (a server per scenario, or a running one loaded
    /// with the world), its engines (passim's, or a port's process), and the simulator that drives
    /// them. The caller closes what it gets.
    public func start(_ world: RuntimeWorld) throws(HarnessError) -> RunningRuntime {
        var world = world
        // A world with both faces keeps its wires as written (SimulationSetup.isTwoFaced).
        if let wire = self.wire, !world.setup.isTwoFaced { world.setup.engine.wire = wire }
        var wire: LiveWire?
        do throws(LiveError) {
            switch network {
            case .simulated: break
            case .live: wire = try LiveWire(world.setup)
            case .server(let url, let token):
                let text: String
                do { text = try world.text() } catch { throw LiveError(error.message) }
                wire = try LiveWire(world.setup, server: try RemoteServer(adminURL: url, token: token, world: text))
            }
        } catch {
            throw HarnessError("live mode: \(error.message)")
        }
        if let wallBudget { wire?.deadline = ContinuousClock.now + wallBudget }
        var session: PortSession?
        if let port {
            let timeout = (world.latencies.max() ?? .zero) + Runtime.portFetchSlack
            // A port that does not send its own requests writes them; the live wire carries them.
            let network = port.sendsOwnRequests ? wire.map { $0.portNetwork(world.setup, fetchTimeout: timeout) } : nil
            do {
                session = try PortSession(
                    port, apps: world.setup.apps, engine: world.setup.engine, appWires: world.setup.appWires,
                    network: network,
                    at: .simulationStart)
            } catch {
                wire?.close()
                throw HarnessError("port: \(error.message)")
            }
        }
        let engines = session.map { s in world.setup.apps.map { PortEngine(session: s, app: $0) as any AppEngine } }
        return RunningRuntime(
            simulator: Simulator(world.setup, wire: wire, engines: engines), wire: wire, port: session)
    }
}

/// What a runtime is composed for: the world, and what only some runtimes read.
public struct RuntimeWorld {
    public var setup: SimulationSetup
    /// The world's statements as `passim serve` reads them (a running server loads them through its
    /// admin endpoint); read only by that runtime.
    public var text: () throws(HarnessError) -> String
    /// Latencies the run may give hosts later (`net … latency`): a port on the live network waits
    /// for an answer beyond the largest of these and the world's own.
    public var latencies: [Millis]

    public init(
        setup: SimulationSetup, latencies: [Millis] = [],
        text: @escaping () throws(HarnessError) -> String = { () throws(HarnessError) -> String in
            throw HarnessError("no world text")
        }
    ) {
        self.setup = setup
        self.latencies = setup.links.values.map(\.latency) + latencies
        self.text = text
    }
}

/// A runtime composed for one run. `simulator` drives it in every case: the live runtimes are the
/// simulator over a live wire, a port's engines are `AppEngine`s over its process.
public final class RunningRuntime {
    public let simulator: Simulator
    let wire: LiveWire?
    private let port: PortSession?

    init(simulator: Simulator, wire: LiveWire?, port: PortSession?) {
        self.simulator = simulator
        self.wire = wire
        self.port = port
    }

    /// The lines exchanged with the port so far, when its command keeps them (`PortCommand.log`).
    public var portConversation: [String] { port?.conversation ?? [] }

    /// How many messages the port was sent after `hello`; nil without a port.
    public var portAsked: Int? { port?.asked }

    /// The port answered `hello` with `unimplemented`: its scenarios are unimplemented, not broken.
    public var unimplemented: String? {
        guard let failure = port?.failure, case .unimplemented = failure else { return nil }
        return "port: \(failure)"
    }

    /// A port that writes after its `idle` without new input breaks the protocol: the engine fails
    /// with it (`Simulator.engineFailure`). `wait`: how long to give a late line to arrive.
    public func checkNothingUnasked(wait: Millis = .zero) {
        port?.checkNothingUnasked(wait: wait)
    }

    /// Stops the server and the port (a pooled port waits for the next scenario).
    public func close() {
        wire?.close()
        port?.close()
    }
}

/// A runtime that could not be composed; the message says which part and why.
public struct HarnessError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension RunningRuntime {
    /// The simulated runtime for `setup` (nothing to start, so nothing can fail).
    public static func simulated(_ setup: SimulationSetup) -> RunningRuntime {
        RunningRuntime(simulator: Simulator(setup), wire: nil, port: nil)
    }
}

extension Runtime {
    /// A port's expectations file (`--expect FILE`): which scenarios it is known to fail or skip.
    /// Named here so that the suite, which judges results by it, needs no import of `Port`.
    public typealias Expectations = Port.Expectations
    public typealias Mismatch = Port.Mismatch
}
