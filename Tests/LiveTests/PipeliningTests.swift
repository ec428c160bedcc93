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
            // The 405 and 404 heads and bodies are the mock's; only their status lines are checked.
            // A body does not end with CRLF, so the next status line follows it on the same "line".
            let statuses = raw.components(separatedBy: "HTTP/1.1 ").dropFirst()
                .map { $0.components(separatedBy: "\r\n")[0] }
            #expect(statuses == ["200 OK", "405 Method Not Allowed", "404 Not Found", "200 OK", "200 OK"])
            #expect(raw.hasPrefix(ok + "\r\n" + body + "HTTP/1.1 405"))
            #expect(raw.hasSuffix(ok + "\r\n" + body + ok + "Connection: close\r\n\r\n" + body))
            #expect(raw.components(separatedBy: body).count == 4)  // three whole bodies, none for HEAD
        }
    }
}
