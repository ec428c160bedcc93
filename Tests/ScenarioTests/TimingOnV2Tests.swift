import Foundation
import Port
import ScenarioSyntax
import Testing
@testable import Scenario

/// An expectations file's `timing N` rule (Scenarios/wire-v2.expect): on REST API v2 a login is two round
/// trips longer than on the SDK's wire, so an instant the SDK pinned holds on v2 within N of the world's
/// longest round trips, and no further; without the rule it must be exact.
@Suite struct TimingOnV2Tests {
    /// A login then a preauthorization, with the instants the SDK's wire gives: 60 and 70 ms with the
    /// default 10 ms round trip, 180 and 220 ms when the SP's is 40 ms (v2 gives 80/90 and 260/300).
    static func scenario(latency: Int, authenticated: Int, preauthorized: Int) -> String {
        """
        scenario "t"
        wire v2
        sp main "https://sp.auth.test" latency \(latency)ms
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN deny HBO
        requestor REQ1

        \(loginSteps(authenticated: "\(authenticated)ms"))
        > checkPreauthorizedResources(["CNN", "HBO"])
        < preauthorizedResources(["CNN"]) at \(preauthorized)ms

        """
    }

    func run(_ text: String, rules: String) throws -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.expectations = try Expectations.parse(rules, path: "t.expect")
        return SuiteRun(options: options).run(paths: [temporaryScenario(text)])
    }

    @Test func theSDKsInstantsHoldWithinTwoRoundTrips() throws {
        for (latency, authenticated, preauthorized) in [(10, 60, 70), (40, 180, 220)] {
            let text = Self.scenario(latency: latency, authenticated: authenticated, preauthorized: preauthorized)
            let two = try run(text, rules: "timing 2 a login is two round trips longer\n")
            #expect(two.status == .passed, "\(latency) ms: \(two.output)")
            let one = try run(text, rules: "timing 1 one round trip\n")
            #expect(one.status == .failed, "\(latency) ms: two round trips are more than one")
            #expect(one.output.contains("was delivered at \(authenticated + 2 * latency)ms"), "\(one.output)")
            let none = try run(text, rules: "mask /x/ no timing rule\n")
            #expect(none.status == .failed, "\(latency) ms: without the rule an instant is exact")
        }
    }

    @Test func anInstantPastTheToleranceStillFails() throws {
        // v2 delivers the authentication at 80 ms: 59 ms is 21 ms off, one more than two round trips.
        let late = try run(
            Self.scenario(latency: 10, authenticated: 59, preauthorized: 90), rules: "timing 2 two round trips\n")
        #expect(late.status == .failed)
        #expect(late.output.contains("the line pins it at 59ms"), "\(late.output)")
        let edge = try run(
            Self.scenario(latency: 10, authenticated: 100, preauthorized: 110), rules: "timing 2 two round trips\n")
        #expect(edge.status == .passed, "20 ms later is within two round trips: \(edge.output)")
    }

    @Test func theLongestRoundTripIsTheWorldsAtAnyPoint() throws {
        let file = try ScenarioParser.parse(
            """
            scenario "t"
            sp main "https://sp.auth.test" latency 25ms
            mvpd Comcast "Xfinity" at main idp-latency 30ms

            net main latency 50ms

            """, path: "t.scenario")
        #expect(file.longestRoundTrip.value == 50)
        #expect(file.steppedLatencies.map(\.value) == [50])
        let plain = try ScenarioParser.parse("scenario \"t\"\nsp main \"https://sp.auth.test\"\n", path: "t.scenario")
        #expect(plain.longestRoundTrip == ScenarioFile.defaultRoundTrip)
    }
}
