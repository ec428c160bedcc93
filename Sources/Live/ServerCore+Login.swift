import Dispatch
import MockPass
import NIOCore
import PassModel

/// `POST /admin/login`: a user logs in for a REST API v2 session's code, as a scenario's `user
/// authenticate $CODE as "NAME"` does, without a browser of the client's own (docs/SERVE.md, "Log a
/// user in"). The walk is `Options.login`'s (Live has no browser); this side resolves what to open
/// and serves every page load in-process, through the same path a request on a host's port takes
/// (`answer`: the host's conditions, the mock, the log), so the log shows the login as a browser's.
///
/// Fields: `user` (a user of the world), and `code` (the session's code) or `url` (the session
/// answer's `url`, `/api/v2/authenticate/{serviceProvider}/{code}`, relative to the SP or absolute);
/// optional `password` (default: the user's own), `requestor` (the session's `{serviceProvider}`;
/// default: the world's only programmer, else the only one whose `POST …/sessions` the log holds) and
/// `sp` (an SP's name; default: the first SP offering the user's MVPD).
extension ServerCore {
    /// What `POST /admin/login` opens, and as whom.
    struct LoginTarget: Equatable {
        var url: String
        var user: String
        var password: String
        var mvpd: String
        var requestor: String
        var code: String
    }

    /// Why a login cannot start: the answer's status and text.
    struct LoginRefusal: Error, Equatable {
        var status: Int
        var reason: String
    }

    static let loginFields: Set<String> = ["code", "url", "user", "password", "requestor", "sp"]
    static let loginUsage =
        #"expected {"code":"CODE","user":"NAME"} (optional: "password", "requestor", "sp"), or "url" (the session answer's url) in place of "code""#
    /// A code or name longer than this is no session's (the mock's codes are short).
    static let loginValueBytes = 256

    /// One login at a time, on a thread of its own: the walk waits for each page's answer, which a
    /// large SAML post prepares on NIO's thread pool (`answer`), so the walk must not hold one of
    /// its threads.
    static let loginQueue = DispatchQueue(label: "passim.admin.login")

    func adminLogin(_ parameters: [String: String], on loop: any EventLoop) -> EventLoopFuture<HTTPResponse?> {
        let text = ServerCore.loginRefusal
        guard let driver = login else {
            return loop.makeSucceededFuture(text(404, "this server was started without a login browser"))
        }
        let resolved = state.withLockedValue { s -> Result<LoginTarget, LoginRefusal> in
            guard let mock = s.mock else { return .failure(LoginRefusal(status: 503, reason: "starting")) }
            return ServerCore.loginTarget(
                parameters, world: mock.world, served: { mock.host(for: $0) != nil },
                sessionRequestors: { ServerCore.sessionRequestors(mock.log) })
        }
        let target: LoginTarget
        switch resolved {
        case .success(let t): target = t
        case .failure(let refusal): return loop.makeSucceededFuture(text(refusal.status, refusal.reason))
        }
        let promise = loop.makePromise(of: HTTPResponse?.self)
        ServerCore.loginQueue.async { [self] in
            let outcome = driver(target.url, target.user, target.password) { request in fetchInProcess(request) }
            switch outcome {
            case .completed(let at):
                let answer = Value.dict([
                    Value.Entry("user", .string(target.user)), Value.Entry("mvpd", .string(target.mvpd)),
                    Value.Entry("requestor", .string(target.requestor)), Value.Entry("code", .string(target.code)),
                    Value.Entry("url", .string(target.url)), Value.Entry("at", .string(at)),
                ])
                promise.succeed(
                    HTTPResponse(status: 200, contentType: "application/json", text: answer.jsonText + "\n"))
            case .refused(let status, let reason):
                promise.succeed(
                    text(status, "\(target.user) could not log in for code \(ServerCore.shown(target.code)): \(reason)")
                )
            }
        }
        return promise.futureResult
    }

    /// A page load of the login walk, answered as a request on its host's port would be (nil: the
    /// URL is on no host of this server, where the browser leaves them).
    func fetchInProcess(_ request: HTTPRequest) -> HTTPResult? {
        let found = state.withLockedValue { s -> (LoggedRequest.Host, Binding)? in
            guard let host = s.mock?.host(for: request.url), let binding = s.bindings[host] else { return nil }
            return (host, binding)
        }
        guard let (host, binding) = found else { return nil }
        let answered = answer(request, host: host, basePath: binding.basePath, from: nil, on: group.next())
        switch Result(catching: { try answered.wait() }) {
        case .success(let response?): return .response(response)
        case .success(nil): return .failure("\(host) did not answer (down or silent)")
        case .failure(let error): return .failure("\(host): \(error)")
        }
    }

