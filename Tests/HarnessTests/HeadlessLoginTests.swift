import Foundation
import Live
import MockPass
import PassModel
import Simulation
import Testing
@testable import Harness

/// A headless login for a REST API v2 session's code: the walk of `user authenticate` run to its end
/// at once (`HeadlessLogin`), and `passim serve`'s `POST /admin/login`, which walks it in-process on
/// the server's own hosts (`RunningServer.login`) for a client that has no browser.
@Suite(.serialized) struct HeadlessLoginTests {
    static let done = "https://app.test/done"

    /// One SP offering a SAML MVPD and an OAuth2 one, a user at each, and `requestors` (no DCR).
    static func world(requestors: [String] = ["R"]) -> World {
        let sp = World.ServiceProvider(
            name: "main", url: "https://sp.test/adobe-services",
            mvpds: [MVPD(id: "X", displayName: "X Cable"), MVPD(id: "O", displayName: "O Cable")])
        var world = World(
            serviceProviders: [sp], identityProviders: World.defaultIdentityProviders(for: [sp]),
            users: [
                World.User(name: "u", password: "p", mvpdID: "X"), World.User(name: "o", password: "q", mvpdID: "O"),
            ],
            requestors: requestors.map { World.Requestor(id: $0) })
        world.restV2.oauth2MVPDs = ["O"]
        world.restV2.throttling = false
        return world
    }

    static let deviceHeaders: HTTPHeaders = [
        ("AP-Device-Identifier", "fingerprint ZGV2aWNlLTE="),
        (
            "X-Device-Info",
            Data(
                #"{"model":"Box","version":"1.0","osName":"Linux","osVersion":"6.1","connectionType":"LAN","primaryHardwareType":"SetTopBox"}"#
                    .utf8
            ).base64EncodedString()
        ),
    ]

    static func session(at origin: String, requestor: String = "R", mvpd: String) -> HTTPRequest {
        var headers = deviceHeaders
        headers.add("Content-Type", "application/x-www-form-urlencoded")
        let body = FormCoding.encode([("mvpd", mvpd), ("domainName", "app.test"), ("redirectUrl", done)])
        return HTTPRequest(
            method: "POST", url: origin + "/api/v2/\(requestor)/sessions", headers: headers, body: Array(body.utf8))
    }

    static func poll(at origin: String, code: String, requestor: String = "R") -> HTTPRequest {
        HTTPRequest(method: "GET", url: origin + "/api/v2/\(requestor)/profiles/code/\(code)", headers: deviceHeaders)
    }

    static func field(_ response: HTTPResponse, _ name: String) -> String? {
        (try? Value(jsonText: response.bodyText))?[name]?.stringValue
    }

    static func profiles(_ response: HTTPResponse) -> [String] {
        guard case .dict(let found)? = (try? Value(jsonText: response.bodyText))?["profiles"] else { return [] }
        return found.map(\.key)
    }

    // MARK: - The walk, on an in-process mock

    /// The mock answers every load of a host of the world; any other URL is where the browser leaves.
    struct InProcess {
        var mock = MockPass(world: HeadlessLoginTests.world(), seed: 7)
        let now = Instant.simulationStart

        mutating func send(_ request: HTTPRequest) -> HTTPResponse { mock.handle(request, at: now) }

        mutating func code(mvpd: String) throws -> String {
            let answer = send(HeadlessLoginTests.session(at: "https://sp.test", mvpd: mvpd))
            return try #require(HeadlessLoginTests.field(answer, "code"), "\(answer.bodyText)")
        }

        mutating func login(code: String, user: String, password: String) -> HeadlessLogin.Outcome {
            let url = "https://sp.test" + V2Route.authenticate(serviceProvider: "R", code: code).path
            return HeadlessLogin.run(url: url, user: user, password: password) { request in
                mock.host(for: request.url) == nil ? nil : .response(mock.handle(request, at: now))
            }
        }
    }

    @Test func aSAMLLoginEndsAtTheRedirectAndThePollFindsTheProfile() throws {
        var run = InProcess()
        let code = try run.code(mvpd: "X")
        #expect(HeadlessLoginTests.profiles(run.send(Self.poll(at: "https://sp.test", code: code))) == [])
        #expect(run.login(code: code, user: "u", password: "p") == .left(at: Self.done))
        #expect(HeadlessLoginTests.profiles(run.send(Self.poll(at: "https://sp.test", code: code))) == ["X"])
        // The pages went the way a browser's do: the SP's hop, the IdP's page, the assertion back.
        let paths = run.mock.log.map { "\($0.method) \($0.path)" }
        #expect(paths.contains("GET /api/v2/authenticate/R/\(code)"))
        #expect(paths.contains { $0.hasPrefix("POST ") && $0.contains("SAMLAssertionConsumer") })
    }

