import Entitlement
import MockPass
import PassModel
import Port
import ScenarioSyntax
import Simulation

/// Runs a parsed scenario in the simulated runtime with the semantics of SCENARIO-FORMAT.md:
/// per-app callback queues, `>` requires an empty queue, time runs on `<`, nothing may be left at the end.
public struct ScenarioRunner: Sendable {
    /// Whose engine runs, and where the requests go.
    public struct Runtime: Sendable {
        public enum Network: Sendable, Hashable {
            /// The in-process mock, in virtual time.
            case simulated
            /// Over loopback HTTP to a server started for each scenario (`LiveWire`).
            case live
            /// Over loopback HTTP to a running `passim serve`, through its admin endpoint at this URL,
            /// each admin request carrying this token.
            case server(adminURL: String, adminToken: String?)
        }
        public var network: Network
        /// A port of the SDK behind the driver protocol (docs/PORTING.md) in place of passim's engine.
        /// On a live network the port sends its own requests ("Live network").
        public var port: PortCommand?

        public init(network: Network = .simulated, port: PortCommand? = nil) {
            self.network = network
            self.port = port
        }

        public static let simulated = Runtime()
        public static let live = Runtime(network: .live)
        public static func liveServer(adminURL: String, adminToken: String?) -> Runtime {
            Runtime(network: .server(adminURL: adminURL, adminToken: adminToken))
        }
        public static func port(_ command: PortCommand) -> Runtime { Runtime(port: command) }

        /// The options of `passim run` that choose this runtime, each followed by a space.
        var flags: String {
            var flags = ""
            switch network {
            case .simulated: break
            case .live: flags += "--live "
            case .server(let url, _): flags += "--live --server \(url) "
            }
            if let port { flags += "--port '" + port.command.replacingOccurrences(of: "'", with: "'\\''") + "' " }
            return flags
        }
    }

    public var runtime: Runtime

    public init(runtime: Runtime = .simulated) { self.runtime = runtime }

    /// Guard against a run that never settles (a flow that re-arms a timer forever).
    static let maxEvents = 1_000_000

    public func run(_ file: ScenarioFile) -> ScenarioResult {
        run(file, recording: nil).result
    }

    /// With a `RecordingSession` the run records instead of checking `<` lines (see `Recorder`);
    /// everything else (calls, user steps, `seen`, invariants) is checked as usual.
    func run(_ file: ScenarioFile, recording: RecordingSession?) -> (result: ScenarioResult, recording: RecordingSession?) {
        var result = ScenarioResult(path: file.path, title: file.title, status: .passed, steps: 0,
                                    expected: file.steps.map { TranscriptLine(line: $0.location.line, text: $0.text) },
                                    actual: [], failure: nil)
        result.runtimeFlags = runtime.flags
        let setup = WorldBuilder.setup(for: file)
        let top = SourceLocation(file: file.path, line: 1, column: 1)
        var liveWire: LiveWire?
        var port: PortSession?
        do throws(StepError) {
            liveWire = try ScenarioRunner.liveWire(runtime.network, setup, file)
            if let command = runtime.port {
                port = try ScenarioRunner.portSession(command, setup, file, on: liveWire)
            }
        } catch {
            liveWire?.close()
            result.status = .failed
            result.failure = (error.message, top)
            return (result, recording)
        }
        defer {
            liveWire?.close()
            port?.close()
        }
        if let port, let failure = port.failure, case .unimplemented = failure {
            result.status = .unimplemented
            result.failure = ("port: \(failure)", top)
            return (result, recording)
        }
        let engines = port.map { session in setup.apps.map { PortEngine(session: session, app: $0) as any AppEngine } }
        var state = RunState(file: file, setup: setup, wire: liveWire, engines: engines)
        state.recording = recording
        for (index, step) in file.steps.enumerated() {
            result.steps += 1
            state.stepIndex = index
            state.stepTraceStart = state.simulator.trace.count
            do {
                try state.perform(step)
            } catch {
                result.actual = state.actual
                result.trace = state.simulator.trace
                result.status = .failed
                result.failure = (error.message, error.location)
                port?.checkNothingUnasked(wait: Millis(100))
                state.blamePort(&result, at: error.location)
                return (result, state.recording)
            }
        }
        state.stepIndex = file.steps.count
        do throws(StepError) {
            try state.finish(at: file.steps.last?.location ?? SourceLocation(file: file.path, line: 1, column: 1))
            port?.checkNothingUnasked()
            if let (app, failure) = state.simulator.engineFailure {
                throw StepError(message: "\(app): \(failure)", location: file.steps.last?.location ?? top)
            }
        } catch {
            result.status = .failed
            result.failure = (error.message, error.location)
            state.blamePort(&result, at: error.location)
        }
        result.actual = state.actual
        result.trace = state.simulator.trace
        return (result, state.recording)
    }
}

