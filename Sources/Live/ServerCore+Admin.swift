import MockPass
import NIOCore
import NIOPosix
import PassModel

/// The admin endpoint (its own port): drives the clock and the network the way a scenario's
/// `clock` and `net` steps do, and shows the request log and the URL mapping.
///
/// Every request passes `AdminGate` first (token, Host, Origin); a POST's parameters are the fields
/// of its JSON body (`parameters`), strings or integers.
///
/// - `GET /admin/clock`: the current time; `POST /admin/clock` `{"advance":"30s"}`: shift it, answer the new time.
///   Time is written `MILLISECONDS TOKEN-DATE`, e.g. `1767225630000 2026/01/01 00:00:30 GMT +0000`.
/// - `POST /admin/net` `{"host":"sp:NAME|idp:ID"}` and one of `"mode":"up|down|silent"`, `"latency":"250ms"`,
///   `"fail":N` (with `"status":S`, default 503, `"path":"REGEX"`, and `"body":"TEXT"`: that answer
///   in the mock's place, JSON when it opens with `{` or `[`).
/// - `GET /admin/log[?after=N][&limit=M]`: the mock's request log, one JSON object a line: up to M
///   (default 1000, at most 10,000) entries after sequence number N (0: from the oldest kept); the
///   `X-Passim-Next-After` header gives the N of the next page (the last sequence number given).
///   Every request to a host is there, those an injected failure answered too, with `"fault":"injected
///   failure S"` (the field is absent on a request the mock answered).
/// - `GET /admin/lint[?format=json]`: with `passim serve --lint`, the client rules judged on the request
///   log so far (`passim lint`'s report), on a thread pool; 503 if the server shuts down meanwhile;
///   404 without `--lint`.
/// - `GET /admin/hosts`: each host with its original and live URL and its conditions, one JSON object a line.
/// - `GET /admin/stores`: how full each of the mock's bounded stores is (`MockPass.storeOccupancy`), one
///   JSON object a line: a soak reads when its stores have filled.
/// - `POST /admin/clock` `{"hold":MILLISECONDS}`: stop the clock at that instant (the live runtime of
///   `passim run --live --server` holds it at each request's virtual instant).
/// - `POST /admin/world` `{"world":"a world file's text","urls":"live|as-written"}`: serve that world
///   instead (new listeners, a fresh mock and log); answers its hosts as `GET /admin/hosts` does.
/// - `POST /admin/login` `{"code":"CODE","user":"NAME"}`: that user logs in for the REST API v2
///   session's code as a scenario's `user authenticate` does (`ServerCore+Login`); answers where the
///   browser ended, as JSON, or a 4xx that says why.
extension ServerCore {
    static let text = "text/plain; charset=utf-8"
    static let jsonLines = "application/x-ndjson"
    /// Instants the admin may set: token dates are written with four-digit years.
    static let clockRange: ClosedRange<Int64> = 0...253_402_300_799_999