    /// The page to open and the user, from the call's fields and the world served.
    static func loginTarget(
        _ p: [String: String], world: World, served: (String) -> Bool, sessionRequestors: () -> [String]
    ) -> Result<LoginTarget, LoginRefusal> {
        func refuse(_ status: Int, _ reason: String) -> Result<LoginTarget, LoginRefusal> {
            .failure(LoginRefusal(status: status, reason: reason))
        }
        func listed(_ names: [String]) -> String {
            names.isEmpty
                ? "none" : names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
        }
        if let long = p.first(where: { $0.value.utf8.count > loginValueBytes }) {
            return refuse(400, "\(long.key) is over \(loginValueBytes) bytes")
        }
        guard let userName = p["user"], !userName.isEmpty, (p["code"] == nil) != (p["url"] == nil) else {
            return refuse(400, loginUsage)
        }
        guard let user = world.users.first(where: { $0.name == userName }) else {
            return refuse(
                404, "no user \(shown(userName)) in this world (its users: \(listed(world.users.map(\.name))))")
        }
        // The session: its programmer and code, from the url or the fields.
        let requestor: String, code: String, absolute: String?, path: String?
        if let given = p["url"] {
            let relative = given.hasPrefix("/")
            guard let parts = URLParts(relative ? "http://sp" + given : given),
                case .authenticate(let r, let c)? = V2Route(method: "GET", path: parts.path), !c.isEmpty
            else {
                return refuse(
                    400, "url must be a session's /api/v2/authenticate/{serviceProvider}/{code}, not \(shown(given))")
            }
            guard relative || served(given) else {
                return refuse(400, "url \(shown(given)) is on no host of this server")
            }
            requestor = r
            code = c
            path = relative ? parts.path : nil
            absolute = relative ? nil : given
        } else {
            guard let given = p["code"], !given.isEmpty else { return refuse(400, loginUsage) }
            code = given
            path = nil
            absolute = nil
            if let given = p["requestor"] {
                requestor = given
            } else if world.requestors.count == 1 {
                requestor = world.requestors[0].id
            } else {
                let seen = sessionRequestors()
                guard seen.count == 1 else {
                    return refuse(
                        400,
                        "give \"requestor\", the session's {serviceProvider}: "
                            + (seen.isEmpty
                                ? "no session was created yet" : "sessions were created for \(listed(seen))"))
                }
                requestor = seen[0]
            }
        }
        guard let known = world.requestor(requestor) else {
            return refuse(
                404,
                "no requestor \(shown(requestor)) in this world (its requestors: \(listed(world.requestors.map(\.id))))"
            )
        }
        // The SP: named, else the first that knows the programmer and offers the user's MVPD.
        let sp: World.ServiceProvider
        if let name = p["sp"] {
            guard let found = world.serviceProviders.first(where: { $0.name == name }) else {
                return refuse(
                    404, "no SP \(shown(name)) in this world (its SPs: \(listed(world.serviceProviders.map(\.name))))")
            }
            sp = found
        } else {
            let at = world.serviceProviders.filter { known.isAt($0) }
            guard let found = at.first(where: { $0.mvpds.contains { $0.id == user.mvpdID } }) ?? at.first else {
                return refuse(404, "no SP of this world knows the requestor \(shown(requestor))")
            }
            sp = found
        }
        let url =
            absolute ?? V2Route.origin(ofSP: sp.url)
            + (path ?? V2Route.authenticate(serviceProvider: requestor, code: code).path)
        return .success(
            LoginTarget(
                url: url, user: user.name, password: p["password"] ?? user.password, mvpd: user.mvpdID,
                requestor: requestor, code: code))
    }

    /// The programmers the log shows REST API v2 sessions created for (`POST /api/v2/{REQ}/sessions`),
    /// each once, in the order first seen.
    static func sessionRequestors(_ log: [LoggedRequest]) -> [String] {
        var out: [String] = []
        for entry in log {
            guard case .createSession(let r)? = V2Route(method: entry.method, path: entry.path), !out.contains(r)
            else { continue }
            out.append(r)
        }
        return out
    }

    /// A refusal's answer: `STATUS PHRASE: why`, as the other admin refusals.
    @Sendable static func loginRefusal(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: ServerCore.text, text: "\(status) \(reasonPhrase(status)): \(message)\n")
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}
