import Entitlement
import PassModel

/// passim's own engine behind the driver protocol (`passim shim`): what a port does, done by the
/// reference engine, so the protocol itself is tested by running the whole suite through it, on
/// either network. One `handle` per input line; it gives the output lines, ending with `idle` (or `ready`).
public final class PortShim {
    /// Sends one request over real HTTP, waiting at most the timeout (the CLI gives libcurl's).
    public typealias Fetch = (HTTPRequest, Millis) -> HTTPResult

    private var configuration = EngineConfiguration()
    private var appWires: [String: EngineWire] = [:]
    private var engines: [String: Engine] = [:]
    /// The device's shared store: all apps of a scenario live in this one process (docs/PORTING.md).
    /// The device's shared store, one per wire (as the simulator's: nothing crosses from the SDK to v2).
    private var sharedStores: [EngineWire: SharedAuthentication] = [:]
    private var greeted = false
    private let fetch: Fetch?
    /// The live network of this run (docs/PORTING.md, "Live network"); nil on the harness network.
    private var live: (hosts: [String: String], timeout: Millis)?
    /// Live network: the cookies of the message being handled, by host.
    private var cookies: [String: String] = [:]
    /// Live network: what each request got, per app and request id, until the harness delivers it.
    private var answers: [String: [Int: HTTPResult]] = [:]

    /// The request timeout of a world whose `hello` says none (protocol 1.3): the engine's own
    /// default unless a test gives another, to stand for a port whose default is not the spec's.
    private let ownRequestTimeout: Millis?

    /// `fetch` nil: the harness network only (a live `hello` is answered with `unimplemented`).
    /// `requestTimeout`: the shim's own default timeout, for tests (nil: `EngineConfiguration`'s).
    public init(fetch: Fetch? = nil, requestTimeout: Millis? = nil) {
        self.fetch = fetch
        ownRequestTimeout = requestTimeout
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
            try answer(line) { emit($0.line) }
        } catch {
            emit(PortOutput.error(error.message).line)
        }
    }

    /// Emits what the input causes, ending with `idle` (or `ready`, `unimplemented` for a `hello`).
    private func answer(_ line: String, emit: (PortOutput) -> Void) throws(PortError) {
        let message = try HarnessMessage(line: line)
        let now = message.now
        if case .hello(let hello) = message.event {
            guard hello.protocolVersion == PortMessage.version else {
                throw PortError("passim shim speaks protocol \(PortMessage.version), not \(hello.protocolVersion)")
            }
            configuration = hello.configuration
            if hello.requestTimeout == nil, let own = ownRequestTimeout { configuration.requestTimeout = own }
            appWires = hello.appWires
            // Every hello is a new world (protocol 1.1): nothing of the previous scenario survives it.
            engines = [:]
            sharedStores = [:]
            answers = [:]
            cookies = [:]
            live = nil
            greeted = false
            if let network = hello.live {
                guard fetch != nil else { return emit(.unimplemented("network live")) }
                live = (network.hosts, network.fetchTimeout)
            }
            greeted = true
            return emit(.ready(protocol: PortMessage.version, implementation: "passim shim", reset: true))
        }
        guard greeted else { throw PortError("hello must come first") }
        let app = message.app
        if live != nil { cookies = message.cookies }
        var engine = engines[app] ?? Engine(configuration: configuration(forApp: app))
        let actions: [EngineAction]
        switch message.event {
        case .hello:
            return
        case .call(let call):
            actions = engine.step(.call(call, sharedStore: sharedStores[configuration(forApp: app).wire]), at: now)
        case .response(let id, let outcome):
            actions = engine.step(.response(id, outcome), at: now)
        case .deliver(let id):
            guard let answer = answers[app]?.removeValue(forKey: id.value) else {
                throw PortError("deliver: no request \(id.value) of \(app) was fetched")
            }
            actions = engine.step(.response(id, answer), at: now)
        case .timer(let id):
            actions = engine.step(.timer(id), at: now)
        case .picker(let outcome):
            actions = engine.step(.picker(outcome), at: now)
        }
        engines[app] = engine
        for action in actions {
            if let out = output(action, app: app) { emit(out) }
        }
        emit(.idle)
    }

    private func output(_ action: EngineAction, app: String) -> PortOutput? {
        switch action {
        case .deliver(let callback):
            return .callback(app: app, callback)
        case .send(let id, let request):
            if let live, let fetch {
                let answer = send(request, on: live, with: fetch)
                answers[app, default: [:]][id.value] = answer
                return .fetched(app: app, id: id.value, request, answer)
            }
            return .request(app: app, id: id.value, request)
        case .presentBrowser(let url):
            return .present(app: app, url: url)
        case .startTimer(let id, let at):
            return .timer(app: app, id: id.value, at: at)
        case .cancelTimer(let id):
            return .cancelTimer(app: app, id: id.value)
        case .writeSharedStore(let shared):
            sharedStores[configuration(forApp: app).wire] = shared
            return nil
        }
    }

    /// The request to its host's loopback listener, with the device's cookies for that host, as
    /// docs/PORTING.md asks of a port on the live network.
    private func send(_ request: HTTPRequest, on live: (hosts: [String: String], timeout: Millis), with fetch: Fetch)
        -> HTTPResult
    {
        guard let parts = URLParts(request.url), let connect = live.hosts[parts.origin],
            var sent = request.connecting(to: connect)
        else {
            return .failure("could not resolve host")
        }
        if let cookie = cookies[parts.authority] { sent.headers.add("Cookie", cookie) }
        return fetch(sent, live.timeout)
    }

    /// App `app`'s engine configuration: the hello's, on the app's own wire if it has one.
    private func configuration(forApp app: String) -> EngineConfiguration {
        var c = configuration
        if let wire = appWires[app] { c.wire = wire }
        return c
    }
}
