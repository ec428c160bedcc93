import Entitlement
import Live
import MockPass
import PassModel
import Port
import Simulation
import Testing
@testable import Harness

/// Harness composes each runtime for a world; the simulator drives what it composes the same way.
@Suite struct RuntimeTests {
    func setup(latency: Millis = Millis(40)) -> SimulationSetup {
        let sp = World.ServiceProvider(name: "main", url: "https://sp.test", mvpds: [MVPD(id: "X", displayName: "X")])
        let world = World(
            serviceProviders: [sp], identityProviders: [World.IdentityProvider(mvpdID: "X")],
            users: [World.User(name: "u", password: "p", mvpdID: "X")],
            requestors: [World.Requestor(id: "R")])
        return SimulationSetup(
            world: world, links: [.sp("main"): HostConditions(latency: latency)],
            seed: 7, engine: EngineConfiguration(defaultServiceProvider: "https://sp.test"))
    }

    /// Drives `sim` through `setRequestor` and returns the callback and the instant it came.
    func configure(_ sim: Simulator) -> (Callback, Instant)? {
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        return sim.popTimedCallback()
    }

    @Test func theSimulatedRuntimeAnswersFromTheInProcessMock() throws {
        let running = try Runtime.simulated.start(RuntimeWorld(setup: setup()))
        defer { running.close() }
        #expect(running.wire == nil && running.unimplemented == nil)
        let (callback, at) = try #require(configure(running.simulator))
        #expect(callback == .setRequestorComplete(status: 1))
        #expect(at == .simulationStart + Millis(40))
        #expect(running.simulator.requestLog.first?.headers["Host"] == nil)
    }

    /// The live runtime: the same callback at the same virtual instant, the request over real HTTP.
    @Test func theLiveRuntimeCrossesTheWireAtTheSameVirtualInstants() throws {
        let running = try Runtime.live.start(RuntimeWorld(setup: setup()))
        defer { running.close() }
        #expect(running.wire != nil)
        let (callback, at) = try #require(configure(running.simulator))
        #expect(callback == .setRequestorComplete(status: 1))
        #expect(at == .simulationStart + Millis(40))
        #expect(running.simulator.requestLog.first?.headers["Host"] == "sp.test")
    }

    /// A port on the live network waits beyond the largest latency of the world and of the steps.
    @Test func aWorldsLatenciesIncludeItsLinksAndItsSteps() {
        let world = RuntimeWorld(setup: setup(latency: Millis(40)), latencies: [Millis(900)])
        #expect(world.latencies.max() == Millis(900))
        #expect(RuntimeWorld(setup: setup(latency: Millis(40))).latencies == [Millis(40)])
    }

    /// A running server is loaded with the world's text: a world without one cannot be run there,
    /// and the error says which part failed.
    @Test func aRunningServerNeedsTheWorldsText() {
        let runtime = Runtime.liveServer(adminURL: "http://127.0.0.1:1", adminToken: nil)
        let world = RuntimeWorld(setup: setup()) { () throws(HarnessError) in
            throw HarnessError("cannot read w.scenario")
        }
        do {
            _ = try runtime.start(world)
            Issue.record("a running server started without the world's text")
        } catch {
            #expect(error.message == "live mode: cannot read w.scenario")
        }
    }

    @Test func aPortThatCannotStartIsAPortError() {
        let runtime = Runtime.port(PortCommand(command: "/nonexistent/port-binary", timeout: .seconds(2)))
        #expect {
            try runtime.start(RuntimeWorld(setup: setup()))
        } throws: { error in
            (error as? HarnessError)?.message.hasPrefix("port: ") == true
        }
    }

    @Test func theFlagsNameTheRuntime() {
        #expect(Runtime.simulated.flags == "")
        #expect(Runtime.live.flags == "--live ")
        #expect(Runtime.liveServer(adminURL: "http://a:1", adminToken: "t").flags == "--live --server http://a:1 ")
        #expect(Runtime(network: .live, port: PortCommand(command: "it's")).flags == "--live --port 'it'\\''s' ")
    }

    /// `passim serve`'s loader: what the parser refuses is refused with its message, and a world it
    /// reads is served with its links and seed.
    @Test func theServersWorldLoaderKeepsTheParsersVerdict() throws {
        let refuse = RunningServer.worldLoader { _ in .failure(HarnessError("w:2:1: no steps in a world")) }
        guard case .failure(let error) = refuse("x") else { Issue.record("accepted"); return }
        #expect(error.message == "w:2:1: no steps in a world")
        let s = setup()
        let accept = RunningServer.worldLoader { _ in .success(s) }
        guard case .success(let loaded) = accept("x") else { Issue.record("refused"); return }
        #expect(loaded.seed == 7 && loaded.conditions[.sp("main")]?.latency == Millis(40))
        #expect(loaded.world.serviceProviders.map(\.name) == ["main"])
    }
}
