import Foundation
import Live
import MockPass
import PassModel
import Testing

/// Answers go out whole and in order when a client sends several requests without waiting, and a
/// body the handler reuses between answers (the mock's cached `/config`) is never mixed up.
@Suite struct PipeliningTests {
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer { server in
            let port = try server.port(.sp("main"))
            let config = try get(try CurlTransport(), try server.url(.sp("main")) + "/config/REQ1")
            #expect(config.status == 200)
            let requests = [
                "GET /config/REQ1 HTTP/1.1\r\nHost: x\r\n\r\n",
                "HEAD /config/REQ1 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /config/NOPE HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /config/REQ1 HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /config/REQ1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            ]
            let raw = try rawExchange(port: port, Array(requests.joined().utf8))
            let body = config.bodyText
            let length = "Content-Length: \(config.body.count)\r\n"
            let ok = "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\n" + length
            // The 404's head and body are the mock's; only its status line is checked.
            // A body does not end with CRLF, so the next status line follows it on the same "line".
            let statuses = raw.components(separatedBy: "HTTP/1.1 ").dropFirst()
                .map { $0.components(separatedBy: "\r\n")[0] }
            #expect(statuses == ["200 OK", "200 OK", "404 Not Found", "200 OK", "200 OK"])
            // HEAD: the GET's head, Content-Length included, and no body.
            #expect(raw.hasPrefix(ok + "\r\n" + body + ok + "\r\nHTTP/1.1 404"))
            #expect(raw.hasSuffix(ok + "\r\n" + body + ok + "Connection: close\r\n\r\n" + body))
            #expect(raw.components(separatedBy: body).count == 4)  // three whole bodies, none for HEAD
        }
    }

    /// More requests in one write than `queuedRequests`: the server stops reading until it has
    /// answered enough of them, and answers every one, in order.
    @Test func aHundredPipelinedRequestsGetAHundredAnswersInOrder() async throws {
        // A latency, so the requests really wait behind each other.
        try await withServer([.sp("main"): HostConditions(latency: Millis(2))]) { server in
            let paths = (0..<100).map { $0 % 3 == 0 ? "/config/NOPE" : "/config/REQ1" }
            var raw = paths.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            raw += "GET /config/REQ1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = try rawExchange(port: try server.port(.sp("main")), Array(raw.utf8), timeout: 10)
            let statuses = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
            #expect(statuses == paths.map { $0 == "/config/NOPE" ? 404 : 200 } + [200])
            #expect(server.requestLog().count == 101)
        }
    }
}