extension ScenarioRunner {
    /// How long a port on the live network waits for an answer, beyond the largest latency the
    /// scenario gives a host: long enough for a busy machine, and what a silent host costs in real time.
    static let portFetchSlack = Millis.seconds(2)

    /// The live wire of a live runtime (nil: simulated).
    static func liveWire(_ network: Runtime.Network, _ setup: SimulationSetup, _ file: ScenarioFile) throws(StepError) -> LiveWire? {
        let top = SourceLocation(file: file.path, line: 1, column: 1)
        do {
            switch network {
            case .simulated: return nil
            case .live: return try LiveWire(setup)
            case .server(let url, let token):
                return try LiveWire(setup, server: try RemoteServer(adminURL: url, token: token, file: file))
            }
        } catch {
            throw StepError(message: "live mode: \(error.message)", location: top)
        }
    }

    /// The largest latency the scenario gives a host, plus the slack.
    static func portFetchTimeout(_ setup: SimulationSetup, _ file: ScenarioFile) -> Millis {
        let latencies = setup.links.values.map(\.latency) + file.steps.compactMap { step -> Millis? in
            if case .net(_, .latency(let d)) = step.value { return d }
            return nil
        }
        return (latencies.max() ?? .zero) + portFetchSlack
    }

    /// Starts the port; with a live wire, on the live network of its server.
    static func portSession(_ command: PortCommand, _ setup: SimulationSetup, _ file: ScenarioFile,
                            on wire: LiveWire?) throws(StepError) -> PortSession {
        let network = wire.map { $0.portNetwork(setup, fetchTimeout: ScenarioRunner.portFetchTimeout(setup, file)) }
        do {
            return try PortSession(command, apps: setup.apps, engine: setup.engine, network: network, at: .simulationStart)
        } catch {
            throw StepError(message: "port: \(error.message)", location: SourceLocation(file: file.path, line: 1, column: 1))
        }
    }
}

/// The mutable part of one run.
struct RunState {
    let file: ScenarioFile
    let simulator: Simulator
    var bindings = Bindings()
    var actual: [TranscriptLine] = []
    /// Per SP: how far `seen` has read the request log.
    var seenCursor: [String: Int] = [:]
    let spURLs: [String: String]
    /// Set when recording: `<` lines are written from what comes instead of checked.
    var recording: RecordingSession?
    /// The index of the step being performed (`file.steps.count` once they are all done).
    var stepIndex = 0
    /// How long the trace was when the step began (recording: which requests the step sent).
    var stepTraceStart = 0

    /// `wire` nil: the simulated wire; `engines` nil: passim's engine for every app.
    init(file: ScenarioFile, setup: SimulationSetup? = nil, wire: (any Wire)? = nil, engines: [any AppEngine]? = nil) {
        self.file = file
        simulator = Simulator(setup ?? WorldBuilder.setup(for: file), wire: wire, engines: engines)
        var urls: [String: String] = [:]
        for sp in file.sps { urls[sp.name] = EngineConfiguration.normalizeSP(sp.url) }
        spURLs = urls
    }

    func app(_ name: String?, _ location: SourceLocation) throws(StepError) -> Int {
        guard let i = simulator.appIndex(name ?? ScenarioFile.firstAppName) else {
            throw StepError(message: "unknown app '\(name ?? "")'", location: location)
        }
        return i
    }

    static func prefix(_ app: String?, _ arrow: String) -> String { (app ?? "") + arrow + " " }

    mutating func record(_ step: Located<Step>, _ text: String? = nil) {
        actual.append(TranscriptLine(line: step.location.line, text: text ?? step.text))
    }

    /// A callback nobody expected fails the run where it was found.
    mutating func requireEmptyQueue(_ app: Int, _ name: String?, _ step: Located<Step>) throws(StepError) {
        if let extra = simulator.pendingCallbacks(app: app).first {
            actual.append(TranscriptLine(line: step.location.line, text: RunState.prefix(name, "<") + extra.description))
            throw StepError(message: "unexpected callback \(extra) before this step", location: step.location)
        }
    }

