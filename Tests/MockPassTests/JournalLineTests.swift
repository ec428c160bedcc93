import PassModel
import Testing

@testable import MockPass

/// The journal's one text form: what `GET /admin/log` writes, `passim lint` and a remote server's
/// `seen` read back, entry for entry.
@Suite struct JournalLineTests {
    @Test func everyFieldComesBackAsItWasLogged() throws {
        var entry = LoggedRequest(
            host: .sp("main"), time: Instant(milliseconds: 1_767_225_600_010), method: "POST",
            path: "/api/v2/REQ1/decisions/authorize/comcast",
            parameters: [.init(name: "requestor_id", value: "REQ1")],
            headers: [("Host", "sp.test"), ("AP-Device-Identifier", "fingerprint eA==")],
            fault: "injected failure 503", status: 200, errorCode: "authorization_denied_by_mvpd",
            errorAction: "none", resources: ["R1", "R\u{e9}2"])
        entry.deniedResources = ["R1"]
        entry.profiles = []
        entry.retryAfter = 1
        let line = entry.jsonLine
        #expect(line.hasSuffix("}\n"))
        #expect(try LoggedRequest(jsonLine: String(line.dropLast())) == entry)
        // An empty list of profiles (a poll that found none) is not no list (an answer that holds none).
        #expect(line.contains(#""profiles":[]"#))
        // An answered request's line carries none of the optional fields.
        entry = LoggedRequest(
            host: .idp("comcast"), time: Instant(milliseconds: 5), method: "GET", path: "/login", parameters: [],
            headers: [])
        #expect(
            entry.jsonLine
                == #"{"host":"idp:comcast","time":5,"method":"GET","path":"/login","parameters":[],"headers":[]}"#
                + "\n")
        #expect(try LoggedRequest(jsonLine: entry.jsonLine) == entry)
    }

    @Test(arguments: [
        ("[1,2]", "not a JSON object"),
        (#"{"host":"sp:SP","time":1,"method":"GET"}"#, "\"path\""),
        (#"{"host":"nowhere","time":1,"method":"GET","path":"/"}"#, "host must be"),
        (#"{"host":"sp:","time":1,"method":"GET","path":"/"}"#, "host must be"),
        (#"{"host":"sp:SP","time":-1,"method":"GET","path":"/"}"#, "\"time\""),
        ("{\"host\":\"sp:SP\",\"time\":1,\"meth", "truncated"),
        ("hello", "not JSON"),
        (#"{"host":"sp:SP","time":1,"method":"GET","path":"/","status":999}"#, "status"),
        (#"{"host":"sp:SP","time":1,"method":"GET","path":"/","headers":[{"name":1}]}"#, "\"headers\""),
        (#"{"host":"sp:SP","time":1,"method":"GET","path":"/","parameters":{}}"#, "not a list"),
    ])
    func refusesWhatIsNotAnEntry(_ text: String, _ says: String) {
        do {
            _ = try LoggedRequest(jsonLine: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.message.contains(says), "\(error.message)")
        }
    }

    @Test func hostsAreNamedOneWay() {
        #expect(LoggedRequest.Host.sp("main").description == "sp:main")
        #expect(LoggedRequest.Host("idp:comcast") == .idp("comcast"))
        #expect(LoggedRequest.Host("sp:") == nil)
        #expect(LoggedRequest.Host("main") == nil)
    }

    /// What the rules read of an answer: the resources a decision refused, the profiles a poll
    /// found, how long a 429 asks to wait.
    @Test func theAnswerIsReadForWhatTheRulesNeed() {
        func answered(_ method: String, _ path: String, _ status: Int, _ body: String, headers: HTTPHeaders = [])
            -> LoggedRequest
        {
            var r = LoggedRequest(
                host: .sp("main"), time: Instant(milliseconds: 0), method: method, path: path, parameters: [],
                headers: [])
            r.record(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
            return r
        }
        let mixed = answered(
            "POST", "/api/v2/REQ1/decisions/authorize/M", 200,
            #"{"decisions":[{"resource":"R1","authorized":false,"error":{"code":"authorization_denied_by_mvpd","action":"none"}},{"resource":"R2","authorized":true}]}"#
        )
        #expect(mixed.deniedResources == ["R1"])
        #expect(mixed.errorCode == nil)  // not every decision refused: the call is no refusal
        let none = answered("GET", "/api/v2/REQ1/profiles/code/ABC", 200, #"{"profiles":{}}"#)
        #expect(none.profiles == [])
        let found = answered("GET", "/api/v2/REQ1/profiles/code/ABC", 200, #"{"profiles":{"M":{"type":"regular"}}}"#)
        #expect(found.profiles == ["M"])
        #expect(answered("GET", "/api/v2/REQ1/configuration", 200, "{}").profiles == nil)
        let throttled = answered(
            "GET", "/api/v2/REQ1/configuration", 429, #"{"code":"too_many_requests","action":"retry"}"#,
            headers: [("Retry-After", " 2 ")])
        #expect(throttled.retryAfter == 2)
        #expect(answered("GET", "/x", 200, "", headers: [("Retry-After", "2")]).retryAfter == nil)
    }
}
