import Foundation
import Port
import Testing
@testable import Scenario

/// A `seen` line may name an operation (PassModel's `WireOperation`): on each wire it is that wire's
/// request, and its `with FIELD="V"` holds where that wire puts the field: a path segment, a parameter,
/// one of the decision's JSON `resources`, a header's JSON; a field the wire does not carry is not checked.
@Suite struct SeenOnV2Tests {
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

    func run(_ seen: String) -> SuiteRun.Report {
        SuiteRun(options: SuiteRun.Options()).run(paths: [temporaryScenario(Self.scenario(seen))])
    }

    @Test func aResourceIsOneOfTheDecisionsResources() throws {
        let cnn = run(#"seen main authorize with resource="CNN" mvpd="Comcast" requestor="REQ1""#)
        #expect(cnn.status == .passed, "\(cnn.output)")
        let hbo = run(#"seen main authorize with resource="HBO""#)
        #expect(hbo.status == .failed, "HBO was not asked: \(hbo.output)")
        let other = run(#"seen main authorize with mvpd="Dish""#)
        #expect(other.status == .failed, "the MVPD is the path's: \(other.output)")
        // The media token has no request on v2: the line holds, an `unseen` line too.
        #expect(run("seen main media-token").status == .passed)
        #expect(run("unseen main media-token").status == .passed)
        #expect(run("unseen main authorize").status == .failed)
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
            return SuiteRun(options: SuiteRun.Options()).run(paths: [temporaryScenario(text)])
        }
        let same = try run(#"seen main temppass with data="{\"email\": \"a@b.c\"}""#)
        #expect(same.status == .passed, "the same JSON, spaced otherwise: \(same.output)")
        let other = try run(#"seen main temppass with data="{\"email\":\"x@y.z\"}""#)
        #expect(other.status == .failed, "another e-mail: \(other.output)")
    }

    /// A path line is checked as written: a field is the parameter or header of that name.
    @Test func aPathLineReadsItsFieldsByTheirNames() throws {
        let literal = run(#"seen main POST /api/v2/REQ1/decisions/authorize/Comcast with resource_id="CNN""#)
        #expect(literal.status == .failed, "the v2 request has no field resource_id: \(literal.output)")
        #expect(run(#"seen main POST /api/v2/REQ1/decisions/authorize/Comcast"#).status == .passed)
    }
}