    func adminAnswer(_ request: HTTPRequest, parameters: [String: String], on loop: any EventLoop) -> EventLoopFuture<
        HTTPResponse?
    > {
        let path = URLParts(request.url)?.path ?? ""
        func plain(_ status: Int, _ text: String, headers: HTTPHeaders = []) -> EventLoopFuture<HTTPResponse?> {
            loop.makeSucceededFuture(
                HTTPResponse(status: status, contentType: ServerCore.text, text: text, headers: headers))
        }
        func only(_ methods: [String], keys: Set<String> = []) -> EventLoopFuture<HTTPResponse?>? {
            guard methods.contains(request.method) else {
                let allowed = methods.joined(separator: ", ")
                return plain(405, "405 Method Not Allowed: use \(allowed)\n", headers: [("Allow", allowed)])
            }
            if let unknown = parameters.keys.sorted().first(where: { !keys.contains($0) }) {
                return plain(
                    400,
                    "400 Bad Request: unknown parameter \(unknown) (\(path) takes \(keys.sorted().joined(separator: ", ")))\n"
                )
            }
            return nil
        }
        switch AdminRoute(path: path) {
        case .clock:
            if let refusal = only(["GET", "POST"], keys: ["advance", "hold"]) { return refusal }
            if request.method == "GET" { return plain(200, ServerCore.timeText(clock.now())) }
            if let text = parameters["hold"] {
                guard let ms = Int64(text), ServerCore.clockRange.contains(ms) else {
                    return plain(
                        400,
                        "400 Bad Request: hold takes milliseconds since the epoch, up to the end of year 9999 (\(ServerCore.clockRange.upperBound))\n"
                    )
                }
                clock.hold(at: Instant(milliseconds: ms))
                return plain(200, ServerCore.timeText(clock.now()))
            }
            guard let text = parameters["advance"], let span = ServerCore.signedMillis(text) else {
                return plain(
                    400,
                    "400 Bad Request: expected {\"advance\":\"DURATION\"} (250ms, 30s, 5m, 2h, 1d; - to go back) or {\"hold\":MILLISECONDS}\n"
                )
            }
            // Checked before moving: past the range, `now + TTL` in the mock would overflow and trap.
            let (moved, overflow) = clock.now().milliseconds.addingReportingOverflow(span.value)
            guard !overflow, ServerCore.clockRange.contains(moved) else {
                return plain(400, "400 Bad Request: the clock must stay between 1970 and the end of year 9999\n")
            }
            return plain(200, ServerCore.timeText(clock.advance(by: span)))
        case .net:
            if let refusal = only(["POST"], keys: ["host", "mode", "latency", "fail", "status", "path", "body"]) {
                return refusal
            }
            let parsed: (LoggedRequest.Host, NetCommand)
            switch ServerCore.netCommand(parameters) {
            case .success(let p): parsed = p
            case .failure(let error): return plain(400, "400 Bad Request: \(error.message)\n")
            }
            return apply(parsed.1, to: parsed.0).map { _ -> HTTPResponse? in
                HTTPResponse(status: 200, contentType: ServerCore.text, text: "ok\n")
            }.flatMapErrorThrowing { error in
                HTTPResponse(status: 400, contentType: ServerCore.text, text: "400 Bad Request: \(error)\n")
            }
        case .log:
            if let refusal = only(["GET"]) { return refusal }
            let query = URLParts(request.url)
            guard let after = Int(query?.parameter("after") ?? "0"), after >= 0,
                let limit = Int(query?.parameter("limit") ?? String(MockLimits.logPage)),
                (1...MockLimits.logPageMax).contains(limit)
            else {
                return plain(
                    400,
                    "400 Bad Request: after takes a sequence number (0 or more), limit 1 to \(MockLimits.logPageMax) (limit: mock-log-page-max)\n"
                )
            }
            let (entries, last) = state.withLockedValue { $0.mock?.logPage(after: after, limit: limit) ?? ([], after) }
            // Serialized outside the lock: a page can be megabytes of JSON.
            return loop.makeSucceededFuture(
                HTTPResponse(
                    status: 200, contentType: ServerCore.jsonLines, text: entries.map(\.jsonLine).joined(),
                    headers: [("X-Passim-Next-After", String(last))]))
        case .lint:
            if let refusal = only(["GET"]) { return refusal }
            guard let report = lintReport else {
                return plain(404, "404 Not Found: this server was started without --lint\n")
            }
            let asJSON = URLParts(request.url)?.parameter("format") == "json"
            let (log, dropped) = state.withLockedValue { ($0.mock?.log ?? [], $0.mock?.logDropped ?? 0) }
            // Judged outside the lock, like a log page, and off the event loop: judging 10,000
            // requests held every host served by this loop until it was done (and an exit after it).
            let stopping: @Sendable () -> Bool = { [state] in state.withLockedValue { $0.shuttingDown } }
            return NIOThreadPool.singleton.runIfActive(eventLoop: loop) { report(log, dropped, asJSON, stopping) }
                .map { text -> HTTPResponse? in
                    guard let text else {
                        return HTTPResponse(
                            status: 503, contentType: ServerCore.text,
                            text: "503 Service Unavailable: the server is shutting down\n")
                    }
                    return HTTPResponse(
                        status: 200, contentType: asJSON ? "application/json" : ServerCore.text, text: text)
                }
                .flatMapErrorThrowing { error in
                    HTTPResponse(status: 503, contentType: ServerCore.text, text: "503 Service Unavailable: \(error)\n")
                }
        case .hosts:
            if let refusal = only(["GET"]) { return refusal }
            let (mapping, conditions) = state.withLockedValue { ($0.mapping, $0.conditions) }
            let lines = mapping.hosts.map { JSONLine.host($0, conditions[$0.host] ?? HostConditions()) }
            return loop.makeSucceededFuture(
                HTTPResponse(status: 200, contentType: ServerCore.jsonLines, text: lines.joined()))
        case .stores:
            if let refusal = only(["GET"]) { return refusal }
            let stores = state.withLockedValue { $0.mock?.storeOccupancy ?? [] }
            return loop.makeSucceededFuture(
                HTTPResponse(status: 200, contentType: ServerCore.jsonLines, text: stores.map(JSONLine.store).joined()))
        case .world:
            if let refusal = only(["POST"], keys: ["world", "urls"]) { return refusal }
            guard let loader = worldLoader else {
                return plain(404, "404 Not Found: this server was started without a world loader\n")
            }
            let urls: MockPassServer.URLs
            switch parameters["urls"] {
            case nil, "live": urls = .live
            case "as-written": urls = .asWritten
            default: return plain(400, "400 Bad Request: urls must be live or as-written\n")
            }
            let loaded: MockPassServer.LoadedWorld
            guard let worldText = parameters["world"] else {
                return plain(400, "400 Bad Request: expected {\"world\":\"a world file's text\"}\n")
            }
            switch loader(worldText) {
            case .success(let l): loaded = l
            case .failure(let error): return plain(400, "400 Bad Request: \(error.message)\n")
            }
            let core = self
            return serve(world: loaded.world, seed: loaded.seed, conditions: loaded.conditions, urls: urls)
                .map { mapping -> HTTPResponse? in
                    let conditions = core.state.withLockedValue { $0.conditions }
                    let lines = mapping.hosts.map { JSONLine.host($0, conditions[$0.host] ?? HostConditions()) }
                    return HTTPResponse(status: 200, contentType: ServerCore.jsonLines, text: lines.joined())
                }.flatMapErrorThrowing { error in
                    HTTPResponse(
                        status: 500, contentType: ServerCore.text, text: "500 Internal Server Error: \(error)\n")
                }
        case .login:
            if let refusal = only(["POST"], keys: ServerCore.loginFields) { return refusal }
            return adminLogin(parameters, on: loop)
        case nil:
            return plain(
                404, "404 Not Found: admin paths are \(AdminRoute.allCases.map(\.path).joined(separator: ", "))\n")
        }
    }

