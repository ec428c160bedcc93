import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

/// `Simulator.keepsTrace`: off, the trace stays empty and nothing else changes (the fuzzer turns it
/// off; nothing in the runtime reads it).
@Suite struct SimulatorTraceTests {
    /// `SimulatorTests`' world, with two apps.
    func setup() -> SimulationSetup {
        var setup = SimulatorTests().setup()
        setup.apps = ["app", "other"]
        return setup
    }

    /// A login in both apps, a wrong password, a fault, an `http` step and a logout: what the run
    /// shows, as text, but its trace.
    func run(_ sim: Simulator) throws -> [String] {
        var seen: [String] = []
        func take() {
            for app in sim.appNames.indices {
                while let (callback, at) = sim.popTimedCallback(app: app) { seen.append("\(app) \(callback) \(at)") }
            }
        }
        for app in sim.appNames.indices {
            sim.call(.setRequestor(requestorID: "R", serviceProviders: nil), app: app)
        }
        sim.advance(by: .seconds(1))
        sim.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        sim.call(.setSelectedProvider("X"))
        sim.run { sim.browser.isStopped }
        seen.append("\(sim.browser.state)")
        seen.append("\(sim.userLogin(user: "u", password: "wrong"))")
        sim.run { sim.browser.isStopped }
        sim.noteUser("user login")
        seen.append("\(sim.userLogin(user: "u", password: "p"))")
        sim.run { sim.browser.isStopped }
        sim.call(.handleExternalURL("adobepass://ios.app"))
        try sim.net(.fail(InjectedFailure(remaining: 1, pathPattern: ".*", status: 503, body: nil)), host: .sp("main"))
        sim.call(.getAuthorization(resource: "r", data: nil), app: 1)
        sim.call(.getAuthorization(resource: "r", data: nil))
        seen.append("\(String(describing: sim.send(HTTPRequest(method: "GET", url: "https://sp.test/nowhere"))))")
        sim.advance(by: .minutes(5))
        take()
        sim.call(.logout)
        sim.advance(by: .hours(1))
        take()
        seen.append("\(sim.now) \(sim.engineInputs) \(sim.isIdle) \(sim.violations) \(sim.browser.state)")
        seen += sim.requestLog.map { "\($0)" }
        return seen
    }

    @Test func aRunWithoutItsTraceIsTheSameRun() throws {
        let kept = Simulator(setup())
        let shown = try run(kept)
        let dropped = Simulator(setup())
        dropped.keepsTrace = false
        #expect(try run(dropped) == shown)
        #expect(dropped.trace.isEmpty)
        // The trace was there to drop: calls, callbacks, requests, answers and the user's step.
        #expect(kept.trace.count > 20)
        #expect(kept.trace.contains { if case .user = $0.kind { true } else { false } })
        #expect(shown.count > 15)
    }
}
