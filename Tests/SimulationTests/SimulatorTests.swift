import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

@Suite struct SimulatorTests {
    func setup(latency: Millis = Millis(40), mode: LinkMode = .up) -> SimulationSetup {
        let sp = World.ServiceProvider(name: "main", url: "https://sp.test", mvpds: [MVPD(id: "X", displayName: "X")])
        let world = World(serviceProviders: [sp], identityProviders: [World.IdentityProvider(mvpdID: "X")],
                          users: [World.User(name: "u", password: "p", mvpdID: "X")],
                          requestors: [World.Requestor(id: "R")])
        return SimulationSetup(world: world, links: [.sp("main"): HostConditions(latency: latency, mode: mode)],
                               seed: 7, engine: EngineConfiguration(defaultServiceProvider: "https://sp.test"))
    }

    @Test func responsesArriveAfterTheLatency() {
        let sim = Simulator(setup())
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.advance(by: Millis(39))
        #expect(!sim.hasCallback())
        sim.advance(by: Millis(1))
        #expect(sim.popCallback() == .setRequestorComplete(status: 1))
        #expect(sim.now == Instant.simulationStart + Millis(40))
    }

    @Test func browserLoginEndToEnd() {
        let sim = Simulator(setup())
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setRequestorComplete(status: 1))
        sim.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        _ = sim.popCallback()
        sim.call(.setSelectedProvider("X"))
        _ = sim.popCallback()  // selection tracking
        guard case .navigateToUrl? = sim.popCallback() else { Issue.record("no navigateToUrl"); return }
        sim.run { sim.browser.isStopped }
        guard case .showing(let url, let page) = sim.browser.state else { Issue.record("\(sim.browser.state)"); return }
        #expect(url == "https://x.idp.test/sso")
        #expect(page.forms.first?.fields.contains { $0.name == "password" } == true)
        // A wrong password shows the login page again, with its message.
        #expect(sim.userLogin(user: "u", password: "wrong"))
        sim.run { sim.browser.isStopped }
        guard case .showing(_, let again) = sim.browser.state else { Issue.record("\(sim.browser.state)"); return }
        #expect(again.message != nil)
        #expect(sim.userLogin(user: "u", password: "p"))
        sim.run { sim.browser.isStopped }
        #expect(sim.browser.state == .intercepted(url: "adobepass://ios.app"))
        sim.call(.handleExternalURL("adobepass://ios.app"))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setAuthenticationStatus(status: 1, errorCode: ""))
        // The engine's sessionDevice carried the browser's session cookie.
        let sessionDevice = sim.requestLog.last { $0.path == "/sessionDevice" }
        #expect(sessionDevice?.headers["Cookie"]?.contains("JSESSIONID=") == true)
    }

    @Test func downAndSilentLinks() {
        let down = Simulator(setup(mode: .down))
        down.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        down.run { down.hasCallback() }
        #expect(down.popCallback() == .setRequestorComplete(status: 0))
        #expect(down.now == Instant.simulationStart, "a refused connection fails at once")

        let silent = Simulator(setup(mode: .silent))
        silent.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        silent.run { silent.hasCallback() }
        #expect(silent.popCallback() == .setRequestorComplete(status: 0))
        #expect(silent.now == Instant.simulationStart + .seconds(30))
        #expect(silent.isIdle)
    }

    @Test func injectedFailuresMatchThePath() {
        let sim = Simulator(setup())
        sim.network.links[.sp("main")]?.failures = [InjectedFailure(remaining: 1, pathPattern: "/config/.*", status: 503)]
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setRequestorComplete(status: 0))
        #expect(sim.requestLog.isEmpty, "the injected failure never reached the mock")
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setRequestorComplete(status: 1))
    }
}
