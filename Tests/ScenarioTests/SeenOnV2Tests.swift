import Foundation
import Port
import Testing
@testable import Scenario

/// A `seen` line names the SDK's request; on REST API v2, through an expectations file's `request` rule,
/// it means the v2 request Adobe maps it to, and its `with K="V"` holds where v2 puts V: a path segment,
/// another field, or (for `resource_id`) one of the decision's JSON `resources` (Scenarios/wire-v2.expect).
@Suite struct SeenOnV2Tests {
    static let rules = """
        request POST /^\\/authorizeDevice$/ POST /^\\/api\\/v2\\/[^\\/]+\\/decisions\\/authorize\\/[^\\/]+$/ the decision
        request POST /^\\/deviceShortAuthorize$/ none inside the decision

        """

    static func scenario(_ seen: String) -> String {
        """
        scenario "t"
        wire v2
        sp main "https://sp.auth.test"
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN, HBO
        requestor REQ1

        \(loginSteps())
        > checkAuthorization("CNN")
        < setToken(_, "CNN")
        < sendTrackingData(TRACKING_AUTHORIZATION, ["true", "Comcast", $guid, "false", nil, nil, "mobile", "ios", "iOS"])
        \(seen)

        """
    }

    func run(_ seen: String, rules: String = SeenOnV2Tests.rules) throws -> SuiteRun.Report {
        var options = SuiteRun.Options()
        options.expectations = try Expectations.parse(rules, path: "t.expect")
        return SuiteRun(options: options).run(paths: [temporaryScenario(Self.scenario(seen))])
    }

    @Test func aResourceIdIsOneOfTheDecisionsResources() throws {
        let cnn = try run(
            #"seen main POST /authorizeDevice with resource_id="CNN" mso_id="Comcast" requestor_id="REQ1""#)
        #expect(cnn.status == .passed, "\(cnn.output)")
        let hbo = try run(#"seen main POST /authorizeDevice with resource_id="HBO""#)
        #expect(hbo.status == .failed, "HBO was not asked: \(hbo.output)")
    }

    /// A promotional TempPass's data: the SDK's `generic_data`, v2's `AP-TempPass-Identity` (Base64 of the
    /// same JSON), compared as JSON.
    @Test func aPromotionalPassesDataIsItsIdentityHeader() throws {
        func run(_ seen: String) throws -> SuiteRun.Report {
            let text = """
                scenario "t"
                wire v2
                sp main "https://sp.auth.test"
                mvpd PromoPass "Promo" at main promo-temppass 1h
                requestor REQ1

                > setRequestor("REQ1")
                < setRequestorComplete(1)
                > setSelectedProvider(PromoPass)
                < sendTrackingData(TRACKING_GET_SELECTED_PROVIDER, ["PromoPass", "mobile", "ios", "iOS"])
                > getAuthentication(forceAuthn: false, withData: {email: "a@b.c"})
                < setAuthenticationStatus(1, "")
                < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "PromoPass", $guid, "false", "mobile", "ios", "iOS"])
                \(seen)

                """
            var options = SuiteRun.Options()
            options.expectations = try Expectations.parse(
                #"request POST /^\/authenticate\/freepreview$/ POST /^\/api\/v2\/[^\/]+\/sessions$/ a session"# + "\n",
                path: "t.expect")
            return SuiteRun(options: options).run(paths: [temporaryScenario(text)])
        }
        let same = try run(#"seen main POST /authenticate/freepreview with generic_data="{\"email\": \"a@b.c\"}""#)
        #expect(same.status == .passed, "the same JSON, spaced otherwise: \(same.output)")
        let other = try run(#"seen main POST /authenticate/freepreview with generic_data="{\"email\":\"x@y.z\"}""#)
        #expect(other.status == .failed, "another e-mail: \(other.output)")
    }

    @Test func onlyThroughARuleDoesAFieldMeanAnotherOne() throws {
        let literal = try run(
            #"seen main POST /api/v2/REQ1/decisions/authorize/Comcast with resource_id="CNN""#, rules: "")
        #expect(literal.status == .failed, "the v2 request has no field resource_id: \(literal.output)")
    }
}
