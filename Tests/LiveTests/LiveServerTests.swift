import Foundation
import Live
import MockPass
import PassModel
import PassXML
import Testing

@Suite(.serialized) struct LiveServerTests {
    @Test func mappingAndConfigOverHTTP() async throws {
        try await withServer { server in
            #expect(server.hosts.map(\.name) == ["sp:main", "sp:alt", "idp:Comcast", "idp:Dish"])
            #expect(Set(server.hosts.map(\.port)).count == 4)
            for h in server.hosts {
                #expect(h.liveURL.hasPrefix("http://127.0.0.1:\(h.port)"))
            }
            let alt = try server.url(.sp("alt"))
            #expect(alt.hasSuffix("/adobe-services"))
            #expect(server.world.serviceProviders.map(\.url) == [try server.url(.sp("main")), alt])
            #expect(
                server.mapping.toOriginal(alt + "/config/REQ1") == "https://sp2.auth.test/adobe-services/config/REQ1")
            #expect(server.mapping.toLive("https://comcast.idp.test/sso") == (try server.url(.idp("Comcast"))) + "/sso")
            #expect(server.mapping.toOriginal("https://elsewhere.test/x") == "https://elsewhere.test/x")

            let curl = try CurlTransport()
            let config = try get(curl, try server.url(.sp("main")) + "/config/REQ1")
            #expect(config.status == 200)
            #expect(config.headers["Content-Type"] == "application/xml")
            #expect(try ConfigurationXML.parse(config.body).mvpds.map(\.id) == ["Comcast", "Dish"])
            let altConfig = try get(curl, alt + "/config/REQ1")
            #expect(try ConfigurationXML.parse(altConfig.body).mvpds.map(\.id) == ["Comcast"])
            #expect(server.requestLog().map(\.path) == ["/config/REQ1", "/config/REQ1"])
            #expect(server.requestLog().map(\.host) == [.sp("main"), .sp("alt")])
        }
    }

    /// authenticate/saml → IdP sso → login → ACS (302) → sessionDevice, by hand, with the cookie.
    @Test func wholeSAMLLoginByHand() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let sp = try server.url(.sp("main"))
            let idp = try server.url(.idp("Comcast"))
            let start = try get(
                curl,
                sp + "/authenticate/saml?"
                    + FormCoding.encode([
                        ("requestor_id", "REQ1"), ("mso_id", "Comcast"), ("redirect_url", appRedirect),
                        ("domain_name", "adobe.com"),
                    ]))
            #expect(start.status == 200)
            // Every header, in the order the server wrote them.
            #expect(start.headers.fields.map(\.name) == ["Set-Cookie", "Content-Type", "Content-Length"])
            let setCookie = try #require(start.headers["Set-Cookie"])
            let cookie = String(setCookie.split(separator: ";")[0])
            #expect(cookie.hasPrefix("JSESSIONID="))

            let toIdP = try onlyForm(start)
            #expect(toIdP.action == idp + "/sso")
            let sso = try response(
                curl.perform(.form(toIdP.action, toIdP.fields.map { ($0.name, $0.value) }), timeout: .seconds(5)))
            #expect(sso.status == 200)
            let loginForm = try onlyForm(sso)
            #expect(loginForm.action == idp + "/login")

            let filled = loginForm.fields.map { f in
                (f.name, f.name == "username" ? "alice" : f.name == "password" ? "secret" : f.value)
            }
            let afterLogin = try response(curl.perform(.form(loginForm.action, filled), timeout: .seconds(5)))
            #expect(afterLogin.status == 200)
            let toSP = try onlyForm(afterLogin)
            #expect(toSP.action == sp + "/sp/saml/SAMLAssertionConsumer")

            let acs = try response(
                curl.perform(
                    .form(toSP.action, toSP.fields.map { ($0.name, $0.value) }, headers: [("Cookie", cookie)]),
                    timeout: .seconds(5)))
            #expect(acs.status == 302)
            #expect(acs.headers["Location"] == appRedirect)

            let session = try response(
                curl.perform(
                    .form(
                        sp + "/sessionDevice", [("requestor_id", "REQ1"), ("device_id", "dev-1")],
                        headers: [("Cookie", cookie)]),
                    timeout: .seconds(5)))
            #expect(session.status == 200)
            guard case .token(let token) = try SessionDeviceXML.parse(session.body) else {
                Issue.record("no token: \(session.bodyText)")
                return
            }
            #expect(token.mvpdID == "Comcast")
            #expect(token.requestorID == "REQ1")
            #expect(token.deviceID == "dev-1")
            #expect(
                server.requestLog().map { "\($0.host) \($0.method) \($0.path)" } == [
                    "sp:main GET /authenticate/saml", "idp:Comcast POST /sso", "idp:Comcast POST /login",
                    "sp:main POST /sp/saml/SAMLAssertionConsumer", "sp:main POST /sessionDevice",
                ])
        }
    }

    @Test func latencyDelaysEveryAnswer() async throws {
        try await withServer([.sp("main"): HostConditions(latency: Millis(300))]) { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/config/REQ1"
            var config: HTTPResponse?
            let slow = try elapsed { config = try get(curl, url) }
            #expect(config?.status == 200)
            #expect(slow >= .milliseconds(295))
            let fast = try elapsed { _ = try get(curl, try server.url(.sp("alt")) + "/config/REQ1") }
            #expect(fast < .milliseconds(295))
        }
    }

    @Test func unreachableHostRefusesConnections() async throws {
        try await withServer([.idp("Dish"): HostConditions(latency: .zero, mode: .down)]) { server in
            let curl = try CurlTransport()
            let dish = try server.url(.idp("Dish")) + "/sso"
            #expect(
                curl.perform(HTTPRequest(method: "GET", url: dish), timeout: .seconds(2))
                    == .failure("connection refused"))

            try await server.apply(.mode(.up), to: .idp("Dish"))
            #expect(try get(curl, dish).status == 405)  // the mock answers: /sso takes POST

            // Down again: the kept-alive connection is cut too, so the same transport is refused.
            try await server.apply(.mode(.down), to: .idp("Dish"))
            #expect(
                curl.perform(HTTPRequest(method: "GET", url: dish), timeout: .seconds(2))
                    == .failure("connection refused"))
            #expect(server.conditions(of: .idp("Dish"))?.mode == .down)
            // Other hosts are unaffected.
            #expect(try get(curl, try server.url(.sp("main")) + "/config/REQ1").status == 200)
        }
    }

    @Test func silentHostTimesOut() async throws {
        try await withServer([.sp("main"): HostConditions(latency: .zero, mode: .silent)]) { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/config/REQ1"
            var result: HTTPResult?
            let waited = elapsed { result = curl.perform(HTTPRequest(method: "GET", url: url), timeout: Millis(300)) }
            #expect(result == .timeout)
            #expect(waited >= .milliseconds(250) && waited < .seconds(3))
            // The request was read but never reached the mock (as in the simulated network).
            #expect(server.requestLog().count == 0)

            try await server.apply(.mode(.up), to: .sp("main"))
            #expect(try get(curl, url).status == 200)
        }
    }

    @Test func connectionsAreReused() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/config/REQ1"
            for _ in 0..<3 { #expect(try get(curl, url).status == 200) }
            #expect(curl.connectionsOpened == 1)
            _ = try get(curl, try server.url(.sp("alt")) + "/config/REQ1")
            #expect(curl.connectionsOpened == 2)
        }
    }

    /// A client that asks `Expect: 100-continue` gets its `100 Continue` at once (curl would otherwise
    /// wait a second), and the final answer's headers are the only ones kept.
    @Test func expectContinueIsAnswered() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let url = try server.url(.sp("main")) + "/sessionDevice"
            var result: HTTPResult?
            let waited = elapsed {
                result = curl.perform(
                    .form(
                        url, [("requestor_id", "REQ1"), ("pad", String(repeating: "p", count: 4000))],
                        headers: [("Expect", "100-continue")]), timeout: .seconds(5))
            }
            let r = try response(try #require(result))
            #expect(r.status == 200)
            #expect(r.headers.fields.map(\.name) == ["Content-Type", "Content-Length"])
            #expect(waited < .milliseconds(900))
        }
    }

    /// HEAD is served wherever GET is: the GET's head, its Content-Length included, and no body.
    @Test func headRequestsGetNoBody() async throws {
        try await withServer { server in
            let curl = try CurlTransport()
            let base = try server.url(.sp("main"))
            let head = try response(
                curl.perform(HTTPRequest(method: "HEAD", url: base + "/config/REQ1"), timeout: .seconds(5)))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            // The connection is still in step: the next answer is whole.
            let config = try get(curl, base + "/config/REQ1")
            #expect(config.status == 200)
            #expect(config.bodyText.hasSuffix("</config>"))
            #expect(head.headers["Content-Length"] == String(config.body.count))
            #expect(head.headers["Content-Type"] == config.headers["Content-Type"])
        }
    }
}
