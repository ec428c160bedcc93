import Entitlement
import PassModel
import Testing
@testable import Port

/// What a Swift port writes (`PortOutput.line`) is what the harness reads back (`PortOutput.parse`),
/// for every kind of line; and a harness line is read back by `HarnessMessage`.
@Suite struct PortOutputLineTests {
    static let request = HTTPRequest(
        method: "POST", url: "https://sp.test/authorize", headers: [("Accept", "application/json")],
        body: Array("resource_id=CNN".utf8))

    @Test(arguments: [
        PortOutput.ready(protocol: 1, implementation: "port", reset: true),
        .ready(protocol: 1, implementation: "port", reset: false),
        .callback(app: "app", .setAuthenticationStatus(status: 0, errorCode: "User not Authenticated Error")),
        .callback(app: "tv", .sendTrackingData(event: 0, data: ["false", nil])),
        .present(app: "app", url: "https://idp.test/login"),
        .request(app: "app", id: 3, request),
        .fetched(
            app: "app", id: 4, HTTPRequest(method: "GET", url: "https://sp.test/config/R"),
            .response(HTTPResponse(status: 200, headers: [], body: []))),
        .fetched(app: "app", id: 5, HTTPRequest(method: "GET", url: "https://sp.test/config/R"), .timeout),
        .fetched(
            app: "app", id: 6, HTTPRequest(method: "GET", url: "https://sp.test/config/R"),
            .failure("connection refused")),
        .timer(app: "app", id: 7, at: Instant.simulationStart + Millis(30_000)),
        .cancelTimer(app: "app", id: 7),
        .idle, .unimplemented("tvOS"), .error("boom"),
    ])
    func aLineReadsBackAsWhatWasWritten(_ output: PortOutput) throws {
        #expect(try PortOutput.parse(output.line) == output, "\(output.line)")
    }

    @Test func aHarnessLineIsRead() throws {
        let hello = try HarnessMessage(
            line:
                #"{"type":"hello","protocol":1,"network":"live","hosts":{"https://sp.test":"http://127.0.0.1:4000"},"fetchTimeout":2000,"apps":["app","tv"],"platform":"tvos","now":1767225600000}"#
        )
        guard case .hello(let h) = hello.event else { Issue.record("not a hello"); return }
        #expect(h.apps == ["app", "tv"] && h.configuration.platform == .tvos && h.live?.fetchTimeout == Millis(2000))
        #expect(h.live?.hosts == ["https://sp.test": "http://127.0.0.1:4000"])
        let picker = try HarnessMessage(
            line:
                #"{"type":"picker","app":"tv","outcome":{"picked":"M1","appleToken":null},"now":1767225600000,"cookies":{"sp.test":"a=b"}}"#
        )
        guard case .picker(.picked("M1", nil)) = picker.event else { Issue.record("\(picker.event)"); return }
        #expect(picker.app == "tv" && picker.cookies == ["sp.test": "a=b"])
        #expect(throws: PortError.self) { try HarnessMessage(line: #"{"type":"call","app":"app","now":0}"#) }
        #expect(throws: PortError.self) { try HarnessMessage(line: #"{"type":"nope","app":"app","now":0}"#) }
    }
}
