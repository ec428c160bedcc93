import Foundation
import Live
import MockPass
import PassModel
import Testing

/// `URLs.asWritten` (the server behind `passim run --live`): each port stands for its host's original
/// origin, so the server answers what the in-process mock answers for the same request and instant.
@Suite(.serialized) struct AsWrittenTests {
    /// The request as the live wire sends it: to the host's port, with the original path, query and `Host`.
    func overLoopback(_ server: MockPassServer, _ host: LoggedRequest.Host, _ request: HTTPRequest) throws
        -> HTTPRequest
    {
        let parts = try #require(URLParts(request.url))
        var live = request
        live.url = "http://127.0.0.1:\(try server.port(host))" + parts.path + (parts.rawQuery.map { "?" + $0 } ?? "")
        live.headers.add("Host", parts.authority)
        return live
    }

    @Test func theServerAnswersWhatTheMockAnswers() async throws {
        let instant = Instant.simulationStart + .minutes(5)
        try await withServer(urls: .asWritten, clock: LiveClock(heldAt: instant)) { server in
            var mock = MockPass(world: liveWorld(), seed: 7)
            let curl = try CurlTransport()
            let requests: [(LoggedRequest.Host, HTTPRequest)] = [
                (.sp("alt"), HTTPRequest(method: "GET", url: "https://sp2.auth.test/adobe-services/config/REQ1")),
                (
                    .sp("main"),
                    HTTPRequest(
                        method: "GET",
                        url: "https://sp.auth.test/authenticate/saml?"
                            + FormCoding.encode([
                                ("requestor_id", "REQ1"), ("mso_id", "Comcast"), ("redirect_url", appRedirect),
                            ]))
                ),
            ]
            var answers: [HTTPResponse] = []
            for (host, request) in requests {
                let expected = mock.handle(request, at: instant)
                let live = try response(curl.perform(try overLoopback(server, host, request), timeout: .seconds(5)))
                #expect(live.status == expected.status)
                #expect(live.headers["Location"] == expected.headers["Location"])
                #expect(live.bodyText == expected.bodyText)
                answers.append(live)
            }
            // The form that carries the SAML request to the IdP keeps the world's URL: nothing was
            // rewritten to a loopback one.
            #expect(answers[1].status == 200)
            #expect(answers[1].bodyText.contains("https://comcast.idp.test/sso"))
            #expect(!answers[1].bodyText.contains("127.0.0.1"))
            // The server logged the requests as the mock does, at the held instant, with the original Host.
            let log = server.requestLog()
            #expect(log.map(\.path) == ["/config/REQ1", "/authenticate/saml"])
            #expect(log.allSatisfy { $0.time == instant })
            #expect(log.first?.headers["Host"] == "sp2.auth.test")
        }
    }

    @Test func aHeldClockReadsWhatItWasSet() {
        let start = Instant.simulationStart
        let clock = LiveClock(heldAt: start)
        #expect(clock.now() == start)
        clock.hold(at: start + .seconds(30))
        #expect(clock.now() == start + .seconds(30))
        #expect(clock.advance(by: .minutes(1)) == start + .seconds(90))
        #expect(clock.now() == start + .seconds(90))
        // A running clock follows the wall clock from its offset.
        let running = LiveClock(offset: .hours(1))
        let wall = LiveClock.wallClock()
        #expect(running.now() - wall >= .hours(1) && running.now() - wall < .hours(1) + .seconds(5))
    }
}
