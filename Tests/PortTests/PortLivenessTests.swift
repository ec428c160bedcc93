import Entitlement
import Lint
import PassModel
@testable import Port
import Testing

/// Driver protocol 1.2 (docs/PORTING.md, "Liveness"): a port's app code reports the API calls it makes
/// with `app-call`, and the harness judges the liveness rules of docs/LINT.md on them, as
/// `AccessEnabler.livenessFindings` does for a Swift app.
@Suite struct PortLivenessTests {
    /// A scripted port: a login shows the picker; a cancel fails the login, and its delegate calls
    /// `getAuthentication` again from inside that status (`reopen`), or from inside a success.
    final class ScriptedPort: LinePort {
        let reopenOnFailure: Bool
        init(reopenOnFailure: Bool) { self.reopenOnFailure = reopenOnFailure }

        static let picker =
            #"{"type":"callback","app":"app","callback":"displayProviderDialog","args":[[{"id":"Comcast"}]]}"#
        static let reopen =
            #"{"type":"app-call","app":"app","call":"getAuthentication","args":{"forceAuthn":false,"data":null,"filter":null}}"#

        func handle(_ line: String) -> [String] {
            guard let message = try? HarnessMessage(line: line) else {
                return [#"{"type":"error","message":"bad line"}"#]
            }
            switch message.event {
            case .hello: return [#"{"type":"ready","protocol":1,"implementation":"scripted"}"#]
            case .call(.getAuthentication): return [ScriptedPort.picker, #"{"type":"idle"}"#]
            case .call(.setSelectedProvider(nil)):
                let status = reopenOnFailure ? 0 : 1
                return [
                    #"{"type":"callback","app":"app","callback":"setAuthenticationStatus","args":[\#(status),""]}"#,
                    ScriptedPort.reopen, ScriptedPort.picker, #"{"type":"idle"}"#,
                ]
            default: return [#"{"type":"unimplemented","what":"anything else"}"#]
            }
        }
    }

    func run(reopenOnFailure: Bool) throws -> PortSession {
        let command = PortCommand(inProcess: "scripted") { ScriptedPort(reopenOnFailure: reopenOnFailure) }
        let session = try PortSession(command, apps: ["app"], engine: EngineConfiguration(), at: .simulationStart)
        var engine = PortEngine(session: session, app: "app")
        _ = engine.step(
            .call(.getAuthentication(forceAuthn: false, data: nil, filter: nil), sharedStore: nil), at: .simulationStart
        )
        _ = engine.step(
            .call(.setSelectedProvider(nil), sharedStore: nil),
            at: Instant(milliseconds: Instant.simulationStart.milliseconds + 5_000))
        session.checkNothingUnasked()
        return session
    }

    @Test func aDelegateThatReopensThePickerOnACancelFailsItsScenario() throws {
        let session = try run(reopenOnFailure: true)
        #expect(session.livenessFindings.map(\.finding.rule) == ["live.picker-reopened-on-failure"])
        let failure = try #require(session.failure)
        #expect(
            failure.description.contains("port: liveness (docs/LINT.md): app: live.picker-reopened-on-failure"),
            "\(failure)")
    }

    /// A new login from inside a success (a wrapper that goes on to another screen) is no finding.
    @Test func aCallFromASuccessIsNoFinding() throws {
        let session = try run(reopenOnFailure: false)
        #expect(session.livenessFindings.isEmpty)
        #expect(session.failure == nil)
    }

    @Test func appCallRoundTrips() throws {
        let call = Call.getAuthentication(forceAuthn: true, data: nil, filter: nil)
        let line = PortOutput.appCall(app: "a", call).line
        #expect(line.contains(#""type":"app-call""#))
        #expect(try PortOutput.parse(line) == .appCall(app: "a", call))
        #expect(throws: PortError.self) {
            try PortOutput.parse(#"{"type":"app-call","app":"a","call":"getAuthentication"}"#)
        }
        #expect(throws: PortError.self) {
            try PortOutput.parse(#"{"type":"app-call","app":"a","call":"teleport","args":{}}"#)
        }
    }
}
