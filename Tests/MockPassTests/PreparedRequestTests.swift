import PassModel
import PassXML
import Testing
@testable import MockPass

/// Issue 12, row 2: everything that reads only the request (above all, every XML parse) happens in
/// `prepare`, which a server runs outside its lock; `handle(prepared)` only changes state.
@Suite struct PreparedRequestTests {
    /// A request file of `Fixtures/hostile/requests/`: `METHOD URL`, headers, a blank line, the body.
    static func hostileRequest(_ name: String) throws -> HTTPRequest {
        let text = String(decoding: try HostileFixtures.bytes("requests/" + name), as: UTF8.self)
        let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
        let head = parts[0].split(separator: "\n")
        let start = head[0].split(separator: " ", maxSplits: 1)
        var headers = HTTPHeaders()
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        return HTTPRequest(
            method: String(start[0]), url: String(start[1]), headers: headers,
            body: parts.count > 1 ? Array(parts[1].utf8) : [])
    }

    @Test func hostileXMLInARequestIsRefusedNamingTheLimit() throws {
        var mock = MockPass(world: sampleWorld(), seed: 1)
        let attributes = mock.handle(
            try Self.hostileRequest("preauthorize-mrss-33-attributes.txt"), at: .simulationStart)
        #expect(attributes.status == 400)
        #expect(
            try ErrorXML.parse(attributes.body).message
                == "malformed MRSS resource: element with more than 32 attributes (limit: xml-attributes) at line 1")
        let deep = mock.handle(try Self.hostileRequest("sso-saml-65-deep.txt"), at: .simulationStart)
        #expect(
            deep.bodyText
                == "400 Bad Request: malformed SAMLRequest: nesting deeper than 64 levels (limit: xml-depth) at line 1\n"
        )
        // Refused, yet logged, and the mock still answers a normal request.
        #expect(mock.log.count == 2)
        #expect(
            mock.handle(HTTPRequest(method: "GET", url: "https://sp.auth.test/config/REQ1"), at: .simulationStart)
                .status == 200)
    }

    /// Issue 12's request: an 880 KB `/preauthorize` whose resource has 95,000 attributes.
    @Test func theAttributeBombIsPreparedQuickly() throws {
        let attributes = (0..<95_000).map { "a\(String($0, radix: 36))=\"1\"" }.joined(separator: " ")
        let request = HTTPRequest.form(
            "https://sp.auth.test/preauthorize",
            [("requestor_id", "REQ1"), ("resource_id", "<r><e \(attributes)/></r>")])
        #expect(
            try String(decoding: HostileFixtures.bytes("requests/preauthorize-attribute-bomb.txt"), as: UTF8.self)
                .contains("95,000 attributes"))
        var mock = MockPass(world: sampleWorld(), seed: 1, logLimit: 100)
        var prepared: PreparedRequest?
        let elapsed = ContinuousClock().measure { prepared = mock.prepare(request) }
        print("attribute bomb request (\(request.body.count) bytes) prepared in \(elapsed)")
        let response = mock.handle(try #require(prepared), at: .simulationStart)
        #expect(response.status == 400)
        #expect(
            try ErrorXML.parse(response.body).message
                == "malformed MRSS resource: element with more than 32 attributes (limit: xml-attributes) at line 1")
    }

    /// `prepare` parses the XML the endpoint reads; the handler uses that result rather than parsing again.
    @Test func prepareParsesWhatTheEndpointReads() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        let start = b.get(loginURL())
        let form = try onlyForm(start)
        let prepared = b.mock.prepare(.form(form.action, form.fields.map { ($0.name, $0.value) }))
        #expect(prepared.target == .idp("Comcast"))
        let parsed = try #require(prepared.incoming?.xml.authnRequest)
        #expect(try parsed.get().issuer == "https://sp.auth.test")

        // A prepared result is what the handler answers from, even if the field would parse otherwise.
        var fake = prepared
        var incoming = try #require(fake.incoming)
        incoming.xml.authnRequest = .failure(.badRequest("from the prepared request"))
        fake = PreparedRequest(
            request: prepared.request, incoming: incoming, host: prepared.host, logged: prepared.logged)
        #expect(b.mock.handle(fake, at: b.now).bodyText == "400 Bad Request: from the prepared request\n")
    }

    /// Preparing changes nothing: the mock answers the same whether it prepared other requests or not.
    @Test func prepareIsPure() throws {
        var a = Browser(MockPass(world: sampleWorld(), seed: 1))
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        for _ in 0..<3 { _ = b.mock.prepare(HTTPRequest(method: "GET", url: loginURL())) }
        #expect(try a.login().status == 302)
        #expect(try b.login().status == 302)
        #expect(try a.sessionDevice() == b.sessionDevice())
        #expect(a.mock.log == b.mock.log)
    }

    @Test func anUnknownHostIsStill404() {
        var mock = MockPass(world: sampleWorld(), seed: 1)
        let prepared = mock.prepare(HTTPRequest(method: "GET", url: "https://nowhere.test/config/REQ1"))
        #expect(prepared.target == nil)
        #expect(mock.handle(prepared, at: .simulationStart).status == 404)
        #expect(mock.log.isEmpty)
    }
}
