import Live
import PassimMock
import XCTest

/// The mock for a test: started from a world's text or a Swift `World`, its log read, its clock and
/// faults moved, stopped.
final class MockServerTests: XCTestCase {
    private let world = """
        sp main "https://sp.auth.test"
        mvpd Comcast "Xfinity" at main
        user alice "secret" at Comcast allow CNN
        requestor REQ1
        """

    func testAWorldFromTextServesItsConfigurationAndLogsTheRequest() async throws {
        let mock = try await MockServer.start(world: world)
        let base = try XCTUnwrap(mock.url(of: .sp("main")))
        XCTAssertTrue(base.hasPrefix("http://127.0.0.1:"), base)
        let curl = try CurlTransport()
        guard
            case .response(let answer) = curl.perform(
                HTTPRequest(method: "GET", url: base + "/config/REQ1"), timeout: .seconds(5))
        else {
            return XCTFail("no answer")
        }
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("Comcast"))
        XCTAssertEqual(mock.requestLog.map(\.path), ["/config/REQ1"])
        XCTAssertEqual(mock.requestLog.first?.time, .simulationStart, "the clock is held at the scenario's start")

        XCTAssertEqual(mock.advanceClock(by: .seconds(90)), .simulationStart + .seconds(90))
        XCTAssertEqual(mock.now, .simulationStart + .seconds(90))

        try await mock.apply(.mode(.down), to: .sp("main"))
        guard case .failure = curl.perform(HTTPRequest(method: "GET", url: base + "/config/REQ1"), timeout: .seconds(5))
        else {
            return XCTFail("a host that is down refuses connections")
        }
        try await mock.apply(.mode(.up), to: .sp("main"))
        XCTAssertEqual(mock.conditions(of: .sp("main"))?.mode, .up)
        try await mock.stop()
    }

    func testABadWorldIsAClearError() async {
        do {
            _ = try await MockServer.start(world: "mvpd Comcast \"Xfinity\" at nowhere")
            XCTFail("started")
        } catch {
            XCTAssertTrue("\(error)".contains("nowhere"), "\(error)")
        }
    }
}
