import PassModel
import Port
import ScenarioSyntax
import Testing
@testable import Fuzz
@testable import Scenario

/// The differential transcript carries the requests the spec pins (CONFORMANCE.md
/// choice 72): a port that leaves an authorization's `withData:` out of `generic_data` (mutant 18)
/// gets the same answers from the mock, and only its request tells it apart.
@Suite struct RequestTranscriptTests {
    /// `passim shim` with mutant 18's bug: the `generic_data` form field of every request dropped.
    final class DropsGenericData: LinePort {
        let shim = PortShim()
        func handle(_ line: String) -> [String] {
            shim.handle(line).map { out in
                guard case .request(let app, let id, var request)? = try? PortOutput.parse(out) else { return out }
                let fields = String(decoding: request.body, as: UTF8.self).split(separator: "&")
                request.body = Array(fields.filter { !$0.hasPrefix("generic_data=") }.joined(separator: "&").utf8)
                return PortOutput.request(app: app, id: id, request).line
            }
        }
    }

    static let program = FuzzProgram(
        world: [
            #"scenario "getAuthorization withData""#, #"sp main "https://sp.auth.test""#,
            #"mvpd Comcast "Xfinity" at main"#, #"user alice "secret" at Comcast allow CNN"#, "requestor REQ1",
        ],
        steps: [
            #"> setRequestor("REQ1")"#, "clock +1s", "> getAuthentication()", "> setSelectedProvider(Comcast)",
            #"user login "alice" "secret""#, #"> handleExternalURL("adobepass://ios.app")"#, "clock +1s",
            #"> getAuthorization("CNN", withData: {rating: "PG"})"#, "clock +1s",
        ])

    func fuzzer(_ make: @escaping @Sendable () -> any LinePort) -> DifferentialFuzzer {
        DifferentialFuzzer(options: .init(port: PortCommand(inProcess: "port", make)))
    }

    @Test func theTranscriptSaysEachRequestWithItsPinnedFields() throws {
        let reference = try #require(DifferentialFuzzer.reference(Self.program))
        let lines = reference.text.split(separator: "\n")
        #expect(lines.contains("seen main GET /config/REQ1"), "\(reference.text)")
        let authorize = try #require(lines.first { $0.hasPrefix("seen main POST /authorizeDevice") })
        #expect(authorize.contains(#"generic_data="{\"rating\":\"PG\"}""#), "\(authorize)")
        #expect(authorize.contains(#"resource_id="CNN""#) && !authorize.contains("authentication_token"))
        // After the `<` lines of its step (none here: the request goes at once, the answer comes later).
        let step = try #require(lines.firstIndex { $0.hasPrefix("> getAuthorization") })
        #expect(lines[step + 1] == authorize, "\(reference.text)")
        #expect(ScenarioRunner().run(reference.file).status == .passed)
    }

    @Test func aPortThatDropsTheDataIsADifferenceAndAFaithfulOneIsNot() throws {
        #expect(fuzzer { PortShim() }.difference(Self.program) == nil)
        let difference = try #require(fuzzer { DropsGenericData() }.difference(Self.program))
        #expect(difference.contains("main received no such request since the previous seen"), "\(difference)")
    }

    /// A code the mock made is masked: the route, not the code, is what the spec pins.
    @Test func mockCodesAreMaskedInPaths() {
        #expect(RequestTranscript.pathPattern("GET", "/api/v1/checkauthn/AB12CD3") == #"/\/api\/v1\/checkauthn\/.+/"#)
        #expect(
            RequestTranscript.pathPattern("GET", "/api/v2/REQ1/sessions/XYZ9") == #"/\/api\/v2\/REQ1\/sessions\/.+/"#)
        #expect(RequestTranscript.pathPattern("POST", "/api/v2/REQ1/sessions") == "/api/v2/REQ1/sessions")
        #expect(RequestTranscript.pathPattern("GET", "/config/a b") == nil)
    }
}
