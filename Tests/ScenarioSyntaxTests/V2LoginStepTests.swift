import PassModel
import Testing
@testable import ScenarioSyntax

/// `user authenticate $CODE as "NAME" ["PASSWORD"]` (SCENARIO-FORMAT.md, Steps): a REST API v2 login in
/// the device's browser for the session an earlier `http` step created.
@Suite struct V2LoginStepTests {
    static let session = "http POST backup /api/v2/REQ1/sessions form \"mvpd=Comcast\" expect 200 with code=$code"

    @Test func theCodeNamesItsSessionsSPAndProgrammer() throws {
        let file = try parse(
            preamble + "\n" + V2LoginStepTests.session
                + "\nuser authenticate $code as \"alice\"\nuser authenticate $code as \"alice\" \"wrong\"")
        #expect(
            file.steps[1].value
                == .userAuthenticate(V2LoginStep(code: "code", sp: "backup", requestor: "REQ1", user: "alice")))
        #expect(
            file.steps[2].value
                == .userAuthenticate(
                    V2LoginStep(code: "code", sp: "backup", requestor: "REQ1", user: "alice", password: "wrong")))
        #expect(file.steps[2].text == "user authenticate $code as \"alice\" \"wrong\"")
        if case .userAuthenticate(let login) = file.steps[2].value { #expect(login.text == file.steps[2].text) }
    }

    @Test func aResumedSessionsCodeServesAndAQueryIsIgnored() throws {
        for path in ["/api/v2/R2/sessions/XYZ", "/api/v2/R2/sessions?x=1"] {
            let file = try parse(
                preamble
                    + "\nhttp POST main \(path) expect 200 with actionName=_ code=$c\nuser authenticate $c as \"alice\""
            )
            #expect(
                file.steps[1].value
                    == .userAuthenticate(V2LoginStep(code: "c", sp: "main", requestor: "R2", user: "alice")))
        }
    }

    @Test func onlyASessionCreatingRequestBindsACode() {
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v2/R/sessions") == "R")
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v2/R/sessions/ABC") == "R")
        #expect(V2LoginStep.sessionRequestor(method: "GET", path: "/api/v2/R/sessions/ABC") == nil)
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v2/R/sessions/sso") == nil)
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v2/R/sessions/sso/Apple") == nil)
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v2/R/decisions/authorize/C") == nil)
        #expect(V2LoginStep.sessionRequestor(method: "POST", path: "/api/v1/R/sessions") == nil)
        #expect(
            V2LoginStep(code: "c", sp: "main", requestor: "R 1", user: "u").path(code: "A/B")
                == "/api/v2/authenticate/R%201/A%2FB")
    }

    @Test func badInputIsAnErrorOfTheFileAtItsColumn() {
        expectDiagnostic(
            preamble + "\nuser authenticate $code as \"alice\"",
            """
            t.scenario:6:19: '$code' is not bound (bind it with 'with code=$name' on an 'http POST SP /api/v2/REQUESTOR/sessions' step)
            user authenticate $code as "alice"
                              ^
            """)
        expectDiagnostic(
            preamble
                + "\nhttp GET main /api/v2/R/configuration expect 200 with requestor.id=$id\nuser authenticate $id as \"alice\"",
            """
            t.scenario:7:19: '$id' is not a REST API v2 session code (bind it with 'with code=$name' on an 'http POST SP /api/v2/REQUESTOR/sessions' step)
            user authenticate $id as "alice"
                              ^
            """)
        expectDiagnostic(
            preamble + "\n" + V2LoginStepTests.session + "\nuser authenticate $code as \"bob\"",
            """
            t.scenario:7:28: undeclared user 'bob'
            user authenticate $code as "bob"
                                       ^
            """)
        expectDiagnostic(
            preamble + "\n" + V2LoginStepTests.session + "\nuser authenticate code as \"alice\"",
            """
            t.scenario:7:19: expected the session code as a '$name' (bind it with 'with code=$name' on an 'http POST SP /api/v2/REQUESTOR/sessions' step)
            user authenticate code as "alice"
                              ^
            """)
        expectDiagnostic(
            preamble + "\n" + V2LoginStepTests.session + "\nuser authenticate $code \"alice\"",
            """
            t.scenario:7:25: expected 'as "NAME"' (the user who logs in)
            user authenticate $code "alice"
                                    ^
            """)
        expectDiagnostic(
            preamble + "\n" + V2LoginStepTests.session + "\nuser authenticate $code as alice",
            """
            t.scenario:7:28: expected the user's name in quotes
            user authenticate $code as alice
                                       ^
            """)
    }
}
