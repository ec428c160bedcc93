import Entitlement
import Harness
import Lint
import MockPass
import PassModel
import ScenarioSyntax
import Simulation

/// Runs a parsed scenario on a runtime composed by `Harness` with the semantics of SCENARIO-FORMAT.md:
/// per-app callback queues, `>` requires an empty queue, time runs on `<`, nothing may be left at the end.
public struct ScenarioRunner: Sendable {
    /// The runtimes are Harness's; the name stays for the runner's callers.
    public typealias Runtime = Harness.Runtime

    public var runtime: Runtime
    /// An expectations file's wire rules (`equivalent`, `request`): the differences a wire makes by
    /// design, applied to every `<` and `seen` line (docs/MIGRATION.md).
    public var expectations: Runtime.Expectations?
    /// Whether the expectations file's `timing N` also lets a `<` line take its callback before other
    /// lanes' (`CallbackLane`); off, a line takes the next callback, and only instants are tolerated.
    /// The parity fuzzer turns it off to name a program's strict first difference.
    public var reordersLanes = true

    public init(runtime: Runtime = .simulated, expectations: Runtime.Expectations? = nil) {
        self.runtime = runtime
        self.expectations = expectations
    }

    /// Guard against a run that never settles (a flow that re-arms a timer forever).
    static let maxEvents = 1_000_000

    /// Runs `file` on `runtime` and checks its `<` lines: the one entry point of every caller that
    /// runs a scenario (`passim run`, the library products, the fuzzer's replays).
    public static func run(_ file: ScenarioFile, on runtime: Runtime = .simulated) -> ScenarioResult {
        ScenarioRunner(runtime: runtime).run(file)
    }

    public func run(_ file: ScenarioFile) -> ScenarioResult {
        var checking = Checking(reordersLanes: reordersLanes)
        return run(file, &checking)
    }

    /// Runs `file` under `policy`, which checks the `<` lines (`Checking`) or writes them
    /// (`RecordingSession`); everything else (calls, user steps, `seen`, invariants) is checked either way.
    func run<Policy: ExpectationPolicy>(_ file: ScenarioFile, _ policy: inout Policy) -> ScenarioResult {
        var result = ScenarioResult(
            path: file.path, title: file.title, status: .passed, steps: 0,
            expected: file.steps.map { TranscriptLine(line: $0.location.line, text: $0.text) },
            actual: [], failure: nil)
        result.runtimeFlags = runtime.flags
        let top = SourceLocation(file: file.path, line: 1, column: 1)
        let running: RunningRuntime
        do throws(HarnessError) {
            running = try runtime.start(WorldBuilder.runtimeWorld(for: file))
        } catch {
            result.status = .failed
            result.failure = (error.message, top)
            return result
        }
        defer { running.close() }
        // What the port was told and said, read before it is closed, on every way out.
        func noted(_ result: ScenarioResult) -> ScenarioResult {
            var result = result
            result.portConversation = running.portConversation
            result.portAsked = running.portAsked
            return result
        }
        if let unimplemented = running.unimplemented {
            result.status = .unimplemented
            result.failure = (unimplemented, top)
            return noted(result)
        }
        var state = RunState(file: file, simulator: running.simulator)
        state.expectations = expectations
        state.wires = runtime.wire.map { [$0] } ?? Set([file.wire] + file.appWires.values)
        for (index, step) in file.steps.enumerated() {
            result.steps += 1
            state.stepIndex = index
            state.stepTraceStart = state.simulator.trace.count
            do {
                try state.perform(step, &policy)
            } catch {
                result.actual = state.actual
                result.trace = state.simulator.trace
                result.status = .failed
                result.failure = (error.message, error.location)
                result.mismatch = error.mismatch
                running.checkNothingUnasked(wait: Millis(100))
                state.blamePort(&result, at: error.location)
                return noted(result)
            }
        }
        state.stepIndex = file.steps.count
        do throws(StepError) {
            try state.finish(at: file.steps.last?.location ?? top, &policy)
            running.checkNothingUnasked()
            if let (app, failure) = state.simulator.engineFailure {
                throw StepError(message: "\(app): \(failure)", location: file.steps.last?.location ?? top)
            }
        } catch {
            result.status = .failed
            result.failure = (error.message, error.location)
            result.mismatch = error.mismatch
            state.blamePort(&result, at: error.location)
        }
        result.actual = state.actual
        result.trace = state.simulator.trace
        return noted(result)
    }
}