    mutating func perform(_ step: Located<Step>) throws(StepError) {
        let loc = step.location
        switch step.value {
        case .call(let name, let syntax):
            let i = try app(name, loc)
            if recording != nil {
                writeUntaken(app: i)
            } else {
                try requireEmptyQueue(i, name, step)
            }
            let call = try CallBuilder(spURLs: spURLs, bindings: bindings).build(syntax)
            record(step)
            simulator.call(call, app: i)

        case .expect(let name, let pattern, let pinned):
            let i = try app(name, loc)
            if !simulator.hasCallback(app: i) {
                simulator.run { simulator.hasCallback(app: i) }
            }
            guard let (callback, instant) = simulator.popTimedCallback(app: i) else {
                // Recording: a `<` line that found nothing is removed.
                if recording != nil {
                    recording?.remove(step: stepIndex)
                    break
                }
                record(step, RunState.prefix(name, "<") + "(nothing: engine idle)")
                throw StepError(message: "engine idle, expected \(pattern)", location: loc)
            }
            // Counted from the scenario's start, which is the clock's start in every runtime.
            let delivered = instant - .simulationStart
            // With `at`, the transcript shows when it came, so a wrong time shows in the side-by-side diff.
            let line = RunState.prefix(name, "<") + callback.description + (pinned == nil ? "" : " at \(delivered)")
            if recording != nil {
                recording?.took(app: i, at: stepIndex)
                write(callback, at: step, app: name, pattern: pattern, pinned: pinned, delivered: delivered)
                record(step, line)
                break
            }
            guard Matcher.match(pattern, callback, bindings: &bindings) else {
                record(step, line)
                throw StepError(message: "expected \(pattern), got \(callback)", location: loc)
            }
            if let pinned, pinned != delivered {
                record(step, line)
                throw StepError(message: "\(callback.description) was delivered at \(delivered), the line pins it at \(pinned)"
                                + " (`passim record --fresh` rewrites a pinned time)", location: loc)
            }
            // The actual transcript shows the delivered values, so two runs compare byte for byte.
            record(step, line)

        case .userLogin(let user, let password):
            try waitForBrowser(step)
            simulator.noteUser(step.text)
            guard simulator.userLogin(user: user, password: password) else {
                record(step)
                throw StepError(message: "no login form to fill: browser \(browserText)", location: loc)
            }
            record(step)
            try waitForBrowser(step)

        case .userBack:
            try waitForBrowser(step)
            simulator.noteUser(step.text)
            simulator.userBack()
            record(step)

        case .browserAt(let pattern):
            try waitForBrowser(step)
            let location = simulator.browser.location
            guard let location, Matcher.match(pattern, .string(location), bindings: &bindings) else {
                record(step, "browser at " + (location.map(Value.quote) ?? "(closed)"))
                throw StepError(message: "expected the browser at \(pattern), it is \(browserText)", location: loc)
            }
            record(step)

        case .clock(let d):
            simulator.advance(by: d)
            record(step)

        case .net(let target, let action):
            try net(target, action, step)
            record(step)

        case .seen(let sp, let method, let path, let params):
            try seen(sp: sp, method: method, path: path, params: params, step)
            record(step)

        case .userPick(let mvpd, let asUser):
            let sim = simulator
            try user(step) { () throws(SimulationError) in try sim.userPick(mvpd, asUser: asUser) }
        case .userPickOther:
            let sim = simulator
            try user(step) { () throws(SimulationError) in try sim.userPick(.otherProvider) }
        case .userCancel:
            let sim = simulator
            try user(step) { () throws(SimulationError) in try sim.userPick(.cancelled) }
        case .userEnterCode(let name, let password):
            let sim = simulator
            try user(step) { () throws(SimulationError) in try sim.userEnterCode(user: name, password: password) }
        }
        if recording != nil { recordAfter(step) }
        if let violation = simulator.violations.first {
            throw StepError(message: violation.description, location: loc)
        }
        if let (app, failure) = simulator.engineFailure {
            throw StepError(message: "\(app): \(failure)", location: loc)
        }
    }

    /// A port that broke or said `unimplemented` is the cause of whatever failed after it (an engine
    /// that stops answering leaves `<` lines waiting): the result says so.
    func blamePort(_ result: inout ScenarioResult, at location: SourceLocation) {
        guard let (app, failure) = simulator.engineFailure else { return }
        if case .unimplemented = failure { result.status = .unimplemented }
        result.failure = ("\(app): \(failure)", location)
    }