    static func timeText(_ t: Instant) -> String { "\(t.milliseconds) \(t.tokenDate)\n" }

    /// A duration, optionally preceded by `-` (moving the clock back is allowed, for tests of skew).
    static func signedMillis(_ text: String) -> Millis? {
        if text.hasPrefix("-") { return Millis(text: String(text.dropFirst())).map { Millis(-$0.value) } }
        return Millis(text: text)
    }

    static func netCommand(_ r: [String: String]) -> Result<(LoggedRequest.Host, NetCommand), LiveError> {
        guard let hostText = r["host"] else { return .failure(LiveError("missing \"host\": sp:NAME or idp:ID")) }
        guard let host = LoggedRequest.Host(hostText) else {
            return .failure(LiveError("host must be sp:NAME or idp:ID, not \(hostText)"))
        }
        let given = ["mode", "latency", "fail"].filter { r[$0] != nil }
        guard given.count == 1 else { return .failure(LiveError("give exactly one of mode, latency or fail")) }
        if let text = r["mode"] {
            guard let mode = LinkMode(rawValue: text) else {
                return .failure(LiveError("mode must be up, down or silent"))
            }
            return .success((host, .mode(mode)))
        }
        if let text = r["latency"] {
            guard let latency = Millis(text: text) else {
                return .failure(LiveError("latency must be a duration like 250ms"))
            }
            return .success((host, .latency(latency)))
        }
        guard let count = r["fail"].flatMap({ Int($0) }), count >= 1 else {
            return .failure(LiveError("fail must be a count of at least 1"))
        }
        var status = 503
        if let text = r["status"] {
            guard let s = Int(text), InjectedStatus.range.contains(s) else {
                let range = InjectedStatus.range
                return .failure(
                    LiveError(
                        "status must be \(range.lowerBound)-\(range.upperBound) (a final answer: a 1xx would shift every pipelined answer after it)"
                    ))
            }
            status = s
        }
        let path = r["path"].flatMap { $0.isEmpty ? nil : $0 }
        if let path {
            do throws(PatternError) {
                _ = try LinearRegex(path)
            } catch {
                return .failure(
                    LiveError(
                        "path is not a valid pattern: \(error.message) at character \(error.offset + 1) of \(ServerCore.shown(path))"
                    ))
            }
        }
        let body = r["body"]
        if let body, body.utf8.count > 65_536 { return .failure(LiveError("body must be at most 64 KiB")) }
        return .success((host, .fail(InjectedFailure(remaining: count, pathPattern: path, status: status, body: body))))
    }
}
