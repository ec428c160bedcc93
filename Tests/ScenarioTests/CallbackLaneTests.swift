import Foundation
import PassModel
import Port
import Testing
@testable import Scenario

/// Under an expectations file's `timing N` (Scenarios/wire-v2.expect), a `<` line may take its callback
/// before callbacks of other flows delivered within N round trips before it (`CallbackLane`): on REST
/// API v2 a logout asks GET logout before its page, so authorizations in flight fail before it opens.
/// Callbacks of one lane, and a callback delivered before the app's next call, keep their order.
@Suite struct CallbackLaneTests {
    static let world = """
        scenario "t"
        wire v2
        sp main "https://sp.auth.test" latency 400ms
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN, HBO
        requestor REQ1

        """
    static let failed = """
        < tokenRequestFailed("CNN", USER_NOT_AUTHENTICATED_ERROR, "")
        < sendTrackingData(TRACKING_AUTHORIZATION, ["false", nil, nil, nil, "User Not Authenticated Error", "", "mobile", "ios", "iOS"])
        """

    func run(_ steps: String, rules: String) throws -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.expectations = try Expectations.parse(rules, path: "t.expect")
        return SuiteRun(options: options).run(paths: [temporaryScenario(Self.world + loginSteps() + "\n" + steps)])
    }

    /// The SDK's order: the logout page at once, then the authorization in flight fails. v2 sends
    /// GET logout first, so the failure comes first; with the rule the line takes the page anyway.
    @Test func aLogoutsPageMayComeAfterAnAuthorizationInFlight() throws {
        let steps = """
            > checkAuthorization("CNN")
            > logout()
            < navigateToUrl(/https:\\/\\/sp\\.auth\\.test\\/logout\\?.*/)
            \(Self.failed)
            browser at "adobepass://ios.app"
            > handleExternalURL("adobepass://ios.app")
            < setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)

            """
        let timed = try run(steps, rules: "timing 2 round trips\n")
        #expect(timed.status == .passed, "\(timed.output)")
        let exact = try run(steps, rules: "mask /x/ no timing rule\n")
        #expect(exact.status == .failed)
        #expect(exact.output.contains("expected navigateToUrl"), "\(exact.output)")
    }

    /// Two authorizations are one lane: their answers keep the order they came in.
    @Test func callbacksOfOneLaneKeepTheirOrder() throws {
        let tracking = """
            < sendTrackingData(TRACKING_AUTHORIZATION, ["true", "Comcast", $guid, "false", nil, nil, "mobile", "ios", "iOS"])
            """
        let report = try run(
            """
            > checkAuthorization("CNN")
            > checkAuthorization("HBO")
            < setToken(_, "HBO")
            \(tracking)
            < setToken(_, "CNN")
            \(tracking)

            """, rules: "timing 2 round trips\n")
        #expect(report.status == .failed)
        #expect(report.output.contains(#"expected setToken(_, "HBO")"#), "\(report.output)")
    }

    /// A callback delivered before the app's next call is not taken after it.
    @Test func aCallbackDoesNotCrossTheAppsNextCall() throws {
        let report = try run(
            """
            > checkAuthorization("CNN")
            > logout()
            < navigateToUrl(/https:\\/\\/sp\\.auth\\.test\\/logout\\?.*/)
            browser at "adobepass://ios.app"
            > handleExternalURL("adobepass://ios.app")
            \(Self.failed)
            < setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)

            """, rules: "timing 2 round trips\n")
        #expect(report.status == .failed)
        #expect(report.output.contains("unexpected callback tokenRequestFailed"), "\(report.output)")
    }

    static func at(_ ms: Int64) -> Instant { .simulationStart + Millis(ms) }

    /// The choice itself: the first later callback the line takes, within the window of the next one,
    /// past callbacks of other lanes only.
    @Test func whatALineMayTakeFirst() {
        let page = Callback.navigateToUrl("https://sp/logout?x", useSVC: nil)
        let failed = Callback.tokenRequestFailed(resource: "CNN", errorCode: "E", details: "")
        let tracking = Callback.sendTrackingData(event: Constants.trackingAuthorization, data: ["false"])
        let preauth = Callback.preauthorizedResources([])
        let isPage: (Callback) -> Bool = { $0 == page }
        let window = Millis(20)
        #expect(
            CallbackLane.bringable(
                [(failed, Self.at(0)), (tracking, Self.at(0)), (page, Self.at(20))], within: window, accepts: isPage)
                == 2)
        #expect(
            CallbackLane.bringable([(failed, Self.at(0)), (page, Self.at(21))], within: window, accepts: isPage) == nil,
            "delivered more than the window after the next")
        #expect(
            CallbackLane.bringable([(page, Self.at(0)), (preauth, Self.at(0))], within: window, accepts: isPage) == nil,
            "the next one is the line's: nothing to bring forward")
        let other = Callback.setAuthenticationStatus(status: 0, errorCode: "E")
        #expect(
            CallbackLane.bringable([(other, Self.at(0)), (page, Self.at(0))], within: window, accepts: isPage) == nil,
            "a login's or a logout's callbacks are one lane")
        #expect(CallbackLane(.status(code: "Z100", message: nil)) == .authorization)
        #expect(CallbackLane(.status(code: "P100", message: nil)) == .preauthorization)
        #expect(CallbackLane(.status(code: "CFG429", message: nil)) == .configuration)
        #expect(
            CallbackLane(.status(code: "R400", message: nil)) == .configuration, "setRequestor's, before its answer")
        #expect(CallbackLane(.status(code: "REG500", message: nil)) == .authentication)
        #expect(CallbackLane(.status(code: "VSA203", message: nil)) == .authentication)
        #expect(
            CallbackLane(.sendTrackingData(event: Constants.trackingGetSelectedProvider, data: [])) == .authentication)
    }
}

