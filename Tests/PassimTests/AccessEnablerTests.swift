import Passim
import XCTest

/// Records the delegate's named callbacks, to show they are the SDK's selectors.
private final class Recorder: EntitlementDelegate {
    var lines: [String] = []
    var onNavigate: ((String) -> Void)?
    func setRequestorComplete(_ status: Int) { lines.append("setRequestorComplete(\(status))") }
    func displayProviderDialog(_ mvpds: [MVPD]) { lines.append("displayProviderDialog(\(mvpds.map(\.id)))") }
    func navigate(toUrl url: String, useSVC: Bool?) {
        lines.append("navigateToUrl")
        onNavigate?(url)
    }
    func setAuthenticationStatus(_ status: Int, errorCode: String) {
        lines.append("setAuthenticationStatus(\(status), \(errorCode))")
    }
    func sendTrackingData(_ data: [String?], forEventType event: Int) { lines.append("sendTrackingData(\(event))") }
    func setToken(_ token: String, forResource resource: String) { lines.append("setToken(\(resource))") }
}

private let world = """
    sp main "https://sp.auth.test" latency 40ms
    mvpd Comcast "Xfinity" at main
    mvpd Dish "DISH" at main
    user alice "secret" at Comcast allow CNN
    requestor REQ1
    """

final class AccessEnablerTests: XCTestCase {
    func testASimulatedLoginDeliversTheSDKsCallbacksInOrder() throws {
        let sim = try SimulatedWorld(world)
        let enabler = try AccessEnabler(world: sim)
        let app = Recorder()
        enabler.delegate = app
        enabler.setRequestor("REQ1")
        sim.run()
        XCTAssertEqual(app.lines, ["setRequestorComplete(1)"])
        XCTAssertEqual(sim.now, .simulationStart + Millis(40), "one round trip of 40 ms, in virtual time")
        enabler.getAuthentication()
        sim.run()
        enabler.setSelectedProvider("Comcast")
        sim.run()
        XCTAssertTrue(sim.userLogin(user: "alice", password: "secret"))
        XCTAssertEqual(sim.browserLocation, "adobepass://ios.app")
        enabler.handleExternalURL("adobepass://ios.app")
        sim.run()
        enabler.getAuthorization("CNN")
        sim.run()
        XCTAssertEqual(
            app.lines,
            [
                "setRequestorComplete(1)", "displayProviderDialog([\"Comcast\", \"Dish\"])", "sendTrackingData(2)",
                "navigateToUrl",
                "setAuthenticationStatus(1, )", "sendTrackingData(0)", "setToken(CNN)", "sendTrackingData(1)",
            ])
    }

    /// `getVersion` returns the library version the enabler plays, delivers nothing and leaves a
    /// login waiting as it was (choice 48), in both runtimes.
    func testGetVersionReturnsTheLibraryVersionAndChangesNothing() throws {
        let sim = try SimulatedWorld(world)
        let enabler = try AccessEnabler(world: sim)
        let app = Recorder()
        enabler.delegate = app
        enabler.setRequestor("REQ1")
        enabler.getAuthentication()
        sim.run()
        let before = app.lines
        XCTAssertEqual(enabler.getVersion(), EngineConfiguration().clientVersion)
        sim.run()
        XCTAssertEqual(app.lines, before)
        enabler.setSelectedProvider("Comcast")
        sim.run()
        XCTAssertEqual(app.lines.last, "navigateToUrl", "the login went on after getVersion")

        final class NoHost: AccessEnablerHost {
            var now: Instant { .simulationStart }
            func send(_ request: HTTPRequest, id: RequestID) {}
            func startTimer(_ id: TimerID, at instant: Instant) {}
            func cancelTimer(_ id: TimerID) {}
            func presentBrowser(url: String) {}
        }
        let host = NoHost()
        let hosted = AccessEnabler(configuration: EngineConfiguration(clientVersion: "3.6.0"), host: host)
        XCTAssertEqual(hosted.getVersion(), "3.6.0")
    }

    /// `advance(by:)` delivers each callback at its own instant, and what the delegate starts then
    /// happens within the span: here a second `setRequestor`, made from the first one's callback.
    func testAdvanceDeliversEachCallbackAtItsInstant() throws {
        final class Timed: EntitlementDelegate {
            var instants: [Millis] = []
            var again: (() -> Void)?
            let sim: SimulatedWorld
            init(_ sim: SimulatedWorld) { self.sim = sim }
            func setRequestorComplete(_ status: Int) {
                instants.append(sim.now - .simulationStart)
                again?()
                again = nil
            }
        }
        let sim = try SimulatedWorld(world)
        let enabler = try AccessEnabler(world: sim)
        let app = Timed(sim)
        enabler.delegate = app
        app.again = { enabler.setRequestor("REQ1") }
        enabler.setRequestor("REQ1")
        sim.advance(by: Millis(1000))
        XCTAssertEqual(app.instants, [Millis(40), Millis(80)])
        XCTAssertEqual(sim.now, .simulationStart + Millis(1000))
    }

