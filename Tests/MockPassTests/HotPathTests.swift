import PassModel
import PassXML
import Testing
@testable import MockPass

/// The per-request shortcuts (BENCHMARKS.md, "passim serve"): each must answer exactly what the
/// general code it stands in for answers.
@Suite struct HotPathTests {
    @Test func headerLookupsAreHTTPHeaders() {
        let headers: HTTPHeaders = [
            ("Host", "h"), ("CONTENT-type", "application/x-www-form-urlencoded"), ("cookie", "a=1"),
            ("Coo\u{212A}ie", "kelvin=1"), ("Cookie", "b=2"), ("Content-Typé", "no"), ("X-Cookie", "no"),
        ]
        for name in ["content-type", "cookie", "host", "missing", "x-cookie"] {
            #expect(headers.first(lowercased: name) == headers[name])
            #expect(headers.all(lowercased: name) == headers.all(name))
        }
        #expect(headers.all(lowercased: "cookie") == ["a=1", "kelvin=1", "b=2"])
    }

    /// `matches` over bytes against `slowMatches` (the `utf8` views, as first written) and against
    /// `lowercased()` itself, on ordinary, odd and non-ASCII names: the same answer every time.
    @Test func headerNameMatchOverBytesIsTheSlowMatch() {
        let names = [
            "content-type", "cookie", "authorization", "host", "x-cookie", "k", "",
            "a-very-long-header-name-past-sixteen",
        ]
        var fields = [
            "Content-Type", "CONTENT-TYPE", "content-type", "Content-Typé", "Content_Type", "content-typ",
            "content-typee", "Cookie", "COOKIE", "Coo\u{212A}ie", "Coo\u{212A}IE", "\u{212A}", "K", "k", "",
            "Authorization", "AUTHORIZATION", "Authorizatio\u{0301}n", "X-Cookie", "Host", "HOST\u{0}",
            "A-Very-Long-Header-Name-Past-Sixteen", "A-VERY-LONG-HEADER-NAME-PAST-SIXTEEN", "\u{130}",
            "cookie\u{7F}", "Cook\u{0130}e", "ÇOOKIE", "[ookie", "@ookie", "Cookie ",
        ]
        // Every byte value at the first position (ASCII case folding is only A-Z).
        fields += (0x20...0x7E).map { "\(Character(UnicodeScalar(UInt8($0))))ookie" }
        for name in names {
            for field in fields {
                let expected = field.lowercased() == name
                #expect(HTTPHeaders.matches(field, lowercased: name) == expected, "\(field) \(name)")
                #expect(HTTPHeaders.slowMatches(field, lowercased: name) == expected, "\(field) \(name)")
            }
        }
    }

    @Test func aRepeatedConfigIsTheSameAnswerAndIsLoggedEveryTime() throws {
        var m = MockPass(world: sampleWorld(), seed: 1)
        let url = "https://sp.auth.test/config/REQ1"
        let first = m.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart)
        var copy = m  // a fork shares what was built and stays independent
        let second = m.handle(
            HTTPRequest(method: "GET", url: url + "?v=2", headers: [("X-N", "2")]),
            at: .simulationStart + .seconds(1))
        #expect(first.status == 200)
        #expect(second == first)
        #expect(m.log.count == 2)
        #expect(m.log.map(\.path) == ["/config/REQ1", "/config/REQ1"])
        #expect(m.log[1].parameters == [LoggedRequest.Parameter(name: "v", value: "2")])
        #expect(m.log[1].headers["X-N"] == "2")
        #expect(m.log[1].time == .simulationStart + .seconds(1))
        #expect(copy.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart) == first)
        #expect(copy.log.count == 2)

        // Another SP, another requestor: their own answers, not the cached one.
        let alt = m.handle(
            HTTPRequest(method: "GET", url: "https://sp2.auth.test/adobe-services/config/REQ1"),
            at: .simulationStart)
        #expect(try ConfigurationXML.parse(alt.body).mvpds.map(\.id) == ["Verizon", "Comcast"])
        let req2 = m.handle(HTTPRequest(method: "GET", url: "https://sp.auth.test/config/REQ2"), at: .simulationStart)
        #expect(try ConfigurationXML.parse(req2.body).mvpds.map(\.id) == ["Comcast", "Dish"])
        #expect(
            try ConfigurationXML.parse(m.handle(HTTPRequest(method: "GET", url: url), at: .simulationStart).body)
                .mvpds.map(\.id) == ["Comcast", "Dish", "TempPass"])

        // Refusals are not cached and stay what they were.
        let post = m.handle(HTTPRequest(method: "POST", url: url), at: .simulationStart)
        #expect(post.status == 405)
        let unknown = m.handle(
            HTTPRequest(method: "GET", url: "https://sp.auth.test/config/NOPE"), at: .simulationStart)
        #expect(unknown.status == 404)
        #expect(unknown.bodyText == "404 Not Found: unknown requestor NOPE\n")
        #expect(m.sdk.configResponses.count == 3)
    }

    @Test func formFieldsStillFollowTheQuery() {
        var m = MockPass(world: sampleWorld(), seed: 1)
        _ = m.handle(
            .form("https://sp.auth.test/sessionDevice?requestor_id=REQ1", [("device_id", "d 1")]),
            at: .simulationStart)
        _ = m.handle(
            HTTPRequest(
                method: "POST", url: "https://sp.auth.test/sessionDevice?a=1",
                headers: [("content-TYPE", "Application/X-WWW-Form-Urlencoded; charset=utf-8")],
                body: Array("b=2".utf8)), at: .simulationStart)
        _ = m.handle(
            HTTPRequest(
                method: "POST", url: "https://sp.auth.test/sessionDevice",
                headers: [("Content-Type", "text/plain")], body: Array("c=3".utf8)), at: .simulationStart)
        #expect(m.log.map { $0.parameters.map(\.name) } == [["requestor_id", "device_id"], ["a", "b"], []])
        #expect(m.log[0].parameter("device_id") == "d 1")
    }
}