/// The wire rules of Scenarios/wire-v2.expect that read a run's state: a one-way mask compares a line's
/// bound `$guid` as the GUID it took; a `field … none` drops a `with` of `seen` and makes `unseen` hold.
@Suite struct WireRulesInARunTests {
    func run(_ steps: String, rules: String) throws -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.expectations = try Expectations.parse(rules, path: "t.expect")
        return SuiteRun(options: options).run(paths: [
            temporaryScenario(CallbackLaneTests.world + loginSteps() + "\n" + steps)
        ])
    }

    static let cachedMask = #"mask /"true", nil, nil, "/ as /"false", nil, nil, "/ v2 caches no authorization"# + "\n"

    @Test func aOneWayMaskReadsTheLinesBoundGUID() throws {
        let steps = """
            > checkAuthorization("CNN")
            < setToken(_, "CNN")
            < sendTrackingData(TRACKING_AUTHORIZATION, ["true", "Comcast", $guid, "true", nil, nil, "mobile", "ios", "iOS"])

            """
        let masked = try run(steps, rules: Self.cachedMask)
        #expect(masked.status == .passed, "\(masked.output)")
        #expect(try run(steps, rules: "mask /x/ nothing\n").status == .failed)
        let otherGUID = try run(
            steps.replacingOccurrences(of: "$guid", with: #""0123456789abcdef0123456789abcdef""#),
            rules: Self.cachedMask)
        #expect(otherGUID.status == .failed, "the rest of the line is compared as written")
    }

    /// A field the wire does not carry (no place in the operation's binding: v2's decisions carry no
    /// generic data) is not checked by `seen`, and matches no request for `unseen`; the request itself
    /// still is looked for, and a path line reads its fields by their names.
    @Test func aFieldTheWireHasNoneOfIsNotChecked() throws {
        let steps = """
            > checkAuthorization("CNN", withData: {rating: "PG"})
            < setToken(_, "CNN")
            < sendTrackingData(TRACKING_AUTHORIZATION, ["true", "Comcast", $guid, "false", nil, nil, "mobile", "ios", "iOS"])
            seen main authorize with data="{\\"rating\\":\\"PG\\"}"
            unseen main authorize with data="{\\"rating\\":\\"R\\"}"

            """
        let dropped = try run(steps, rules: "")
        #expect(dropped.status == .passed, "\(dropped.output)")
        let literal = try run(
            steps.replacingOccurrences(
                of: "seen main authorize with data=",
                with: "seen main POST /api/v2/REQ1/decisions/authorize/Comcast with generic_data="),
            rules: "")
        #expect(literal.status == .failed)
        #expect(literal.output.contains("received no such request"), "\(literal.output)")
        let notSent = try run(
            steps.replacingOccurrences(of: "seen main authorize with", with: "seen main preauthorize with"), rules: "")
        #expect(notSent.status == .failed, "the request itself is still looked for")
    }
}