    @Test func anOAuth2LoginWithPKCEEndsAtTheRedirect() throws {
        var run = InProcess()
        let code = try run.code(mvpd: "O")
        #expect(run.login(code: code, user: "o", password: "q") == .left(at: Self.done))
        #expect(HeadlessLoginTests.profiles(run.send(Self.poll(at: "https://sp.test", code: code))) == ["O"])
    }

    @Test func aWrongPasswordStopsAtTheLoginPageWithItsMessage() throws {
        var run = InProcess()
        let code = try run.code(mvpd: "X")
        let outcome = run.login(code: code, user: "u", password: "wrong")
        guard case .stopped(_, _, let message) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(message == "Invalid user name or password.")
        guard case .refused(403, let reason) = RunningServer.outcome(outcome) else {
            Issue.record("\(RunningServer.outcome(outcome))")
            return
        }
        #expect(reason.contains("\"Invalid user name or password.\""))
        #expect(HeadlessLoginTests.profiles(run.send(Self.poll(at: "https://sp.test", code: code))) == [])
    }

    @Test func anUnknownCodeIsRefusedWithTheAPIsError() throws {
        var run = InProcess()
        let outcome = run.login(code: "NOSUCHCODE", user: "u", password: "p")
        guard case .refused(_, let status, let body) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(status == 400)
        #expect(body.contains("invalid_parameter_code"))
        guard case .refused(404, let reason) = RunningServer.outcome(outcome) else {
            Issue.record("\(RunningServer.outcome(outcome))")
            return
        }
        #expect(reason.contains("invalid_parameter_code"))
    }

    @Test func aSecondLoginForTheSameCodeIsAConflict() throws {
        var run = InProcess()
        let code = try run.code(mvpd: "X")
        #expect(run.login(code: code, user: "u", password: "p") == .left(at: Self.done))
        let again = RunningServer.outcome(run.login(code: code, user: "u", password: "p"))
        guard case .refused(409, let reason) = again else {
            Issue.record("\(again)")
            return
        }
        #expect(reason.contains("invalid_authentication_session"))
    }

    // MARK: - POST /admin/login on a running server

    /// A server on loopback with the login browser, every host without latency.
    func withServer(world: World = HeadlessLoginTests.world(), _ body: (MockPassServer) throws -> Void) async throws {
        var conditions: [LoggedRequest.Host: HostConditions] = [:]
        for sp in world.serviceProviders { conditions[.sp(sp.name)] = HostConditions(latency: .zero) }
        for idp in world.identityProviders { conditions[.idp(idp.mvpdID)] = HostConditions(latency: .zero) }
        var options = MockPassServer.Options(seed: 7, conditions: conditions)
        options.login = RunningServer.login
        let server = try await MockPassServer.start(world: world, options: options)
        do {
            try body(server)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    /// The TV: its HTTP client on the server's SP, which makes sessions and polls their codes.
    struct Device {
        let curl: CurlTransport
        let origin: String

        init(_ server: MockPassServer) throws {
            curl = try CurlTransport()
            let live = try #require(server.hosts.first { $0.host == .sp("main") }?.liveURL)
            origin = try #require(URLParts(live)?.origin)
        }

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            try #require(curl.perform(request, timeout: .seconds(10)).response)
        }

        /// A new session's answer.
        func session(requestor: String = "R", mvpd: String) throws -> HTTPResponse {
            try send(HeadlessLoginTests.session(at: origin, requestor: requestor, mvpd: mvpd))
        }

        /// A new session's code.
        func code(requestor: String = "R", mvpd: String) throws -> String {
            let answer = try session(requestor: requestor, mvpd: mvpd)
            return try #require(HeadlessLoginTests.field(answer, "code"), "\(answer.bodyText)")
        }

        /// The MVPDs of the profiles a poll of `code` finds.
        func poll(_ code: String) throws -> [String] {
            HeadlessLoginTests.profiles(try send(HeadlessLoginTests.poll(at: origin, code: code)))
        }
    }

    static func login(_ server: MockPassServer, _ fields: [(String, String)], token: String? = nil) throws
        -> RemoteLogin.Answer
    {
        try RemoteLogin.perform(adminURL: server.adminURL, token: token ?? server.adminToken, fields: fields)
    }

    @Test func theAdminCallLogsAUserInAndTheNextPollFindsTheProfile() async throws {
        try await withServer { server in
            let tv = try Device(server)
            let code = try tv.code(mvpd: "X")
            #expect(try tv.poll(code) == [])
            let answer = try Self.login(server, [("code", code), ("user", "u")])
            #expect(answer.status == 200, "\(answer.text)")
            let json = try Value(jsonText: answer.text)
            #expect(json["user"]?.stringValue == "u" && json["mvpd"]?.stringValue == "X")
            #expect(json["requestor"]?.stringValue == "R" && json["code"]?.stringValue == code)
            #expect(json["at"]?.stringValue == Self.done)
            #expect(try tv.poll(code) == ["X"])
            // The login's pages are in the log, as a browser's are.
            #expect(server.requestLog().contains { $0.path == "/api/v2/authenticate/R/\(code)" })
        }
    }

    @Test func theSessionAnswersUrlServesAsWellForOAuth2() async throws {
        try await withServer { server in
            let tv = try Device(server)
            let created = try tv.session(mvpd: "O")
            let url = try #require(Self.field(created, "url"), "\(created.bodyText)")
            #expect(url.hasPrefix("/api/v2/authenticate/R/"))
            let answer = try Self.login(server, [("url", url), ("user", "o")])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try tv.poll(String(url.split(separator: "/").last ?? "")) == ["O"])
        }
    }