    /// The same login over real HTTP: the same callbacks at the same virtual instants.
    func testALiveWorldDeliversWhatTheSimulatedOneDoes() throws {
        func login(_ network: PassimNetwork) throws -> (lines: [String], now: Instant, log: [LoggedRequest]) {
            let sim = try SimulatedWorld(world, network: network)
            let enabler = try AccessEnabler(world: sim)
            let app = Recorder()
            enabler.delegate = app
            enabler.setRequestor("REQ1")
            enabler.getAuthentication()
            sim.run()
            enabler.setSelectedProvider("Comcast")
            sim.run()
            XCTAssertTrue(sim.userLogin(user: "alice", password: "secret"))
            enabler.handleExternalURL("adobepass://ios.app")
            enabler.getAuthorization("CNN")
            sim.run()
            return (app.lines, sim.now, sim.requestLog)
        }
        let simulated = try login(.simulated), live = try login(.live)
        XCTAssertEqual(live.lines, simulated.lines)
        XCTAssertEqual(live.now, simulated.now)
        XCTAssertEqual(live.log.map(\.path), simulated.log.map(\.path))
        // Only a request that crossed a real wire has the Host header its HTTP client wrote.
        XCTAssertEqual(live.log.first?.headers["Host"], "sp.auth.test")
        XCTAssertNil(simulated.log.first?.headers["Host"])
    }

    func testTheSameWorldRunsTheSameWay() throws {
        func transcript() throws -> [String] {
            let sim = try SimulatedWorld(world)
            let enabler = try AccessEnabler(world: sim)
            let app = Recorder()
            enabler.delegate = app
            enabler.setRequestor("REQ1")
            enabler.checkAuthorization("CNN")
            sim.run()
            return app.lines
        }
        XCTAssertEqual(try transcript(), try transcript())
    }

    func testAnUnknownAppOrABadWorldIsAClearError() throws {
        XCTAssertThrowsError(try AccessEnabler(world: try SimulatedWorld(world), app: "tv")) { error in
            XCTAssertEqual((error as? PassimError)?.message, "the world has no app 'tv' (its apps: app)")
        }
        XCTAssertThrowsError(try SimulatedWorld("sp main")) { error in
            XCTAssertTrue("\(error)".contains("world:1:"), "\(error)")
        }
    }

    /// The hosted runtime: the engine's requests and timers go to the host; answers come back in.
    func testAHostedEnablerAsksItsHostForEveryRequest() {
        final class Host: AccessEnablerHost {
            var now = Instant.simulationStart
            var sent: [(RequestID, HTTPRequest)] = []
            var timers: [TimerID] = []
            func send(_ request: HTTPRequest, id: RequestID) { sent.append((id, request)) }
            func startTimer(_ id: TimerID, at: Instant) { timers.append(id) }
            func cancelTimer(_ id: TimerID) { timers.removeAll { $0 == id } }
            func presentBrowser(url: String) {}
        }
        let host = Host()
        let enabler = AccessEnabler(host: host)
        let app = Recorder()
        enabler.delegate = app
        enabler.setRequestor("REQ1", serviceProviders: ["https://sp.auth.test"])
        XCTAssertEqual(host.sent.map(\.1.url), ["https://sp.auth.test/config/REQ1"])
        XCTAssertEqual(app.lines, [])
        host.now = host.now + Millis(10)
        enabler.receive(.failure("connection refused"), for: host.sent[0].0)
        XCTAssertEqual(app.lines, ["setRequestorComplete(0)"])
        // The enabler holds its host weakly ("keep the host alive as long as the enabler"), and a
        // local may be released after its last use: without this, `receive` above found no host
        // once this file's build laid it out differently, and delivered nothing.
        withExtendedLifetime(host) {}
    }

    func testTheVersionsAreStated() {
        XCTAssertEqual(PassimRelease.driverProtocol, "1.3")
        XCTAssertEqual(PassimRelease.scenarioFormat, 1)
        XCTAssertFalse(PassimRelease.library.isEmpty)
    }
}