/// The mutable part of one run.
struct RunState {
    let file: ScenarioFile
    let simulator: Simulator
    var bindings = Bindings()
    /// Per app: the text of the last callback a `<` line took (an `equivalent … after` rule reads it).
    var lastTaken: [Int: String] = [:]
    var actual: [TranscriptLine] = []
    /// Per SP: how far `seen` has read the request log.
    var seenCursor: [String: Int] = [:]
    let spURLs: [String: String]
    /// The index of the step being performed (`file.steps.count` once they are all done).
    var stepIndex = 0
    /// How long the trace was when the step began (recording: which requests the step sent).
    var stepTraceStart = 0
    /// The wire rules of the run's expectations file (`ScenarioRunner.expectations`).
    var expectations: ScenarioRunner.Runtime.Expectations?
    /// The wires the run's apps speak (`--wire`, else the world's): what a `seen SP OPERATION` line
    /// and a `net SP fail N OPERATION` resolve through (`WireOperation`).
    var wires: Set<EngineWire> = [.sdk]

    /// `simulator`: the runtime Harness composed for the file (nil: the simulated one).
    init(file: ScenarioFile, simulator: Simulator? = nil) {
        self.file = file
        self.simulator = simulator ?? RunningRuntime.simulated(WorldBuilder.setup(for: file)).simulator
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

    /// Whether a callback delivered at `delivered` holds a line pinned at `pinned` by the expectations
    /// file's `timing` rule: within its number of the world's longest round trips.
    func withinTiming(_ delivered: Millis, of pinned: Millis) -> Bool {
        guard let timing = expectations?.timing else { return false }
        return abs(delivered.value - pinned.value) <= Int64(timing.roundTrips) * file.longestRoundTrip.value
    }

    /// Whether the `<` line `pattern` takes `callback`: by its own pattern, or by the expectations
    /// file's `equivalent` and `mask` rules (read with the line's bound `$names` written out). With
    /// `binding`, a match binds the line's new `$names`.
    mutating func accepts(_ pattern: CallSyntax, _ callback: Callback, of app: Int, binding: Bool) -> Bool {
        var trial = bindings
        if Matcher.match(pattern, callback, bindings: &trial) {
            if binding { bindings = trial }
            return true
        }
        return expectations?.equivalent(
            expected: Matcher.text(pattern, bindings: bindings), actual: callback.description,
            previous: lastTaken[app]) == true
    }

    /// Under the expectations file's `timing N` (`CallbackLane`): when the next callback is not the
    /// line's, the first later one that is comes first, if it was delivered within `window` of the
    /// next and only callbacks of other lanes were delivered before it. Time runs up to `window` past
    /// the next callback to let it come. When none qualifies nothing moves, and the line fails on the
    /// next callback as it would without the rule.
    mutating func bringForward(app i: Int, _ pattern: CallSyntax, within window: Millis) {
        guard let next = simulator.pendingTimedCallbacks(app: i).first,
            !accepts(pattern, next.callback, of: i, binding: false)
        else { return }
        var found: Int?
        simulator.run(
            until: {
                found = CallbackLane.bringable(simulator.pendingTimedCallbacks(app: i), within: window) {
                    accepts(pattern, $0, of: i, binding: false)
                }
                return found != nil
            }, notAfter: next.at + window)
        if let found { simulator.bringForward(app: i, at: found) }
    }

    mutating func record(_ step: Located<Step>, _ text: String? = nil) {
        actual.append(TranscriptLine(line: step.location.line, text: text ?? step.text))
    }

    /// A callback nobody expected fails the run where it was found.
    mutating func requireEmptyQueue(_ app: Int, _ name: String?, _ step: Located<Step>) throws(StepError) {
        if let extra = simulator.pendingCallbacks(app: app).first {
            actual.append(
                TranscriptLine(line: step.location.line, text: RunState.prefix(name, "<") + extra.description))
            throw StepError(
                message: "unexpected callback \(extra) before this step", location: step.location,
                mismatch: Runtime.Mismatch(kind: .extra, actual: extra, app: app, step: step.value))
        }
    }

    /// Performs one step, its `<` lines checked.
    mutating func perform(_ step: Located<Step>) throws(StepError) {
        var checking = Checking()
        try perform(step, &checking)
    }

    mutating func perform<Policy: ExpectationPolicy>(_ step: Located<Step>, _ policy: inout Policy) throws(StepError) {
        let loc = step.location
        switch step.value {
        case .call(let name, let syntax):
            let i = try app(name, loc)
            try policy.beforeCall(app: i, name: name, step, &self)
            let call = try CallBuilder(spURLs: spURLs, bindings: bindings).build(syntax)
            record(step)
            simulator.call(call, app: i)

        case .expect(let name, let pattern, let pinned):
            let i = try app(name, loc)
            if !simulator.hasCallback(app: i) {
                simulator.run { simulator.hasCallback(app: i) }
            }
            if let livelock = simulator.livelock, !simulator.hasCallback(app: i) {
                throw StepError(message: livelock, location: loc)
            }
            if let window = policy.reorderWindow(self) { bringForward(app: i, pattern, within: window) }
            guard let (callback, instant) = simulator.popTimedCallback(app: i) else {
                try policy.nothingCame(
                    Expectation(step: step, app: i, name: name, pattern: pattern, pinned: pinned), &self)
                break
            }
            // Counted from the scenario's start, which is the clock's start in every runtime.
            let delivered = instant - .simulationStart
            try policy.took(
                callback, delivered: delivered,
                Expectation(step: step, app: i, name: name, pattern: pattern, pinned: pinned), &self)

        case .userLogin(let user, let password):
            try waitForBrowser(step)
            simulator.noteUser(step.text)
            guard simulator.userLogin(user: user, password: password) else {
                record(step)
                throw StepError(
                    message: "no login form to fill: browser \(browserText)", location: loc,
                    mismatch: Runtime.Mismatch(kind: .step, step: step.value))
            }
            record(step)
            try waitForBrowser(step)

        case .userAuthenticate(let login):
            try v2Login(login, step)

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

        case .seen(let sp, let method, let path, let params, let unseen):
            if unseen {
                try unseenRequest(sp: sp, method: method, path: path, params: params, step)
            } else {
                try seen(sp: sp, method: method, path: path, params: params, step)
            }
            record(step)

        case .lint(let breaks, let id):
            try lint(breaks: breaks, rule: id, step)
            record(step)
        case .http(let http):
            try self.http(http, step)

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
        policy.after(step, &self)
        if let livelock = simulator.livelock {
            throw StepError(message: livelock, location: loc)
        }
        if let violation = simulator.firstViolation {
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
        result.mismatch = nil  // the port broke down: no line to compare
    }

    /// A user step outside the browser (Apple's picker, the second screen).
    mutating func user(_ step: Located<Step>, _ act: () throws(SimulationError) -> Void) throws(StepError) {
        record(step)
        simulator.noteUser(step.text)
        do {
            try act()
        } catch {
            throw StepError(
                message: error.message, location: step.location,
                mismatch: Runtime.Mismatch(kind: .step, step: step.value))
        }
    }

    /// `user authenticate $CODE as "NAME" ["PASSWORD"]`: the app's REST API v2 client opens the
    /// device's browser at the session's `/api/v2/authenticate/{sp}/{code}` on the SP's host (over the
    /// runtime's network, as every page load); the browser follows the redirects to the MVPD's login
    /// page (SAML, or OAuth2 with PKCE); the user fills it in as `user login` does; the browser runs
    /// until it stops again, normally at the session's `redirectUrl` (`browser at` pins where).
    mutating func v2Login(_ login: V2LoginStep, _ step: Located<Step>) throws(StepError) {
        let loc = step.location
        let code: String
        switch bindings[login.code] {
        case .string(let s): code = s
        case .int(let i): code = String(i)
        default:
            record(step)
            throw StepError(
                message:
                    "$\(login.code) is not bound to a session code (the http step that binds it did not run or did not match)",
                location: loc)
        }
        guard let base = spURLs[login.sp], let origin = URLParts(base)?.origin else {
            record(step)
            throw StepError(message: "no SP '\(login.sp)' with a URL", location: loc)
        }
        guard let password = login.password ?? simulator.password(ofUser: login.user) else {
            record(step)
            throw StepError(message: "no user '\(login.user)' in this world", location: loc)
        }
        simulator.noteUser(step.text)
        simulator.openBrowserForRESTv2(origin + login.path(code: code))
        try waitForBrowser(step)
        guard simulator.userLogin(user: login.user, password: password) else {
            record(step)
            throw StepError(
                message: "no login form to fill: browser \(browserText)", location: loc,
                mismatch: Runtime.Mismatch(kind: .step, step: step.value))
        }
        record(step)
        try waitForBrowser(step)
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
            throw StepError(
                message: "the browser never stopped: \(browserText)", location: step.location,
                mismatch: Runtime.Mismatch(kind: .step, step: step.value))
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
        case .fail(let count, let path, let status, let body, let operation):
            // A fault on an operation falls on its request on the run's wire, or on none.
            var pattern = path
            if let operation {
                let paths = wires.sorted { $0.rawValue < $1.rawValue }.compactMap {
                    WireOperation.named(operation).binding(on: $0)?.pathRegex
                }
                pattern =
                    paths.isEmpty
                    ? "passim: no such request on this wire" : paths.map { "(?:\($0))" }.joined(separator: "|")
            }
            command = .fail(InjectedFailure(remaining: count, pathPattern: pattern, status: status ?? 503, body: body))
        }
        do {
            try simulator.net(command, host: host)
        } catch {
            throw StepError(message: error.message, location: step.location)
        }
    }

    /// `lint passes|breaks RULE`: the rule judged on every request so far (docs/LINT.md). `lint
    /// passes all`: no rule broken, and at least one judged (a journal no rule can judge keeps none).
    func lint(breaks: Bool, rule id: String, _ step: Located<Step>) throws(StepError) {
        if id == "all" {
            guard !breaks else {
                throw StepError(
                    message: "lint breaks all: name the rule the client breaks (passim lint --rules)",
                    location: step.location)
            }
            let report = LintReport(Journal(simulator.requestLog))
            guard report.broken.isEmpty else {
                throw StepError(
                    message: "expected the client to pass every rule, it broke "
                        + report.broken.map(\.rule.id).joined(separator: ", ") + ": "
                        + report.text.split(separator: "\n").prefix(6).joined(separator: " / "),
                    location: step.location)
            }
            guard report.judged > 0 else {
                throw StepError(
                    message: "expected the client to pass every rule, no rule could judge it: "
                        + (report.emptyReason ?? "no rule applies to its requests"),
                    location: step.location)
            }
            return
        }
        guard let rule = Rules.rule(id) else {
            throw StepError(message: "no rule \(id) (passim lint --rules lists them)", location: step.location)
        }
        let verdict = rule.check(Journal(simulator.requestLog))
        switch (breaks, verdict) {
        case (false, .passed), (true, .broken): return
        case (_, .broken(let violations)):
            let journal = Journal(simulator.requestLog)
            let start = journal.entries.first?.time ?? 0
            let shown =
                violations.first.map { v in
                    v.message + ": " + v.evidence.prefix(5).map { $0.evidence(since: start) }.joined(separator: ", ")
                } ?? ""
            throw StepError(
                message: "expected the client to pass \(id), it broke it: \(shown)", location: step.location)
        case (_, .notApplicable(let why)):
            throw StepError(
                message: "expected the client to \(breaks ? "break" : "pass") \(id), it is not applicable: \(why)",
                location: step.location)
        case (true, .passed):
            throw StepError(message: "expected the client to break \(id), it passed it", location: step.location)
        }
    }

    mutating func seen(sp: String, method: String, path: PathPattern, params: [SeenParameter], _ step: Located<Step>)
        throws(StepError)
    {
        let request = SeenRequest(method: method, path: path, wires: wires)
        if request.isNone { return }  // an operation this wire has no request for (its binding's absence)
        let log = simulator.requestLog
        let start = seenCursor[sp] ?? 0
        for i in start..<log.count {
            let entry = log[i]
            // A request an injected failure answered is journaled but never reached the mock: `seen`
            // means the mock received it (SCENARIO-FORMAT.md), so it is skipped, as before faults were logged.
            guard entry.fault == nil, entry.host == .sp(sp), let binding = request.matching(entry),
                params.allSatisfy({ RunState.carries(entry, $0, binding) != false })
            else { continue }
            seenCursor[sp] = i + 1
            return
        }
        let received = log[start...].filter { $0.host == .sp(sp) && $0.fault == nil }
        let nearest = RunState.nearest(Array(received), to: request, params: params)
        // The actual column shows what came nearest, written as a `seen` line would say it.
        record(
            step,
            nearest.first.map { RunState.seenText(sp: sp, $0, request: request, params: params) }
                ?? "seen \(sp): no request since the previous seen")
        let shown = nearest.prefix(RunState.nearestShown).map {
            RunState.requestText($0, request: request, params: params)
        }
        throw StepError(
            message: "\(sp) received no such request since the previous seen; "
                + (received.isEmpty
                    ? "it received nothing"
                    : "of the \(received.count) it received, the nearest: " + shown.joined(separator: "; ")),
            location: step.location)
    }

    /// How many of the nearest requests a failing `seen` names.
    static let nearestShown = 3

    /// The requests a failing `seen` line came nearest to, nearest first: its request (method and path,
    /// or the operation's) with fewer of the fields named, then the same method, then by how many fields
    /// match and how much of the path is the same; the earlier first on a tie.
    static func nearest(_ received: [LoggedRequest], to request: SeenRequest, params: [SeenParameter])
        -> [LoggedRequest]
    {
        let wanted: String? = if case .literal(let p) = request.path { p } else { nil }
        func score(_ entry: LoggedRequest) -> [Int] {
            let binding = request.matching(entry)
            let fields = params.filter { RunState.carries(entry, $0, binding ?? nil) == true }.count
            let prefix =
                wanted.map { w in zip(w.unicodeScalars, entry.path.unicodeScalars).prefix { $0 == $1 }.count } ?? 0
            return [binding != nil ? 1 : 0, entry.method == request.method ? 1 : 0, fields, prefix]
        }
        let scored = received.enumerated().map { (offset: $0.offset, entry: $0.element, score: score($0.element)) }
        return scored.sorted { a, b in
            a.score != b.score ? b.score.lexicographicallyPrecedes(a.score) : a.offset < b.offset
        }.map(\.entry)
    }

    /// `GET /config/REQ1 (requestor="REQ1", resource: none)`: a request with the fields a `seen` line names.
    static func requestText(_ entry: LoggedRequest, request: SeenRequest, params: [SeenParameter]) -> String {
        let fields = fieldTexts(entry, request: request, params: params)
        return "\(entry.method) \(entry.path)" + (fields.isEmpty ? "" : " (" + fields.joined(separator: ", ") + ")")
    }

    /// `seen main GET /config/REQ1 with requestor="REQ1"`: a request as a `seen` line would name it.
    static func seenText(sp: String, _ entry: LoggedRequest, request: SeenRequest, params: [SeenParameter]) -> String {
        let fields = fieldTexts(entry, request: request, params: params)
        return "seen \(sp) \(entry.method) \(entry.path)"
            + (fields.isEmpty ? "" : " with " + fields.joined(separator: " "))
    }

    /// Each field the line names, as the request carries it: `key="value"`, or `key: none`.
    static func fieldTexts(_ entry: LoggedRequest, request: SeenRequest, params: [SeenParameter]) -> [String] {
        let binding = request.matching(entry) ?? nil
        return params.map { p in
            RunState.fieldValue(entry, p.key, binding).map { "\(p.key)=" + Value.quote($0) } ?? "\(p.key): none"
        }
    }

    /// The value of a field a `seen` line names, read where `carries` reads it; nil when absent.
    static func fieldValue(_ entry: LoggedRequest, _ key: String, _ binding: WireOperation.Binding?) -> String? {
        guard let binding, let field = WireOperation.Field(rawValue: key) else {
            return entry.parameter(key) ?? entry.headers[key]
        }
        switch binding.fields[field] {
        case nil: return nil
        case .parameter(let name): return entry.parameter(name)
        case .pathSegment(let i):
            let segments = entry.path.split(separator: "/")
            return segments.indices.contains(i) ? String(segments[i]) : nil
        case .resources: return entry.resources.isEmpty ? nil : entry.resources.joined(separator: ",")
        case .jsonHeader(let name): return entry.headers[name]
        }
    }

    /// `unseen`: no request of the SP since the previous `seen` on it matches (the cursor stays, so
    /// `seen` and `unseen` lines about one window may come in any order).
    mutating func unseenRequest(
        sp: String, method: String, path: PathPattern, params: [SeenParameter],
        _ step: Located<Step>
    ) throws(StepError) {
        let request = SeenRequest(method: method, path: path, wires: wires)
        if request.isNone { return }  // no such request on this wire: none can be seen
        let log = simulator.requestLog
        let start = seenCursor[sp] ?? 0
        for entry in log[start...] {
            // A field the wire does not carry (no place in its binding) matches no request of it.
            guard entry.fault == nil, entry.host == .sp(sp), let binding = request.matching(entry),
                params.allSatisfy({ RunState.carries(entry, $0, binding) == true })
            else { continue }
            record(step)
            throw StepError(
                message:
                    "\(sp) received \(entry.method) \(entry.path) since the previous seen, which this line says it did not",
                location: step.location)
        }
    }

    /// An `http` step: the request goes to the SP's host at the current instant, through the runtime's
    /// network (so latency, `down` and injected failures apply, and a live runtime sends it over
    /// loopback), time runs until its answer arrives, and the answer must match.
    mutating func http(_ http: HTTPStep, _ step: Located<Step>) throws(StepError) {
        let loc = step.location
        let values = bindings
        func lookup(_ name: String) -> String? {
            switch values[name] {
            case .string(let s): return s
            case .int(let i): return String(i)
            case .bool(let b): return b ? "true" : "false"
            case .mvpd(let m): return m.id
            default: return nil
            }
        }
        guard let base = spURLs[http.sp], let origin = URLParts(base)?.origin else {
            throw StepError(message: "no SP '\(http.sp)' with a URL", location: loc)
        }
        guard let path = HTTPStep.substitute(http.path, lookup) else {
            throw StepError(message: "a $name of the path is not bound to a string or a number", location: loc)
        }
        var headers = HTTPHeaders()
        for header in http.headers {
            guard let value = HTTPStep.substitute(header.value, lookup) else {
                throw StepError(
                    message: "a $name of header \(header.key) is not bound to a string or a number", location: loc)
            }
            headers.add(header.key, value)
        }
        var body: [UInt8] = []
        if let written = http.body {
            let (type, text): (String, String) =
                switch written {
                case .form(let text): ("application/x-www-form-urlencoded", text)
                case .json(let text): ("application/json", text)
                }
            if headers["Content-Type"] == nil { headers.add("Content-Type", type) }
            body = Array(text.utf8)
        }
        let request = HTTPRequest(method: http.method, url: origin + path, headers: headers, body: body)
        guard let result = simulator.send(request) else {
            record(step)
            throw StepError(message: "no answer: \(http.sp) is silent", location: loc)
        }
        guard case .response(let response) = result else {
            record(step)
            let why = if case .failure(let reason) = result { reason } else { "timed out" }
            throw StepError(message: "the request failed without an answer (\(why))", location: loc)
        }
        var trial = bindings
        var mismatch: String?
        if response.status != http.status { mismatch = "status \(response.status), expected \(http.status)" }
        for header in http.answerHeaders where mismatch == nil && response.headers[header.key] != header.value {
            mismatch =
                "header \(header.key) is " + (response.headers[header.key].map(Value.quote) ?? "missing")
                + ", expected " + Value.quote(header.value)
        }
        if mismatch == nil, !http.fields.isEmpty {
            let json = try? Value(jsonText: response.bodyText)
            for field in http.fields {
                guard let value = json.flatMap({ RunState.field(field.path, of: $0) }) else {
                    mismatch = json == nil ? "the answer is not JSON" : "the answer has no field \(field.path)"
                    break
                }
                guard Matcher.match(field.pattern, value, bindings: &trial) else {
                    mismatch = "\(field.path) is \(value.jsonText), expected \(field.pattern)"
                    break
                }
            }
        }
        guard let mismatch else {
            bindings = trial
            record(step)
            return
        }
        var answer = "\(response.status)"
        if let code = (try? Value(jsonText: response.bodyText))?["code"]?.stringValue { answer += " code \(code)" }
        let text = step.text.range(of: " expect ").map { String(step.text[..<$0.lowerBound]) + " expect " + answer }
        record(step, text ?? step.text)
        let shown = response.bodyText.count > 300 ? String(response.bodyText.prefix(300)) + "…" : response.bodyText
        throw StepError(message: "\(mismatch); the answer: \(response.status) \(shown)", location: loc)
    }

    /// The value at a dotted path of a JSON value: a key of an object, an index of a list.
    static func field(_ path: String, of value: Value) -> Value? {
        var current = value
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            let key = String(part)
            if case .list(let items) = current {
                guard let i = Int(key), items.indices.contains(i) else { return nil }
                current = items[i]
            } else {
                guard let next = current[key] else { return nil }
                current = next
            }
        }
        return current
    }

    /// Whether `entry` carries a `with K="V"` of a `seen` line: a field of the operation's (`requestor`,
    /// `mvpd`, `resource`, `data`) where its wire's binding puts it; any other K, a parameter or a
    /// header of that name. nil: the wire does not carry that field at all (not checked by `seen`).
    static func carries(_ entry: LoggedRequest, _ p: SeenParameter, _ binding: WireOperation.Binding?) -> Bool? {
        guard let binding, let field = WireOperation.Field(rawValue: p.key) else {
            return entry.parameter(p.key) == p.value || entry.headers[p.key] == p.value
        }
        switch binding.fields[field] {
        case nil: return nil
        case .parameter(let name): return entry.parameter(name) == p.value
        case .pathSegment(let i):
            let segments = entry.path.split(separator: "/")
            return segments.indices.contains(i) && segments[i] == p.value
        case .resources: return entry.resources.contains(p.value)
        case .jsonHeader(let name):
            return entry.jsonObject(header: name).map { $0 == (try? Value(jsonText: p.value)) } ?? false
        }
    }

    /// A literal path is relative to the SP's URL; the `/1.0` version segment of Adobe's SDK paths may be
    /// written or left out (docs/CONFORMANCE.md).
    static func pathMatches(_ pattern: PathPattern, _ path: String) -> Bool {
        switch pattern {
        case .literal(let p):
            return p == path || p == RoutePrefix.versionSegment + path
        case .regex(let body):
            guard let regex = try? LinearRegex(body) else { return false }
            return regex.wholeMatch(path) || regex.wholeMatch(RoutePrefix.versionSegment + path)
        case .operation: return false
        }
    }

    /// At the end of the file time runs until nothing is pending; any callback left fails the run.
    mutating func finish<Policy: ExpectationPolicy>(at location: SourceLocation, _ policy: inout Policy)
        throws(StepError)
    {
        if let (app, failure) = simulator.engineFailure {
            throw StepError(message: "\(app): \(failure)", location: location)
        }
        var budget = ScenarioRunner.maxEvents
        simulator.run {
            budget -= 1
            return budget <= 0
        }
        if let livelock = simulator.livelock {
            throw StepError(message: livelock, location: location)
        }
        if !simulator.isIdle {
            throw StepError(
                message: "the run never settled (more than \(ScenarioRunner.maxEvents) events)", location: location)
        }
        simulator.checkSettled()
        if let violation = simulator.firstViolation {
            throw StepError(message: violation.description, location: location)
        }
        try policy.finish(at: location, &self)
    }
}
