import PassModel
import Scenario
import ScenarioSyntax
import Simulation
import Testing

/// `user authenticate $CODE as "NAME" ["PASSWORD"]` (SCENARIO-FORMAT.md, "REST API v2 login"): the
/// device's browser goes from the session's authenticate URL to the MVPD's IdP and back.
@Suite struct V2LoginStepRunTests {
    static let device =
        "header \"AP-Device-Identifier: fingerprint cGFzc2ltLXR2\" header \"X-Device-Info: eyJtb2RlbCI6ImlQaG9uZSIsInZlcnNpb24iOiIxLjAiLCJvc05hbWUiOiJpT1MiLCJvc1ZlcnNpb24iOiIxNy4wIiwiY29ubmVjdGlvblR5cGUiOiJXaUZpIiwicHJpbWFyeUhhcmR3YXJlVHlwZSI6Ik1vYmlsZVBob25lIn0=\""

    static func world(_ extra: String = "") -> String {
        """
        scenario "v2 login"
        sp main "https://sp.auth.test"
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN
        requestor REQ1
        \(extra)

        """
    }

    static func session(_ form: String = "mvpd=Comcast&domainName=adobe.com&redirectUrl=passimtv%3A%2F%2Fdone")
        -> String
    {
        "http POST main /api/v2/REQ1/sessions \(device) form \"\(form)\" expect 200 with code=$code\n"
    }

    static func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner.run(try ScenarioParser.parse(text, path: "v.scenario"))
    }

    @Test func aSAMLLoginEndsAtTheRedirectURLWithAProfile() throws {
        let result = try Self.run(
            Self.world() + Self.session() + """
                user authenticate $code as "alice"
                browser at "passimtv://done"
                http GET main /api/v2/REQ1/profiles/code/$code expect 200 with profiles.Comcast.type="regular"
                """)
        #expect(result.status == .passed, "\(String(describing: result.failure))")
        // The browser's first load is the session's authenticate URL on the SP's host.
        let first = result.trace.first { e in
            if case .request(.browser, _, _, _) = e.kind { return true }
            return false
        }
        if case .request(_, let method, let url, _)? = first?.kind {
            #expect(method == "GET")
            #expect(url.hasPrefix("https://sp.auth.test/api/v2/authenticate/REQ1/"))
        } else {
            Issue.record("the browser sent nothing")
        }
    }

    @Test func anOAuth2MVPDsLoginGoesThroughItsAuthorizeEndpointWithPKCE() throws {
        let result = try Self.run(
            Self.world("rest-v2 oauth2 Comcast") + Self.session() + """
                user authenticate $code as "alice"
                browser at "passimtv://done"
                """)
        #expect(result.status == .passed, "\(String(describing: result.failure))")
        let urls = result.trace.compactMap { e -> String? in
            if case .request(.browser, _, let url, _) = e.kind { return url }
            return nil
        }
        #expect(
            urls.contains {
                $0.contains("/oauth2/authorize?") && $0.contains("code_challenge_method=S256")
                    && $0.contains("code_challenge=")
            })
        #expect(urls.contains { $0.hasPrefix("https://sp.auth.test/api/v2/oauth2/callback?code=") })
        #expect(!urls.contains { $0.contains("/authenticate/saml") })
    }

    @Test func aWrongPasswordShowsTheFormAgainAndNoProfileIsMade() throws {
        let result = try Self.run(
            Self.world() + Self.session() + """
                user authenticate $code as "alice" "wrong"
                browser at /https:\\/\\/.*/
                http GET main /api/v2/REQ1/profiles/code/$code expect 200 with profiles={}
                """)
        #expect(result.status == .passed, "\(String(describing: result.failure))")
    }

    @Test func noLoginFormFailsTheStepAtItsLineWithTheBrowsersPage() throws {
        // A session still missing its redirectUrl: the authenticate URL answers 400.
        let result = try Self.run(
            Self.world() + Self.session("mvpd=Comcast&domainName=adobe.com") + "user authenticate $code as \"alice\"\n")
        #expect(result.status == .failed)
        #expect(result.failure?.location.line == 8)
        #expect(
            result.failure?.message.hasPrefix(
                "no login form to fill: browser error page (HTTP 400) at https://sp.auth.test/api/v2/authenticate/REQ1/"
            ) == true,
            "\(String(describing: result.failure))")
    }

    @Test func aCodeTheSessionDidNotBindFailsTheStep() throws {
        // The session answered without a code (the http step failed first): the step never runs.
        let result = try Self.run(
            Self.world()
                + "http POST main /api/v2/REQ1/sessions \(Self.device) form \"mvpd=Nowhere\" expect 200 with code=$code\nuser authenticate $code as \"alice\"\n"
        )
        #expect(result.status == .failed)
        #expect(result.failure?.location.line == 7)
    }

    @Test func theSameSeedGivesTheSameTranscript() throws {
        let text =
            Self.world() + Self.session() + "user authenticate $code as \"alice\"\nbrowser at \"passimtv://done\"\n"
        let a = try Self.run(text), b = try Self.run(text)
        #expect(a.status == .passed)
        #expect(a.trace == b.trace)
    }
}