    @Test func badCallsAre4xxWithAMessageAndTheServerKeepsServing() async throws {
        try await withServer { server in
            let tv = try Device(server)
            let code = try tv.code(mvpd: "X")
            let cases: [([(String, String)], Int, String)] = [
                ([("code", "NOSUCHCODE"), ("user", "u")], 404, "invalid_parameter_code"),
                ([("code", code), ("user", "nobody")], 404, "no user nobody in this world (its users: u, o)"),
                ([("code", code), ("user", "u"), ("password", "wrong")], 403, "Invalid user name or password."),
                ([("code", code), ("user", "u"), ("requestor", "ZZ")], 404, "no requestor ZZ in this world"),
                ([("code", code), ("user", "u"), ("sp", "nope")], 404, "no SP nope in this world"),
                ([("user", "u")], 400, "expected {\"code\":\"CODE\",\"user\":\"NAME\"}"),
                ([("code", code)], 400, "expected {\"code\":\"CODE\",\"user\":\"NAME\"}"),
                ([("url", "/api/v2/R/configuration"), ("user", "u")], 400, "url must be a session's"),
                ([("code", code), ("user", "u"), ("color", "red")], 400, "unknown parameter color"),
                ([("code", String(repeating: "C", count: 300)), ("user", "u")], 400, "code is over 256 bytes"),
            ]
            for (fields, status, text) in cases {
                let answer = try Self.login(server, fields)
                #expect(answer.status == status, "\(fields): \(answer.text)")
                #expect(answer.text.contains(text), "\(fields): \(answer.text)")
            }
            // No admin token, or another one: refused before anything is looked at.
            let anonymous = try RemoteLogin.perform(
                adminURL: server.adminURL, token: nil, fields: [("code", code), ("user", "u")])
            #expect(anonymous.status == 401)
            #expect(try Self.login(server, [("code", code), ("user", "u")], token: "wrong").status == 401)
            // A GET is not a login.
            let get = try tv.send(
                HTTPRequest(
                    method: "GET", url: AdminRoute.login.url(server.adminURL),
                    headers: [("Authorization", "Bearer " + server.adminToken)]))
            #expect(get.status == 405)
            // The session is untouched by the refusals: the user still logs in with it.
            #expect(try Self.login(server, [("code", code), ("user", "u")]).status == 200)
            #expect(try tv.poll(code) == ["X"])
        }
    }

    @Test func anIdPThatIsDownIsA502AndTheLoginWorksOnceItIsUp() async throws {
        try await withServer { server in
            let tv = try Device(server)
            let code = try tv.code(mvpd: "X")
            try server.applyAndWait(.mode(.down), to: .idp("X"))
            let down = try Self.login(server, [("code", code), ("user", "u")])
            #expect(down.status == 502, "\(down.text)")
            #expect(down.text.contains("u could not log in for code \(code)"), "\(down.text)")
            try server.applyAndWait(.mode(.up), to: .idp("X"))
            let up = try Self.login(server, [("code", code), ("user", "u")])
            #expect(up.status == 200, "\(up.text)")
        }
    }

    @Test func withSeveralRequestorsTheLogNamesTheSessionsOne() async throws {
        try await withServer(world: Self.world(requestors: ["R", "S"])) { server in
            let tv = try Device(server)
            let before = try Self.login(server, [("code", "ANY"), ("user", "u")])
            #expect(before.status == 400)
            #expect(
                before.text.contains("give \"requestor\", the session's {serviceProvider}: no session was created yet"))
            let code = try tv.code(requestor: "S", mvpd: "X")
            let answer = try Self.login(server, [("code", code), ("user", "u")])
            #expect(answer.status == 200, "\(answer.text)")
            #expect((try Value(jsonText: answer.text))["requestor"]?.stringValue == "S")
        }
    }

    @Test func aServerWithoutTheBrowserSaysSo() async throws {
        let world = Self.world()
        let server = try await MockPassServer.start(world: world, options: MockPassServer.Options(seed: 7))
        let answer = Result { try Self.login(server, [("code", "C"), ("user", "u")]) }
        try await server.shutdown()
        #expect(try answer.get().status == 404)
        #expect(try answer.get().text.contains("without a login browser"))
    }
}

extension HTTPResult {
    fileprivate var response: HTTPResponse? {
        if case .response(let r) = self { return r }
        return nil
    }
}
