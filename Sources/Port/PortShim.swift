import Entitlement
import PassModel

/// passim's own engine behind the driver protocol (`passim shim`): what a port does, done by the
/// reference engine, so the protocol itself is tested by running the whole suite through it, on
/// either network. One `handle` per input line; it gives the output lines, ending with `idle` (or `ready`).
public final class PortShim {
    /// Sends one request over real HTTP, waiting at most the timeout (the CLI gives libcurl's).
    public typealias Fetch = (HTTPRequest, Millis) -> HTTPResult

    private var configuration = EngineConfiguration()
    private var engines: [String: Engine] = [:]
    /// The device's shared store: all apps of a scenario live in this one process (docs/PORTING.md).
    private var sharedStore: SharedAuthentication?
    private var greeted = false
    private let fetch: Fetch?
    /// The live network of this run (docs/PORTING.md, "Live network"); nil on the harness network.
    private var live: (hosts: [String: String], timeout: Millis)?
    /// Live network: the cookies of the message being handled, by host.
    private var cookies: [String: String] = [:]
    /// Live network: what each request got, per app and request id, until the harness delivers it.
    private var answers: [String: [Int: HTTPResult]] = [:]

    /// `fetch` nil: the harness network only (a live `hello` is answered with `unimplemented`).
    public init(fetch: Fetch? = nil) {
        self.fetch = fetch
    }

    public func handle(_ line: String) -> [String] {
        var lines: [String] = []
        handle(line) { lines.append($0) }
        return lines
    }

    /// Each output line as soon as it is known: on the live network a `fetched` line is written as
    /// its fetch ends, so the harness's wait for a line covers one fetch, not all of an input's.
    public func handle(_ line: String, emit: (String) -> Void) {
        do {
            for out in try answer(line, emit: emit) { emit(out) }
        } catch {
            emit(PortMessage.line("error", [("message", .string(error.message))]))
        }
    }

    /// Emits the lines of the input's actions; returns the closing line (`idle`, `ready`, `unimplemented`).
    private func answer(_ line: String, emit: (String) -> Void) throws(PortError) -> [String] {
        let message: Value
        do {
            message = try Value(jsonText: line)
        } catch {
            throw PortError("not JSON: \(error.message)")
        }
        let f = Fields(message, context: "message")
        let type = try f.string("type")
        let now = Instant(milliseconds: Int64(try f.int("now")))
        if type == "hello" {
            let version = try f.int("protocol")
            guard version == PortMessage.version else { throw PortError("passim shim speaks protocol \(PortMessage.version), not \(version)") }
            configuration = try PortShim.configuration(f)
            // Every hello is a new world (protocol 1.1): nothing of the previous scenario survives it.
            engines = [:]
            sharedStore = nil
            answers = [:]
            cookies = [:]
            live = nil
            greeted = false
            if try f.optionalString("network") == "live" {
                guard fetch != nil else { return [PortMessage.line("unimplemented", [("what", .string("network live"))])] }
                live = (try PortShim.hosts(f), Millis(Int64(try f.int("fetchTimeout"))))
            }
            greeted = true
            return [PortMessage.line("ready", [("protocol", .int(PortMessage.version)), ("implementation", .string("passim shim")),
                                               (PortMessage.resetField, .bool(true))])]
        }
        guard greeted else { throw PortError("hello must come first") }
        let app = try f.string("app")
        if live != nil { cookies = try PortShim.cookies(f) }
        var engine = engines[app] ?? Engine(configuration: configuration)
        let actions: [EngineAction]
        switch type {
        case "call":
            guard let args = f.value("args") else { throw PortError("call: args missing") }
            let call = try PortCodec.call(named: try f.string("call"), args)
            actions = engine.step(.call(call, sharedStore: sharedStore), at: now)
        case "response":
            let outcome = try f.outcome()
            actions = engine.step(.response(RequestID(try f.int("id")), outcome), at: now)
        case "deliver":
            let id = try f.int("id")
            guard let answer = answers[app]?.removeValue(forKey: id) else { throw PortError("deliver: no request \(id) of \(app) was fetched") }
            actions = engine.step(.response(RequestID(id), answer), at: now)
        case "timer":
            actions = engine.step(.timer(TimerID(try f.int("id"))), at: now)
        case "picker":
            actions = engine.step(.picker(try PortShim.outcome(f.value("outcome"))), at: now)
        default:
            throw PortError("unknown message type \(type)")
        }
        engines[app] = engine
        for action in actions {
            if let out = output(action, app: app) { emit(out) }
        }
        return [PortMessage.line("idle", [])]
    }

