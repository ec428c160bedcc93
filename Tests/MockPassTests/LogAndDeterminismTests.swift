import PassModel
import PassXML
import Testing
@testable import MockPass

@Suite struct LogAndDeterminismTests {
    /// A REST v2 decision answer is a 200 with its refusals inside: the journal takes the first
    /// refusal's code and action only when every decision was refused (the call got nothing).
    @Test func aDecisionAnswerEveryDecisionOfWhichIsRefusedIsJournaledAsARefusal() {
        func logged(_ body: String, status: Int = 200) -> LoggedRequest {
            var r = LoggedRequest(
                host: .sp("SP"), time: .simulationStart, method: "POST", path: "/api/v2/R/decisions/authorize/M",
                parameters: [], headers: [])
            r.record(HTTPResponse(status: status, contentType: "application/json", text: body))
            return r
        }
        let refused =
            #"{"authorized":false,"error":{"status":403,"code":"authorization_denied_by_mvpd","action":"none"}}"#
        let granted = #"{"authorized":true}"#
        let all = logged(#"{"decisions":[\#(refused),\#(refused)]}"#)
        #expect(all.errorCode == "authorization_denied_by_mvpd" && all.errorAction == "none")
        let some = logged(#"{"decisions":[\#(granted),\#(refused)]}"#)
        #expect(some.errorCode == nil && some.errorAction == nil)
        #expect(logged(#"{"decisions":[]}"#).errorCode == nil)
        #expect(
            logged(#"{"code":"invalid_requestor","action":"configuration"}"#, status: 400).errorCode
                == "invalid_requestor")
        #expect(logged(#"{"code":"x"}"#).errorCode == nil, "a 200 that is not a decision answer says no refusal")
    }

    /// A REST v2 decisions request names its resources in a JSON body, where the SDK's sent
    /// `resource_id`: the journal keeps them (a `seen … with resource_id=` holds on v2 through them);
    /// no other body is journaled, and a body that is not such JSON leaves none.
    @Test func aDecisionsRequestsResourcesAreJournaled() {
        let preparer = MockPass(world: sampleWorld(), seed: 1).preparer
        func resources(_ path: String, _ body: String) -> [String]? {
            let request = HTTPRequest(
                method: "POST", url: "https://sp.auth.test" + path, headers: [("Content-Type", "application/json")],
                body: Array(body.utf8))
            return preparer.prepare(request).logged?.resources
        }
        let body = #"{"resources":["CNN","HBO"]}"#
        #expect(resources("/api/v2/REQ1/decisions/authorize/Comcast", body) == ["CNN", "HBO"])
        #expect(resources("/api/v2/REQ1/decisions/preauthorize/Comcast", body) == ["CNN", "HBO"])
        #expect(resources("/api/v2/REQ1/sessions", body) == [], "not a decisions request")
        #expect(resources("/api/v2/REQ1/decisions/authorize/Comcast", #"{"resources":"CNN"}"#) == [])
        #expect(resources("/api/v2/REQ1/decisions/authorize/Comcast", "CNN") == [])
    }

    @Test func theLogRecordsHostPathAndParameters() throws {
        var b = Browser(MockPass(world: sampleWorld(), seed: 1))
        _ = b.get("https://sp2.auth.test/adobe-services/config/REQ3?format=xml")
        b.now = b.now + .seconds(1)
        #expect(try b.login().status == 302)
        _ = try b.sessionDevice()
        let log = b.mock.log
        #expect(
            log.map(\.host) == [.sp("alt"), .sp("main"), .idp("Comcast"), .idp("Comcast"), .sp("main"), .sp("main")])
        #expect(
            log.map(\.path) == [
                "/config/REQ3", "/authenticate/saml", "/sso", "/login",
                "/sp/saml/SAMLAssertionConsumer", "/sessionDevice",
            ])
        #expect(log.map(\.method) == ["GET", "GET", "POST", "POST", "POST", "POST"])
        #expect(log[0].time == .simulationStart)
        #expect(log[1].time == .simulationStart + .seconds(1))
        #expect(log[0].parameters == [LoggedRequest.Parameter(name: "format", value: "xml")])
        #expect(
            log[1].parameters.map(\.name) == [
                "domain_name", "noflash", "no_iframe", "mso_id", "requestor_id",
                "redirect_url", "client_type", "client_version",
            ])
        #expect(log[1].parameter("redirect_url") == redirect)
        #expect(log[3].parameter("username") == "alice")
        #expect(log[3].parameter("password") == "secret")
        #expect(log[5].parameters.map(\.name) == ["_method", "requestor_id", "device_id"])
        #expect(log[5].headers["Cookie"] == "JSESSIONID=\(b.cookie("JSESSIONID") ?? "?")")
        #expect(log[5].headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    /// Runs a fixed sequence of requests (login, token, logout, refusals) and returns every answer.
    func transcript(seed: UInt64) throws -> [HTTPResponse] {
        var b = Browser(MockPass(world: sampleWorld(), seed: seed))
        var out: [HTTPResponse] = []
        func record(_ r: HTTPResponse) -> HTTPResponse { out.append(r); return r }
        _ = record(b.get("https://sp.auth.test/config/REQ1"))
        let start = record(b.get(loginURL()))
        let sso = record(b.submit(try onlyForm(start)))
        _ = record(b.submit(try onlyForm(sso), ["username": "alice", "password": "nope"]))
        let login = record(b.submit(try onlyForm(sso), ["username": "alice", "password": "secret"]))
        _ = record(b.submit(try onlyForm(login)))
        b.now = b.now + .seconds(2)
        let token = record(b.post("https://sp.auth.test/sessionDevice", [("_method", "GET"), ("device_id", "d")]))
        guard case .token(let t) = try SessionDeviceXML.parse(token.body) else { throw TestFailure("no token") }
        let logout = record(
            b.get(
                "https://sp.auth.test/logout?"
                    + FormCoding.encode([
                        ("mso_id", "Comcast"), ("name_id", t.nameID), ("session_index", t.sessionIndex),
                        ("redirect_url", redirect),
                    ])))
        let slo = record(b.submit(try onlyForm(logout)))
        _ = record(b.submit(try onlyForm(slo)))
        _ = record(b.get("https://sp.auth.test/nowhere"))
        return out
    }

