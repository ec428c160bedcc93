import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Testing

/// Hostile or broken input is refused with a short text answer, and the server keeps serving.
@Suite(.serialized) struct RobustnessTests {
    func stillServes(_ server: MockPassServer) throws {
        let curl = try CurlTransport()
        #expect(try get(curl, try server.url(.sp("main")) + "/config/REQ1").status == 200)
    }

    @Test func oversizedHeadIs431() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/config/REQ1"
            let big = try get(curl, url, headers: [("X-Big", String(repeating: "a", count: 20_000))])
            #expect(big.status == 431)
            #expect(big.bodyText.hasPrefix("431 "))
            #expect(try get(curl, url).status == 200)

            // Many small headers adding up, and an endless request line, are the same.
            let many = HTTPHeaders((0..<400).map { HTTPHeader("X-H\($0)", String(repeating: "b", count: 40)) })
            #expect(try get(curl, url, headers: many).status == 431)
            let longLine = try rawExchange(
                port: try server.port(.sp("main")),
                Array(("GET /" + String(repeating: "x", count: 40_000) + " HTTP/1.1\r\n").utf8))
            #expect(longLine.hasPrefix("HTTP/1.1 431"))
            try stillServes(server)
        }
    }

    @Test func oversizedBodyIs413() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/sessionDevice"
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 1_500_000)
            let big = try response(
                curl.perform(
                    HTTPRequest(
                        method: "POST", url: url, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                        body: body),
                    timeout: .seconds(5)))
            #expect(big.status == 413)
            #expect(big.bodyText.hasPrefix("413 "))

            // Chunked, so no Content-Length warns the server: the limit still holds.
            let chunk = String(repeating: "c", count: 65_536)
            var raw = "POST /sessionDevice HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<20 { raw += "10000\r\n" + chunk + "\r\n" }
            raw += "0\r\n\r\n"
            let chunked = try rawExchange(port: try server.port(.sp("main")), Array(raw.utf8))
            #expect(chunked.hasPrefix("HTTP/1.1 413"))
            try stillServes(server)
        }
    }

    @Test func garbageIs400() async throws {
        try await withServer { server in
            let port = try server.port(.sp("main"))
            let garbage = try rawExchange(
                port: port, [0x00, 0xFF, 0x13, 0x37] + Array("\r\n\r\nnot http at all\r\n\r\n".utf8))
            #expect(garbage.hasPrefix("HTTP/1.1 400"))
            #expect(garbage.contains("malformed HTTP request"))
            let badVersion = try rawExchange(port: port, Array("GET / HTTP/9.9\r\n\r\n".utf8))
            #expect(badVersion.hasPrefix("HTTP/1.1 400"))
            let admin = try #require(Int(server.adminURL.split(separator: ":").last ?? ""))
            #expect(try rawExchange(port: admin, Array("\u{1}\u{2}\r\n\r\n".utf8)).hasPrefix("HTTP/1.1 400"))
            try stillServes(server)
        }
    }

    @Test func unknownPathAndMethodAreTheMocks() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let base = try server.url(.sp("main"))
            let missing = try get(curl, base + "/no/such/thing")
            #expect(missing.status == 404)
            #expect(missing.bodyText.hasPrefix("404 "))
            let wrong = try response(
                curl.perform(HTTPRequest(method: "DELETE", url: base + "/config/REQ1"), timeout: .seconds(5)))
            #expect(wrong.status == 405)
            #expect(wrong.headers["Allow"] == "GET")
            for method in ["PUT", "PATCH", "OPTIONS"] {
                let r = try response(
                    curl.perform(HTTPRequest(method: method, url: base + "/config/REQ1"), timeout: .seconds(5)))
                #expect(r.status == 405)
            }
            // A method token NIO's parser (llhttp) does not know never reaches the mock: 400.
            let odd = try response(
                curl.perform(HTTPRequest(method: "BREW", url: base + "/config/REQ1"), timeout: .seconds(5)))
            #expect(odd.status == 400)
            try stillServes(server)
        }
    }

    @Test func hostileSAMLIsRefused() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let sso = try server.url(.idp("Comcast")) + "/sso"
            let xxe = """
                <?xml version="1.0"?>
                <!DOCTYPE samlp:AuthnRequest [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
                <samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_a" Version="2.0" \
                IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">&xxe;</saml:Issuer></samlp:AuthnRequest>
                """
            let laughs = """
                <?xml version="1.0"?>
                <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\
                <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\
                <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><lolz>&lol4;</lolz>
                """
            for xml in [xxe, laughs] {
                let r = try response(
                    curl.perform(.form(sso, [("SAMLRequest", SAML.encodeForPost(xml))]), timeout: .seconds(5)))
                #expect(r.status == 400)
                #expect(!r.bodyText.contains("root:"))
                #expect(!r.bodyText.contains("lollol"))
            }
            let notBase64 = try response(
                curl.perform(.form(sso, [("SAMLRequest", "%%%not base64")]), timeout: .seconds(5)))
            #expect(notBase64.status == 400)
            try stillServes(server)
        }
    }
}
