import Foundation
import MockPass
import PassModel
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
        let file = try ScenarioParser.parse("""
            scenario "live"
            sp main "https://sp.test"
            mvpd Comcast "Xfinity" at main
            requestor REQ1
            > setRequestor("REQ1")
            < setRequestorComplete(1)
            """, path: "live.scenario")
        let setup = WorldBuilder.setup(for: file)
        let wire = try LiveWire(setup)
        defer { wire.close() }
        var state = RunState(file: file, setup: setup, wire: wire)
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
        let setup = WorldBuilder.setup(for: file)
        let wire = try LiveWire(setup)
        defer { wire.close() }
        try wire.server.applyAndWait(.mode(.down), to: .sp("main"))
        var live = RunState(file: file, setup: setup, wire: wire)
        #expect(throws: StepError.self) { for step in file.steps { try live.perform(step) } }

        let unreachable = try ScenarioParser.parse(text.replacingOccurrences(of: "%@", with: " unreachable"), path: "live.scenario")
        var simulated = RunState(file: unreachable)
        #expect(throws: StepError.self) { for step in unreachable.steps { try simulated.perform(step) } }
        #expect(live.actual.map(\.text) == simulated.actual.map(\.text))
        #expect(live.actual.last?.text != "< setRequestorComplete(1)")
    }
}
