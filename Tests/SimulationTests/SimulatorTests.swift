import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

@Suite struct SimulatorTests {
    func setup(latency: Millis = Millis(40), mode: LinkMode = .up) -> SimulationSetup {
        let sp = World.ServiceProvider(name: "main", url: "https://sp.test", mvpds: [MVPD(id: "X", displayName: "X")])
        let world = World(
            serviceProviders: [sp], identityProviders: [World.IdentityProvider(mvpdID: "X")],
            users: [World.User(name: "u", password: "p", mvpdID: "X")],
            requestors: [World.Requestor(id: "R")])
        return SimulationSetup(
            world: world, links: [.sp("main"): HostConditions(latency: latency, mode: mode)],
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

    @Test func injectedFailuresMatchThePath() throws {
        let sim = Simulator(setup())
        sim.network.links[.sp("main")]?.failures = [
            InjectedFailure(remaining: 1, pathPattern: "/config/.*", status: 503)
        ]
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setRequestorComplete(status: 0))
        // The injected failure answered in the mock's place: journaled with its fault, nothing more.
        #expect(sim.requestLog.map(\.fault) == ["injected failure 503"])
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.run { sim.hasCallback() }
        #expect(sim.popCallback() == .setRequestorComplete(status: 1))
        // The failure was consumed on the link the runtime keeps (the link is changed in place).
        #expect(sim.network.links[.sp("main")]?.failures.isEmpty == true)
        // The log read in place is the mock's own, with nothing dropped.
        let mock = try #require(sim.wire as? MockWire).mock
        #expect(sim.requestLog == mock.log)
        #expect(sim.sequencedRequestLog?.entries == mock.log)
        #expect(sim.sequencedRequestLog?.dropped == mock.requestLog.dropped)
    }

    /// The second screen uses the code the TV shows with the programmer and MVPD it was made for,
    /// as the person reads them off the screen: not whatever registration request reached an SP
    /// last (here another app's, sent after the code was shown and not yet answered).
    @Test func theSecondScreenUsesTheCodeOfTheAppThatShowedIt() throws {
        var s = setup()
        s.world.requestors.append(World.Requestor(id: "R2"))
        s.apps = ["app", "second"]
        s.engine.platform = .tvos
        let sim = Simulator(s)
        func login(app: Int, requestor: String) {
            sim.call(.setRequestor(requestorID: requestor, serviceProviders: nil), app: app)
            sim.run { sim.hasCallback(app: app) }
            #expect(sim.popCallback(app: app) == .setRequestorComplete(status: 1))
            sim.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), app: app)
            _ = sim.popCallback(app: app)  // the provider dialog
            sim.call(.setSelectedProvider("X"), app: app)
        }
        login(app: 0, requestor: "R")
        sim.run { sim.lastRegistrationCode != nil }
        let code = try #require(sim.lastRegistrationCode)
        login(app: 1, requestor: "R2")
        #expect(sim.requestLog.last?.path == "/reggie/v1/R2/regcode", "the other app's request reached the SP last")
        #expect(sim.lastRegistrationCode == code, "its code is not shown yet")
        try sim.userEnterCode(user: "u", password: "p")
        let used = try #require(sim.requestLog.first { $0.path == "/api/v1/authenticate" })
        #expect(
            used.parameter("requestor_id") == "R" && used.parameter("reg_code") == code
                && used.parameter("mso_id") == "X")
    }
}
