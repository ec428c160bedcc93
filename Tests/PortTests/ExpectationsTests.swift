import PassModel
import Testing
@testable import Port

@Suite struct ExpectationsTests {
    @Test func rulesMatchPathsRelativeToTheSuite() throws {
        let e = try Expectations.parse(
            """
            # comment
            fail authn/pick-another-during-browser  restarts only after the browser closes
            skip tvos/*   no tvOS yet
            fail **/preauth-*   no preauthorization
            constant PROVIDER_NOT_SELECTED_ERROR "Provider not Selected Error"
            """, path: "p.expect")
        #expect(e.rules.count == 3)
        #expect(
            e.rule(for: "Scenarios/authn/pick-another-during-browser.scenario")?.reason
                == "restarts only after the browser closes")
        #expect(e.rule(for: "Scenarios/authn/classic-login.scenario") == nil)
        #expect(e.rule(for: "/abs/Scenarios/tvos/logout.scenario")?.kind == .skip)
        #expect(e.rule(for: "Scenarios/regressions/preauth-cached-answer-overtakes.scenario")?.kind == .fail)
        #expect(e.unused(among: ["Scenarios/authn/classic-login.scenario"]).count == 3)
    }

    @Test func knownDifferencesAreRegexesOverTheFirstDifference() throws {
        let e = try Expectations.parse(
            "differ /sendTrackingData\\(TRACKING_AUTHORIZATION/ tracking of authZ not done\n", path: "p.expect")
        #expect(e.differences.count == 1 && e.rules.isEmpty)
        #expect(
            e.knownDifference("expected sendTrackingData(TRACKING_AUTHORIZATION, [...]), got setToken(...)")?.reason
                == "tracking of authZ not done")
        #expect(e.knownDifference("expected setToken(_, \"CNN\"), got nothing") == nil)
    }

    @Test(arguments: [
        ("frobnicate x y", "p.expect:1: unknown directive frobnicate (fail, skip, differ or constant)"),
        ("differ TRACKING reason", "p.expect:1: differ needs a /regex/ and a reason"),
        ("differ /(/ reason", "p.expect:1: differ: /(/ is not a regex"),
        ("differ /x/", "p.expect:1: differ needs a reason after its /regex/"),
        ("fail authn/x", "p.expect:1: fail needs a pattern and a reason"),
        (
            "skip /abs/x reason",
            "p.expect:1: a pattern is a path relative to the suite folder, without .scenario, with * and ** (got /abs/x)"
        ),
        ("constant NO_SUCH 1", "p.expect:1: unknown constant NO_SUCH"),
        ("constant USER_AUTHENTICATED not-json", "p.expect:1: the value must be a JSON string or number:"),
    ])
    func badLinesAreErrorsWithTheirLine(_ text: String, _ message: String) {
        do {
            _ = try Expectations.parse(text, path: "p.expect")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func globsStayWithinOneComponent() {
        #expect(Expectations.glob("preauth-*", "preauth-queued"))
        #expect(!Expectations.glob("preauth-*", "authz"))
        #expect(Expectations.matches("authz/*", "Scenarios/authz/x.scenario"))
        #expect(!Expectations.matches("authz/*", "Scenarios/authz/deep/x.scenario"))
        #expect(Expectations.matches("authz/**", "Scenarios/authz/deep/x.scenario"))
    }
}
