import Foundation
@testable import Harness
import Live
import MockPass
import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Scenario

/// `passim run --live`: the same scenarios over loopback HTTP give the same transcripts.
@Suite struct LiveRunTests {
    /// The folders whose flows cross the most of the wire: logins (cookies, redirects, SAML forms),
    /// faults (refused connections, silent hosts, injected statuses, latency) and tvOS (the second screen).
    /// CI runs the whole suite live (`make suite-live`).
    @Test(arguments: ["authn", "faults", "tvos", "logout"])
    func liveTranscriptsAreTheSimulatedOnes(folder: String) {
        let paths = [packageRoot + "/Scenarios/" + folder]
        let simulated = SuiteRun().run(paths: paths)
        var options = SuiteRun.Options()
        options.runtime = .live
        let live = SuiteRun(options: options).run(paths: paths)
        #expect(live.status == .passed, "\(live.output)")
        #expect(live.results.count == simulated.results.count && !live.results.isEmpty)
        #expect(live.results.map(\.transcript) == simulated.results.map(\.transcript))
    }

    /// The requests really crossed HTTP: the server logged what curl sent (`Host`, `Content-Length`),
    /// which the simulated wire never adds.
    @Test func liveRequestsCrossTheWire() throws {
        let file = try ScenarioParser.parse(
            """
            scenario "live"
            sp main "https://sp.test"
            mvpd Comcast "Xfinity" at main
            requestor REQ1
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            """, path: "live.scenario")
        let running = try Runtime.live.start(RuntimeWorld(setup: WorldBuilder.setup(for: file)))
        defer { running.close() }
        var state = RunState(file: file, simulator: running.simulator)
        for step in file.steps { try state.perform(step) }
        let config = try #require(state.simulator.requestLog.first)
        #expect(config.path == "/config/REQ1")
        #expect(config.headers["Host"] == "sp.test")

        var simulated = RunState(file: file)
        for step in file.steps { try simulated.perform(step) }
        #expect(simulated.simulator.requestLog.first?.headers["Host"] == nil)
        #expect(state.actual == simulated.actual)
    }

    /// A fault the scenario did not ask for shows in the transcript instead of passing unseen: with the
    /// SP taken down behind the runtime's back, the live run says what a simulated run of an
    /// `unreachable` SP says.
    @Test func aLiveFaultTheScenarioDidNotAskForFailsIt() throws {
        let text = """
            scenario "live"
            sp main "https://sp.test"%@
            mvpd Comcast "Xfinity" at main
            requestor REQ1
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            """
        let file = try ScenarioParser.parse(text.replacingOccurrences(of: "%@", with: ""), path: "live.scenario")
        let running = try Runtime.live.start(RuntimeWorld(setup: WorldBuilder.setup(for: file)))
        defer { running.close() }
        try #require(running.wire).server.apply(.mode(.down), to: .sp("main"))
        var live = RunState(file: file, simulator: running.simulator)
        #expect(throws: StepError.self) { for step in file.steps { try live.perform(step) } }

        let unreachable = try ScenarioParser.parse(
            text.replacingOccurrences(of: "%@", with: " unreachable"), path: "live.scenario")
        var simulated = RunState(file: unreachable)
        #expect(throws: StepError.self) { for step in unreachable.steps { try simulated.perform(step) } }
        #expect(live.actual.map(\.text) == simulated.actual.map(\.text))
        #expect(live.actual.last?.text != "< setRequestorComplete(1)")
    }
}

/// `passim run --live --server URL`: the scenarios' worlds loaded one after another into one running
/// server through its admin endpoint give the simulated transcripts too.
@Suite(.serialized) struct RemoteServerRunTests {
    func withServer<T>(_ body: (MockPassServer) throws -> T) throws -> T {
        let starter = try ScenarioParser.parseWorld("sp main \"https://sp.test\"\nrequestor REQ1\n", path: "starter")
        let setup = WorldBuilder.setup(for: starter)
        let server = try MockPassServer.startAndWait(
            world: setup.world,
            options: .init(worldLoader: RunningServer.worldLoader(WorldBuilder.setup(forWorldText:))))
        defer { try? server.shutdownAndWait() }
        return try body(server)
    }

