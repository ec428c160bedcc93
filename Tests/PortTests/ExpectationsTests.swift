import PassModel
import ScenarioSyntax
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

    /// A wire's callback rules (Scenarios/wire-v2.expect): a callback written otherwise by design, by
    /// two regexes or by a mask.
    @Test func wireRulesMapCallbacks() throws {
        let e = try Expectations.parse(
            #"""
            equivalent /^navigateToUrl\(.*saml/ /^navigateToUrl\(".*\/api\/v2\/authenticate\// the session's page
            mask /"[0-9a-f]{4}"/ a GUID of v2's
            """#, path: "p.expect")
        #expect(
            e.equivalent(
                expected: #"navigateToUrl(/https:\/\/x\/authenticate\/saml\?.*/)"#,
                actual: #"navigateToUrl("https://x/api/v2/authenticate/R/C")"#))
        #expect(!e.equivalent(expected: "navigateToUrl(_)", actual: #"navigateToUrl("https://x/logout")"#))
        #expect(
            e.equivalent(expected: #"t(["a", "beef", "b"])"#, actual: #"t(["a", "f00d", "b"])"#),
            "only the mask differs")
        #expect(!e.equivalent(expected: #"t(["a", "beef", "b"])"#, actual: #"t(["z", "f00d", "b"])"#))
    }

    /// `mask /EXPECTED/ as /ACTUAL/`: one way. The line's text may say EXPECTED where the callback's
    /// says ACTUAL, not the reverse, and only where both are there; the rest is compared as written.
    @Test func aOneWayMaskLetsTheWireSayItsOwnValueOnly() throws {
        let e = try Expectations.parse(
            #"""
            mask /"[0-9a-f]{4}"/ a GUID of the wire's
            mask /"true", nil/ as /"false", nil/ the wire caches nothing
            """#, path: "p.expect")
        #expect(e.masks.count == 2 && e.masks[1].actual != nil)
        #expect(e.equivalent(expected: #"t(["beef", "true", nil])"#, actual: #"t(["f00d", "false", nil])"#))
        #expect(
            !e.equivalent(expected: #"t(["beef", "false", nil])"#, actual: #"t(["f00d", "true", nil])"#),
            "the wire's own value stays checked")
        #expect(
            !e.equivalent(expected: #"t(["beef", "true", nil])"#, actual: #"t(["f00d", "true", 1])"#),
            "the callback's side must be there too")
        #expect(!e.equivalent(expected: #"u(["beef", "true", nil])"#, actual: #"t(["f00d", "false", nil])"#))
    }

    /// `equivalent … after /PREVIOUS/`: only where the app's previous callback matches PREVIOUS.
    @Test func anEquivalenceAfterAPreviousCallback() throws {
        let e = try Expectations.parse(
            #"equivalent /logout/ /adobepass:/ after /^status\(VSA203/ an Apple profile's logout"# + "\n",
            path: "p.expect")
        let (line, callback) = (#"navigateToUrl(/.*\/logout\?.*/)"#, #"navigateToUrl("adobepass://ios.app")"#)
        #expect(e.equivalent(expected: line, actual: callback, previous: "status(VSA203)"))
        #expect(!e.equivalent(expected: line, actual: callback, previous: #"setAuthenticationStatus(1, "")"#))
        #expect(!e.equivalent(expected: line, actual: callback), "no previous callback: the rule does not apply")
    }

    /// The `request` and `field` rules are gone: the operations table says what a request is on each
    /// wire, and the error says how a scenario names one.
    @Test func requestAndFieldRulesPointToOperations() {
        for line in ["request POST /a/ POST /b/ why", "field generic_data none why"] {
            do {
                _ = try Expectations.parse(line + "\n", path: "p.expect")
                Issue.record("accepted \(line)")
            } catch {
                #expect(error.message.contains("seen SP authorize with resource="), "\(error.message)")
            }
        }
    }

    /// `timing N reason`: one per file; merged files keep the first file's.
    @Test func aTimingRuleNamesItsRoundTrips() throws {
        let e = try Expectations.parse("# instants\ntiming 2 a login is two round trips longer\n", path: "a.expect")
        #expect(
            e.timing?.roundTrips == 2 && e.timing?.line == 2 && e.timing?.reason == "a login is two round trips longer")
        let other = try Expectations.parse("timing 5 five\n", path: "b.expect")
        #expect(e.merged(with: other).timing?.roundTrips == 2)
        #expect(Expectations(path: "c.expect").merged(with: other).timing?.roundTrips == 5)
    }

    /// A known difference is a predicate over the typed mismatch, never over the runner's message.
    @Test func knownDifferencesAreTypedPredicates() throws {
        let e = try Expectations.parse(
            "differ value expected sendTrackingData(TRACKING_AUTHORIZATION, _) because tracking of authZ not done\n",
            path: "p.expect")
        #expect(e.differences.count == 1 && e.rules.isEmpty)
        let tracking = Mismatch(
            kind: .value,
            expected: .init(
                try ScenarioParser.callPattern(
                    "sendTrackingData(TRACKING_AUTHORIZATION, [])", isCall: false, path: "t", line: 1),
                bindings: Bindings()),
            actual: .setToken(token: "T", resource: "CNN"))
        #expect(e.knownDifference(tracking, in: nil)?.reason == "tracking of authZ not done")
        let token = Mismatch(kind: .missing, expected: .init(name: "setToken", arguments: nil))
        #expect(e.knownDifference(token, in: nil) == nil)
    }

    @Test(arguments: [
        (
            "frobnicate x y",
            "p.expect:1: unknown directive frobnicate (fail, skip, differ, constant, mask, equivalent, timing or parity)"
        ),
        ("mask /a/ as b reason", "p.expect:1: mask: as needs the callback's /regex/"),
        ("mask /a/ as /b/", "p.expect:1: mask needs a reason after its /regex/"),
        ("equivalent /a/ /b/ after c reason", "p.expect:1: equivalent: after needs the previous callback's /regex/"),
        ("equivalent /a/ reason", "p.expect:1: equivalent needs a second /regex/"),
        ("mask x reason", "p.expect:1: mask needs a /regex/"),
        ("differ TRACKING because reason", "p.expect:1: no kind of difference 'TRACKING'"),
        ("differ value expected setToken(/(/, _) because reason", "p.expect:1:"),
        ("differ value expected setToken", "p.expect:1: differ needs `because REASON` at the end"),
        ("fail authn/x", "p.expect:1: fail needs a pattern and a reason"),
        ("timing two round trips", "p.expect:1: timing needs a number of round trips (1 to 9) and a reason"),
        ("timing 0 never", "p.expect:1: timing needs a number of round trips (1 to 9) and a reason"),
        ("timing 2", "p.expect:1: timing needs a number of round trips (1 to 9) and a reason"),
        ("timing 2 a\ntiming 3 b", "p.expect:2: a second timing line (the first is line 1)"),
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