    @Test func sameSeedSameBytes() throws {
        let a = try transcript(seed: 42)
        let b = try transcript(seed: 42)
        #expect(a.count == 11)
        #expect(a == b)
        let c = try transcript(seed: 43)
        #expect(a != c)
        #expect(a[1].headers["Set-Cookie"] != c[1].headers["Set-Cookie"])
    }

    @Test func aCopyForksTheServer() throws {
        var original = Browser(MockPass(world: sampleWorld(), seed: 5))
        _ = original.get(loginURL())
        var copy = original
        let x = original.get(loginURL(mvpd: "Dish"))
        let y = copy.get(loginURL(mvpd: "Dish"))
        #expect(x == y)
        #expect(original.mock.log.count == 2 && copy.mock.log.count == 2)
    }
}

@Suite struct LogLimitTests {
    @Test func aLimitedLogKeepsTheLatestRequests() {
        let world = World(
            serviceProviders: [World.ServiceProvider(name: "main", url: "https://sp.test")],
            requestors: [World.Requestor(id: "REQ1")])
        var mock = MockPass(world: world, seed: 1, logLimit: 10)
        for i in 0..<25 {
            _ = mock.handle(HTTPRequest(method: "GET", url: "https://sp.test/config/R\(i)"), at: .simulationStart)
        }
        #expect(mock.log.count >= 10 && mock.log.count < 20)
        #expect(mock.log.last?.path == "/config/R24")
        #expect(mock.logDropped + mock.log.count == 25)
        var unlimited = MockPass(world: world, seed: 1)
        for _ in 0..<25 {
            _ = unlimited.handle(HTTPRequest(method: "GET", url: "https://sp.test/config/REQ1"), at: .simulationStart)
        }
        #expect(unlimited.log.count == 25 && unlimited.logDropped == 0)
    }
}