    /// A user step outside the browser (Apple's picker, the second screen).
    mutating func user(_ step: Located<Step>, _ act: () throws(SimulationError) -> Void) throws(StepError) {
        record(step)
        simulator.noteUser(step.text)
        do {
            try act()
        } catch {
            throw StepError(message: error.message, location: step.location)
        }
    }

    var browserText: String {
        switch simulator.browser.state {
        case .closed: return "closed"
        case .loading(let u, _): return "still loading \(u)"
        case .showing(let u, let page): return "showing \"\(page.title)\" at \(u)"
        case .intercepted(let u): return "at \(u)"
        case .error(let u, let reason): return "error page (\(reason)) at \(u)"
        }
    }

    mutating func waitForBrowser(_ step: Located<Step>) throws(StepError) {
        simulator.run { simulator.browser.isStopped }
        guard simulator.browser.isStopped else {
            record(step)
            throw StepError(message: "the browser never stopped: \(browserText)", location: step.location)
        }
    }

    mutating func net(_ target: NetTarget, _ action: NetAction, _ step: Located<Step>) throws(StepError) {
        let host: LoggedRequest.Host
        switch target {
        case .sp(let name): host = .sp(name)
        case .mvpd(let id): host = .idp(id)
        }
        let command: NetCommand
        switch action {
        case .down: command = .mode(.down)
        case .up: command = .mode(.up)
        case .silent: command = .mode(.silent)
        case .latency(let d): command = .latency(d)
        case .fail(let count, let path, let status):
            command = .fail(InjectedFailure(remaining: count, pathPattern: path, status: status ?? 503))
        }
        do {
            try simulator.net(command, host: host)
        } catch {
            throw StepError(message: error.message, location: step.location)
        }
    }

    mutating func seen(sp: String, method: String, path: PathPattern, params: [SeenParameter], _ step: Located<Step>) throws(StepError) {
        let log = simulator.requestLog
        let start = seenCursor[sp] ?? 0
        for i in start..<log.count {
            let entry = log[i]
            guard entry.host == .sp(sp), entry.method == method, RunState.pathMatches(path, entry.path) else { continue }
            guard params.allSatisfy({ p in entry.parameter(p.key) == p.value || entry.headers[p.key] == p.value }) else { continue }
            seenCursor[sp] = i + 1
            return
        }
        record(step)
        let got = log[start...].filter { $0.host == .sp(sp) }.map { "\($0.method) \($0.path)" }
        throw StepError(message: "\(sp) received no such request since the previous seen; it received: "
                        + (got.isEmpty ? "nothing" : got.joined(separator: ", ")), location: step.location)
    }

    /// A literal path is relative to the SP's URL; the `/1.0` version segment of Adobe's SDK paths may be
    /// written or left out (docs/CONFORMANCE.md).
    static func pathMatches(_ pattern: PathPattern, _ path: String) -> Bool {
        switch pattern {
        case .literal(let p):
            return p == path || p == "/1.0" + path
        case .regex(let body):
            guard let regex = try? Regex(body) else { return false }
            return (try? regex.wholeMatch(in: path)) != nil || (try? regex.wholeMatch(in: "/1.0" + path)) != nil
        }
    }

    /// At the end of the file time runs until nothing is pending; any callback left fails the run.
    mutating func finish(at location: SourceLocation) throws(StepError) {
        if let (app, failure) = simulator.engineFailure { throw StepError(message: "\(app): \(failure)", location: location) }
        var budget = ScenarioRunner.maxEvents
        simulator.run {
            budget -= 1
            return budget <= 0
        }
        if !simulator.isIdle {
            throw StepError(message: "the run never settled (more than \(ScenarioRunner.maxEvents) events)", location: location)
        }
        simulator.checkSettled()
        if let violation = simulator.violations.first {
            throw StepError(message: violation.description, location: location)
        }
        if recording != nil {
            noteDeliveries()
            for i in simulator.appNames.indices { writeUntaken(app: i) }
            return
        }
        for (i, name) in simulator.appNames.enumerated() {
            if let extra = simulator.pendingCallbacks(app: i).first {
                let appName: String? = i == 0 ? nil : name
                actual.append(TranscriptLine(line: location.line, text: RunState.prefix(appName, "<") + extra.description))
                throw StepError(message: "callback left at the end: \(extra)", location: location)
            }
        }
    }
}