    @Test func aRunningServerLoadsEachScenariosWorld() throws {
        try withServer { server in
            let paths = [packageRoot + "/Scenarios/authn", packageRoot + "/Scenarios/faults"]
            var options = SuiteRun.Options()
            options.runtime = .liveServer(adminURL: server.adminURL, adminToken: server.adminToken)
            let remote = SuiteRun(options: options).run(paths: paths)
            let simulated = SuiteRun().run(paths: paths)
            #expect(remote.status == .passed, "\(remote.output)")
            #expect(remote.results.map(\.transcript) == simulated.results.map(\.transcript))
            // The last world is the one served now, as written (no loopback URLs in it).
            #expect(server.mapping.hosts.allSatisfy { !$0.originalURL.contains("127.0.0.1") })
        }
    }

    /// A port on the live network of a running server: it sends its own requests to the listeners
    /// of each scenario's world, the harness holding the server's clock at each message's instant.
    @Test func aPortTalksToARunningServer() throws {
        try withServer { server in
            // Not the access-token scenarios: the Python port does not register (its port.expect).
            let faults = try SuiteLoader.files(in: [packageRoot + "/Scenarios/faults"]).filter {
                !$0.contains("/access-token-")
            }
            let paths = faults + [packageRoot + "/Scenarios/authn/classic-login.scenario"]
            var options = SuiteRun.Options()
            options.runtime = ScenarioRunner.Runtime(
                network: .server(adminURL: server.adminURL, adminToken: server.adminToken),
                port: PortCommand(command: PortRunTests.pythonPort))
            let remote = SuiteRun(options: options).run(paths: paths)
            #expect(remote.status == .passed, "\(remote.output)")
            #expect(remote.results.map(\.transcript) == SuiteRun().run(paths: paths).results.map(\.transcript))
        }
    }

    @Test func anUnusableWorldIsRefusedAndTheServerKeepsItsWorld() throws {
        try withServer { server in
            let text = """
                scenario "t"
                sp main "https://sp.test" latency 40ms
                requestor REQ1
                > setRequestor("REQ1")
                < setRequestorComplete(1)
                """
            let file = try ScenarioParser.parse(text, path: temporaryScenario(text))
            // The steps are blanked in what is posted (the server reads a world file), line numbers kept.
            let posted = try WorldBuilder.worldText(of: file)
            #expect(posted.split(separator: "\n", omittingEmptySubsequences: false).count == 5)
            #expect(!posted.contains("setRequestor") && posted.contains("latency 40ms"))
            let remote = try RemoteServer(adminURL: server.adminURL + "/", token: server.adminToken, world: posted)
            #expect(remote.origins.keys.contains(.sp("main")))
            try remote.hold(at: .simulationStart + .minutes(1))
            #expect(server.now() == .simulationStart + .minutes(1))

            let curl = try CurlTransport()
            let before = server.mapping
            let world = Value.dict([Value.Entry("world", .string("sp main \"https://sp.test\"\n> logout()\n"))])
                .jsonText
            let refused = curl.perform(
                HTTPRequest(
                    method: "POST", url: server.adminURL + "/admin/world",
                    headers: [
                        ("Authorization", "Bearer " + server.adminToken),
                        ("Content-Type", "application/json"),
                    ],
                    body: Array(world.utf8)), timeout: .seconds(5))
            guard case .response(let answer) = refused else { Issue.record("no answer: \(refused)"); return }
            #expect(answer.status == 400)
            #expect(answer.bodyText.contains("(posted world):2:1: a world file has no steps"))
            #expect(server.mapping == before)
        }
    }
}
