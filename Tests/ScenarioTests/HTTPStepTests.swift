import PassModel
import Scenario
import ScenarioSyntax
import Simulation
import Testing

/// The `http` step (SCENARIO-FORMAT.md, "Raw HTTP"): a raw request through the runtime's network, its
/// answer checked; bindings flow from one answer into later paths and headers.
@Suite struct HTTPStepTests {
    static let world = """
        scenario "http"
        sp main "https://sp.auth.test"
        mvpd Comcast "Xfinity" at main
        requestor REQ1 software-statement "ss"

        """

    static func run(_ steps: String) throws -> ScenarioResult {
        ScenarioRunner.run(try ScenarioParser.parse(world + steps, path: "h.scenario"))
    }

    @Test func bindingsFeedLaterRequestsAndTheLatencyPasses() throws {
        let result = try Self.run(
            """
            http POST main /o/client/register json "{\\"software_statement\\": \\"ss\\"}" expect 201 with client_id=$id client_secret=$secret
            http POST main /o/client/token?client_id=$id&client_secret=$secret&grant_type=client_credentials expect 201 with access_token=$t token_type=/[Bb]earer/
            http GET main /api/v2/REQ1/configuration header "Authorization: Bearer $t" expect 200 header "Content-Type: application/json" with requestor.id="REQ1" requestor.mvpds.0.id="Comcast"
            http GET main /api/v2/REQ1/configuration expect 401 code invalid_access_token_client_application
            """)
        #expect(result.status == .passed, "\(String(describing: result.failure))")
        // Each answer came after the host's 10 ms, drawn from the app.
        let answers = result.trace.compactMap { e -> Millis? in
            if case .response(.client, _, _, _) = e.kind { return e.time - .simulationStart }
            return nil
        }
        #expect(answers == [Millis(10), Millis(20), Millis(30), Millis(40)])
    }

    @Test func aMismatchFailsAtItsLineWithWhatCame() throws {
        let result = try Self.run("http GET main /api/v2/REQ1/configuration expect 200\n")
        #expect(result.status == .failed)
        #expect(result.failure?.location.line == 5)
        #expect(result.failure?.message.hasPrefix("status 401, expected 200") == true)
        #expect(
            result.actual.last?.text
                == "http GET main /api/v2/REQ1/configuration expect 401 code invalid_access_token_client_application")
        let field = try Self.run("http GET main /api/v2/REQ1/configuration expect 401 with code=\"nope\"\n")
        #expect(
            field.failure?.message.hasPrefix("code is \"invalid_access_token_client_application\", expected \"nope\"")
                == true)
        let header = try Self.run("http GET main /api/v2/REQ1/configuration expect 401 header \"Retry-After: 1\"\n")
        #expect(header.failure?.message.hasPrefix("header Retry-After is missing") == true)
    }

    @Test func aHostThatIsDownOrSilentFailsTheStep() throws {
        let down = try Self.run("net main down\nhttp GET main /api/v2/REQ1/configuration expect 200\n")
        #expect(down.failure?.message == "the request failed without an answer (connection refused)")
        let silent = try Self.run("net main silent\nhttp GET main /api/v2/REQ1/configuration expect 200\n")
        #expect(silent.failure?.message == "no answer: main is silent")
        let injected = try Self.run("net main fail 1 status 502\nhttp GET main /api/v2/REQ1/configuration expect 502\n")
        #expect(injected.status == .passed)
    }

    @Test func substitution() {
        #expect(HTTPStep.bindingNames(in: "/a/$code/b?x=$y.z&$") == ["code", "y.z"])
        #expect(HTTPStep.substitute("/a/$code/b$", { $0 == "code" ? "C1" : nil }) == "/a/C1/b$")
        #expect(HTTPStep.substitute("/a/$nope", { _ in nil }) == nil)
        #expect(HTTPStep.substitute("no names", { _ in nil }) == "no names")
    }
}