    private func output(_ action: EngineAction, app: String) -> String? {
        let a = ("app", Value.string(app))
        switch action {
        case .deliver(let callback):
            return PortMessage.line("callback", [a, ("callback", .string(callback.name)), ("args", .list(PortCodec.arguments(of: callback)))])
        case .send(let id, let request):
            if let live, let fetch {
                let answer = send(request, on: live, with: fetch)
                answers[app, default: [:]][id.value] = answer
                return PortMessage.line("fetched", [a, ("id", .int(id.value)), ("method", .string(request.method)), ("url", .string(request.url))]
                                        + PortMessage.outcome(answer, statusOnly: true))
            }
            return PortMessage.line("request", [a, ("id", .int(id.value)), ("method", .string(request.method)), ("url", .string(request.url)),
                                                ("headers", PortMessage.headers(request.headers)), ("body", PortMessage.body(request.body))])
        case .presentBrowser(let url):
            return PortMessage.line("present", [a, ("url", .string(url))])
        case .startTimer(let id, let at):
            return PortMessage.line("timer", [a, ("id", .int(id.value)), ("at", .int(Int(at.milliseconds)))])
        case .cancelTimer(let id):
            return PortMessage.line("cancel-timer", [a, ("id", .int(id.value))])
        case .writeSharedStore(let shared):
            sharedStore = shared
            return nil
        }
    }

    static func configuration(_ f: Fields) throws(PortError) -> EngineConfiguration {
        var c = EngineConfiguration()
        if let p = try f.optionalString("platform") {
            guard let platform = Platform(rawValue: p) else { throw PortError("hello: unknown platform \(p)") }
            c.platform = platform
        }
        if let d = try f.optionalString("device") {
            guard let device = DeviceType(rawValue: d) else { throw PortError("hello: unknown device \(d)") }
            c.deviceType = device
        }
        if let sp = try f.optionalString("defaultServiceProvider") { c.defaultServiceProvider = sp }
        if let scheme = try f.optionalString("svcScheme") { c.svcScheme = scheme }
        if let id = try f.optionalString("deviceID") { c.deviceID = id }
        if let version = try f.optionalString("clientVersion") { c.clientVersion = version }
        if f.optional("requestTimeout") != nil { c.requestTimeout = Millis(Int64(try f.int("requestTimeout"))) }
        return c
    }

    /// The request to its host's loopback listener, with the device's cookies for that host, as
    /// docs/PORTING.md asks of a port on the live network.
    private func send(_ request: HTTPRequest, on live: (hosts: [String: String], timeout: Millis), with fetch: Fetch) -> HTTPResult {
        guard let parts = URLParts(request.url), let connect = live.hosts[parts.origin],
              var sent = request.connecting(to: connect) else {
            return .failure("could not resolve host")
        }
        if let cookie = cookies[parts.authority] { sent.headers.add("Cookie", cookie) }
        return fetch(sent, live.timeout)
    }

    static func hosts(_ f: Fields) throws(PortError) -> [String: String] {
        guard case .dict(let entries)? = f.value("hosts") else { throw PortError("hello: hosts must be an object") }
        var hosts: [String: String] = [:]
        for entry in entries {
            guard let connect = entry.value.stringValue else { throw PortError("hello: hosts[\(entry.key)] must be a string") }
            hosts[entry.key] = connect
        }
        return hosts
    }

    static func cookies(_ f: Fields) throws(PortError) -> [String: String] {
        guard let value = f.optional("cookies") else { return [:] }
        guard case .dict(let entries) = value else { throw PortError("\(f.context): cookies must be an object") }
        var cookies: [String: String] = [:]
        for entry in entries {
            guard let header = entry.value.stringValue else { throw PortError("\(f.context): cookies[\(entry.key)] must be a string") }
            cookies[entry.key] = header
        }
        return cookies
    }

    static func outcome(_ v: Value?) throws(PortError) -> PickerOutcome {
        if v == .string("other") { return .otherProvider }
        if v == .string("cancelled") { return .cancelled }
        if let id = v?["picked"]?.stringValue { return .picked(mvpdID: id, appleToken: v?["appleToken"]?.stringValue) }
        throw PortError("picker: outcome must be \"other\", \"cancelled\" or {\"picked\": MVPD, \"appleToken\": …}")
    }

}
