import Entitlement
import MockPass
import PassModel
import PassXML

/// The simulated runtime (ARCHITECTURE.md): one thread, a virtual clock, an event queue ordered by
/// (time, sequence), the simulated network, the device's browser, and one engine per app.
/// Callbacks go to a per-app queue as the engine delivers them; the scenario runner takes them.
public final class Simulator {
    public private(set) var now: Instant = .simulationStart
    /// What answers the device's requests: the in-process mock, or the live server over loopback.
    public let wire: any Wire
    /// The runtime's model of each link: it decides when answers arrive (in virtual time).
    public var network = SimulatedNetwork()
    /// The device's browser (the app that opened it last owns it and lends it its cookies) and the
    /// second screen where a tvOS user enters the registration code (its own cookies), by `Screen`.
    private var sessions = [BrowserSession(.device), BrowserSession(.second)]
    public var browser: Browser { sessions[BrowserSession.Screen.device.rawValue].browser }
    public var secondScreen: Browser { sessions[BrowserSession.Screen.second.rawValue].browser }
    /// The device's shared store of authN tokens (iOS passive SSO), one per wire: an app on REST
    /// API v2 keeps its tokens apart from the SDK's (Adobe: authentication is not carried over from
    /// the SDK to v2, rest-api-v2.md 1.1), so in a world with both faces nothing crosses.
    public private(set) var sharedStores: [EngineWire: SharedAuthentication] = [:]
    /// The person at the device; reads the world and the TV's screen.
    private var user: SimulatedUser
    /// The last registration code shown (`status(REGCODE, code)`), for `user enter-code`.
    public private(set) var lastRegistrationCode: String?
    /// Everything that happened, in order (calls, callbacks, HTTP exchanges, user actions); empty
    /// when not `keepsTrace`.
    public private(set) var trace: [TraceEvent] = []
    /// Whether `trace` is kept. Nothing in the runtime reads it: it is for whoever reads a run
    /// afterwards (a scenario's result and report, a recording, the docs). A fuzz run reads none of
    /// it and turns it off: each event copied a call, a callback or a URL, and freeing them all at
    /// the end of the run was a share of it too.
    public var keepsTrace = true
    /// How many inputs the engines were given (every `step` call): the fuzzer's throughput figure
    /// is engine inputs per CPU-second, so it counts them where they reach an engine.
    public private(set) var engineInputs = 0

    /// Records a user action in the trace (the runner names it as the scenario wrote it).
    public func noteUser(_ action: String) {
        if keepsTrace { trace.append(TraceEvent(time: now, kind: .user(action))) }
    }

    /// A class, not a struct: the runtime reads an app's engine, oracle and failure after every
    /// input, and each read of a struct element out of `apps` copied the whole record (engine,
    /// oracle, cookies, callbacks: dozens of references retained and released).
    final class App {
        let name: String
        /// The wire the app's engine speaks: which shared store it reads and writes.
        let wire: EngineWire
        var engine: any AppEngine
        var cookies = CookieJar()
        /// Delivered and not yet taken, each with the instant it was delivered (`< … at T`).
        var callbacks: [(callback: Callback, at: Instant)] = []
        /// nil for a port: the invariants and properties judged from what the app and the network see.
        var oracle: CallbackOracle?
        /// The engine's last registration-code request and its host: what the code it shows was made for.
        var registration: (request: HTTPRequest, host: LoggedRequest.Host?)?
        /// A port (no reference engine): only a port can fail (`AppEngine.failure`). Known once, as
        /// reading an existential's property after every step copied passim's whole engine.
        let isPort: Bool
        /// The engine sends its own requests (`SelfSendingEngine`), known once: a dynamic cast on
        /// every input was a share of a fuzz run.
        let sendsOwnRequests: Bool

        init(name: String, wire: EngineWire, engine: any AppEngine, oracle: CallbackOracle?) {
            self.name = name
            self.wire = wire
            self.engine = engine
            self.oracle = oracle
            // Read in place: `reference` copies the whole engine out of its existential.
            isPort = engine.withReference { _ in true } == nil
            sendsOwnRequests = engine is any SelfSendingEngine
        }
    }
    private let apps: [App]

    enum Event: Sendable {
        case engineResult(app: Int, RequestID, HTTPResult, from: LoggedRequest.Host?)
        case engineTimer(app: Int, TimerID)
        case pageResult(BrowserSession.Screen, load: Int, HTTPResult, from: LoggedRequest.Host?)
    }
    private var events = EventQueue<Event>()
    private let bases: [(host: LoggedRequest.Host, url: String)]

    /// The mock's request log (what `seen` reads).
    public var requestLog: [LoggedRequest] { wire.log }
    /// The log's kept entries and how many it dropped, where the wire numbers them (`Wire.sequencedLog`).
    public var sequencedRequestLog: (entries: [LoggedRequest], dropped: Int)? { wire.sequencedLog }

    /// `wire` nil: the simulated wire (`MockWire`) over `setup.world`. `engines` nil: passim's own
    /// engine for every app; else one engine per app of `setup.apps` (a port's).
    public init(_ setup: SimulationSetup, wire: (any Wire)? = nil, engines: [any AppEngine]? = nil) {
        self.wire = wire ?? MockWire(world: setup.world, seed: setup.seed, typedResponses: setup.typedResponses)
        user = SimulatedUser(world: setup.world, secondScreenWire: setup.secondScreenWire)
        let engines = engines ?? setup.apps.map { Engine(configuration: setup.engine(forApp: $0)) }
        // What the oracles know of the world is the same for every app: read from it once.
        let known = OracleContext.WorldFacts(setup.world)
        let apps = zip(setup.apps, engines).map { name, engine in
            App(
                name: name, wire: setup.engine(forApp: name).wire, engine: engine,
                oracle: engine.withReference {
                    CallbackOracle(app: name, context: OracleContext(known, configuration: $0.configuration))
                })
        }
        self.apps = apps
        appNames = apps.map { $0.name }
        bases = setup.bases
        for (host, _) in bases { network.links[host] = setup.links[host] ?? HostConditions() }
    }

    // MARK: The app and the user

    /// The app (by index) calls the API at the current instant.
    public func call(_ call: Call, app: Int = 0) {
        if keepsTrace { trace.append(TraceEvent(time: now, kind: .call(app: apps[app].name, call))) }
        drive(app, .call(call, sharedStore: sharedStores[apps[app].wire]))
    }

    /// Invariant violations seen so far, across apps, in the order found.
    public var violations: [InvariantViolation] {
        apps.flatMap { $0.oracle?.violations ?? [] }
    }

    /// The first app whose engine cannot go on (a port), with why.
    public var engineFailure: (app: String, failure: EngineFailure)? {
        for app in apps where app.isPort { if let f = app.engine.failure { return (app.name, f) } }
        return nil
    }

    /// The first of `violations`, found without collecting them (the runners ask after every step).
    public var firstViolation: InvariantViolation? {
        for app in apps { if let v = app.oracle?.violations.first { return v } }
        return nil
    }

    /// Checks what must hold once nothing is pending (call when the run is idle).
    public func checkSettled() {
        for i in apps.indices {
            apps[i].oracle?.settled()
        }
    }

    /// After faults healed and hours passed: every timer an engine set has fired or been cancelled.
    /// The first violation found, if any.
    @discardableResult
    public func checkQuiescent() -> InvariantViolation? {
        let before = violations.count
        for i in apps.indices { apps[i].oracle?.quiescent() }
        return violations.count > before ? violations[before] : nil
    }

    public func appIndex(_ name: String) -> Int? { apps.firstIndex { $0.name == name } }
    /// The apps' names, in app order (they never change).
    public let appNames: [String]

    public func hasCallback(app: Int = 0) -> Bool { !apps[app].callbacks.isEmpty }

    public func popCallback(app: Int = 0) -> Callback? {
        popTimedCallback(app: app)?.callback
    }

    /// The next callback and the instant the engine delivered it.
    public func popTimedCallback(app: Int = 0) -> (callback: Callback, at: Instant)? {
        apps[app].callbacks.isEmpty ? nil : apps[app].callbacks.removeFirst()
    }

    /// Callbacks delivered and not yet taken, per app (what is left at the end fails a scenario).
    public func pendingCallbacks(app: Int) -> [Callback] { apps[app].callbacks.map(\.callback) }

    /// The same, each with the instant the engine delivered it.
    public func pendingTimedCallbacks(app: Int) -> [(callback: Callback, at: Instant)] { apps[app].callbacks }

    /// Makes the pending callback at `index` the next one `popTimedCallback` gives, the others keeping
    /// their order: a `<` line that may take a callback of another flow first (the runner's `timing`).
    public func bringForward(app: Int, at index: Int) {
        apps[app].callbacks.insert(apps[app].callbacks.remove(at: index), at: 0)
    }

    /// What `body` reads from passim's engine of that app (nil when the app runs a port), without
    /// copying the engine (`AppEngine.withReference`).
    public func reading<T>(app: Int = 0, _ body: (Engine) -> T) -> T? { apps[app].engine.withReference(body) }

    /// `user login`: fills the login form the browser shows and submits it. False when no such form shows.
    public func userLogin(user name: String, password: String) -> Bool {
        guard let fetch = self[.device].browser.fill(user.login(user: name, password: password)) else { return false }
        load(fetch, on: .device)
        return true
    }

    /// `user pick ID [as NAME]`: the user picks an MVPD in Apple's picker. For a `SUPPORTED` MVPD the
    /// device's Apple account supplies Apple's token, which the simulation gets from the MVPD's IdP at
    /// once (Apple's framework holds it already).
    public func userPick(_ mvpdID: String, asUser: String?) throws(SimulationError) {
        let app = try pickerApp()
        var token: String?
        if let (name, request) = try user.appleTokenRequest(
            pick: mvpdID, asUser: asUser, shown: apps[app].engine.pickerShown ?? [])
        {
            let answer = wire.direct(request, at: now)
            guard case .response(let response) = answer, response.status == 200 else {
                let why = if case .response(let r) = answer { "HTTP \(r.status)" } else { "\(answer)" }
                throw SimulationError("Apple's token for \(name) was refused (\(why))")
            }
            // A typed run's mock hands over a handle to the Response it kept instead of signed XML.
            token = (response.decoded as? AppleToken)?.samlResponse ?? SAML.encodeForPost(response.bodyText)
        }
        drive(app, .picker(.picked(mvpdID: mvpdID, appleToken: token)))
    }

    /// `user pick other` / `user cancel` in Apple's picker.
    public func userPick(_ outcome: PickerOutcome) throws(SimulationError) {
        let app = try pickerApp()
        drive(app, .picker(outcome))
    }

    private func pickerApp() throws(SimulationError) -> Int {
        guard let app = apps.firstIndex(where: { $0.engine.pickerShown != nil }) else {
            throw SimulationError("Apple's TV-provider picker is not shown")
        }
        return app
    }

    /// `user enter-code`: on a second screen, the user opens the SP's login page for the last
    /// registration code and logs in; the step returns once that browser has stopped again.
    public func userEnterCode(user name: String, password: String) throws(SimulationError) {
        let url = try user.codeEntryURL(code: lastRegistrationCode)
        if let fetch = self[.second].browser.open(url, owner: "second screen") { load(fetch, on: .second) }
        run { secondScreen.isStopped }
        guard let fetch = self[.second].browser.fill(user.login(user: name, password: password)) else {
            // A second screen on the other wire refuses the code: the user reads its error page,
            // and the TV's login runs on until the code expires.
            if user.secondScreenMismatched { return }
            throw SimulationError("the second screen shows no login form: \(secondScreen.location ?? "closed")")
        }
        load(fetch, on: .second)
        run { secondScreen.isStopped }
    }

    /// The SDK wire's `POST …/regcode` (tested on the URL's end first: every request comes here).
    static func isRegistrationCodeRequest(_ request: HTTPRequest) -> Bool {
        guard request.method == Route.registrationCode.method,
            request.url.containsBytes(Route.registrationCode.pathEnding), let path = URLParts(request.url)?.path
        else { return false }
        return Route.recognise(path: path)?.route == .registrationCode
    }

    /// Where the second screen lands once the code is used (a page the user reads; it stops there).
    public static let secondScreenDone = "passim-second-screen://done"

    /// Who owns the device's browser when the app's REST API v2 client opened it (`user authenticate`).
    /// Not an app name (those are identifiers, without blanks), so it never takes an app's cookies.
    public static let restV2Client = "REST API v2 client"

    /// `user authenticate`: the app's REST API v2 client opens the device's browser at `url` (the
    /// session's `/api/v2/authenticate/{sp}/{code}`), which follows the redirects to the MVPD's login
    /// page like any other load. The browser carries the client's own cookies, not an SDK app's: the
    /// v2 client shares no session with the SDK (docs/WIRE.md, "REST API v2"). Time does not run
    /// here; the caller lets the browser stop, then `userLogin` fills the form.
    public func openBrowserForRESTv2(_ url: String) {
        userBack()
        if let fetch = self[.device].browser.open(url, owner: Simulator.restV2Client) { load(fetch, on: .device) }
    }

    /// The password the world gives user `name` (nil: no such user).
    public func password(ofUser name: String) -> String? {
        user.world.users.first { $0.name == name }?.password
    }

    /// An `http` step: the app's own HTTP client sends `request` now, over the modelled network and
    /// the wire, and time runs (everything due happening) until its answer arrives. nil: the host is
    /// silent, no answer will come.
    public func send(_ request: HTTPRequest) -> HTTPResult? {
        switch exchange(request, from: .client) {
        case .answer(let result, let after, let host):
            advance(by: after)
            noteResponse(result, to: .client, from: host)
            return result
        case .never:
            return nil
        }
    }

    /// `user back`: the user closes the browser; its pending load is dropped.
    public func userBack() {
        self[.device].browser.close()
        events.removeAll { if case .pageResult(.device, _, _, _) = $0 { return true } else { return false } }
    }

    // MARK: Time

    /// Nothing is scheduled: no response, timer or page load can ever come.
    public var isIdle: Bool { events.isEmpty }

    // MARK: Livelock (docs/LIMITS.md, "Simulated time")

    /// At most this many events at one instant: an engine or port that keeps producing work without
    /// time moving (a timer re-armed at the same instant, for ever) is a livelock, not a slow run.
    public static let eventsPerInstant = 10_000
    /// At most this many events in one run (a scenario, a fuzz program): time that moves but never
    /// settles (a timer re-armed 1 ms later, for ever) ends there too. The largest scenario of the
    /// suite runs a few thousand.
    public static let defaultEventBudget = 2_000_000
    public var eventBudget = Simulator.defaultEventBudget
    /// At most this many timers re-armed at the instant they fired (a timer's firing starting a timer
    /// due at once), at one instant: the commonest livelock, told apart long before
    /// `eventsPerInstant`. Through a port every event is a round trip, and a port whose work grows
    /// with what it holds (each re-arm also sent a request) took hours to reach 10,000.
    public static let rearmsPerInstant = 100
    /// Why the run was stopped, once a budget ran out: no event runs after that.
    public private(set) var livelock: String?
    private var eventsAtInstant = 0
    /// Timers re-armed at the instant they fired, since time last moved (`rearmsPerInstant`).
    private var rearmsAtInstant = 0
    /// A timer's firing is being carried out: a timer it starts due now is a re-arm.
    private var firingTimer = false
    private var lastEventInstant: Instant?
    private var eventsRun = 0

    /// Counts one event at `instant` against both budgets.
    private func countEvent(at instant: Instant) {
        if instant != lastEventInstant {
            lastEventInstant = instant
            eventsAtInstant = 0
            rearmsAtInstant = 0
        }
        eventsAtInstant += 1
        eventsRun += 1
        if eventsAtInstant > Simulator.eventsPerInstant {
            livelock =
                "livelock: more than \(Simulator.eventsPerInstant) events at \(instant - .simulationStart) "
                + "without time moving (a timer re-armed at the same instant?)"
        } else if eventsRun > eventBudget {
            livelock = "livelock: more than \(eventBudget) events in one run, the last at \(instant - .simulationStart)"
        }
    }

    /// Counts a timer re-armed at the instant it fired against `rearmsPerInstant`.
    private func countRearm() {
        rearmsAtInstant += 1
        if rearmsAtInstant > Simulator.rearmsPerInstant, livelock == nil {
            livelock =
                "livelock: a timer re-armed at the instant it fired, more than \(Simulator.rearmsPerInstant) times at "
                + "\(now - .simulationStart) without time moving"
        }
    }

    /// Lets time run, one event at a time, until `condition` holds or nothing is pending.
    @discardableResult
    public func run(until condition: () -> Bool) -> Bool {
        while !condition() {
            guard step() else { return condition() }
        }
        return true
    }

    /// `run(until:)`, leaving every event due after `deadline` pending.
    @discardableResult
    public func run(until condition: () -> Bool, notAfter deadline: Instant) -> Bool {
        while !condition() {
            guard let t = events.nextTime, t <= deadline, step() else { return condition() }
        }
        return true
    }

    /// `clock +D`: everything due within D happens, then the clock reads now + D. `afterEach` runs
    /// after every event, at that event's instant: what it starts (an app's call in answer to a
    /// callback) happens within the span too, when due.
    public func advance(by duration: Millis, afterEach: () -> Void = {}) {
        let target = now + duration
        while let t = events.nextTime, t <= target {
            guard step() else { break }  // stopped by a livelock
            afterEach()
        }
        now = target
    }

    /// Runs one event; false when none is pending.
    @discardableResult
    func step() -> Bool {
        guard livelock == nil, let entry = events.popFirst() else { return false }
        if entry.time > now { now = entry.time }
        countEvent(at: now)
        switch entry.payload {
        case .engineResult(let app, _, let result, let host):
            noteResponse(result, to: .engine(app: apps[app].name), from: host)
        case .pageResult(let screen, _, let result, let host):
            noteResponse(result, to: self[screen].party, from: host)
        case .engineTimer:
            break
        }
        switch entry.payload {
        case .engineResult(let app, let id, let result, _):
            drive(app, .response(id, result))
        case .engineTimer(let app, let id):
            firingTimer = true
            drive(app, .timer(id))
            firingTimer = false
        case .pageResult(let screen, let loadID, let result, _):
            if case .response(let r) = result, case .loading(let url, _) = self[screen].browser.state {
                withCookies(of: screen) { $0.store(from: r, url: url) }
            }
            if let next = self[screen].browser.receive(result, load: loadID) { load(next, on: screen) }
        }
        return true
    }

    // MARK: Doing what the engine asks

    /// Gives the engine one input and carries out what it asks; the oracle sees both.
    private func drive(_ app: Int, _ input: EngineInput) {
        if apps[app].sendsOwnRequests, var own = apps[app].engine as? any SelfSendingEngine {
            own.useCookies(apps[app].cookies.headers)
            apps[app].engine = own
        }
        engineInputs += 1
        let actions = apps[app].engine.step(input, at: now)
        perform(actions, app: app)
        apps[app].oracle?.observe(OracleInput(input), actions, at: now)
    }

    private func perform(_ actions: [EngineAction], app: Int) {
        for action in actions {
            switch action {
            case .deliver(let callback):
                apps[app].callbacks.append((callback, now))
                if keepsTrace { trace.append(TraceEvent(time: now, kind: .callback(app: apps[app].name, callback))) }
                if case .status(StatusCode.registrationCode, let code?) = callback {
                    lastRegistrationCode = code
                    let registration = apps[app].registration
                    user.sees(code: code, madeBy: registration?.request, at: registration?.host) { [wire] in
                        // Only the SP saw that body: its journal has the request as it arrived, found by
                        // its operation (a code's request on either wire).
                        let opening = WireOperation.named(.registrationCode)
                        return wire.log.last { opening.matches(method: $0.method, path: $0.path) }?.parameter("mvpd")
                    }
                }
                // The app's delegate opens the browser on navigateToUrl, as a real app does.
                if case .navigateToUrl(let url, _) = callback { openBrowser(url, app: app) }
            case .presentBrowser(let url):
                // SFSafariViewController presented by the SDK itself: the same browser, no callback.
                openBrowser(url, app: app)
            case .send(let id, let request):
                if Simulator.isRegistrationCodeRequest(request) || SimulatedUser.isRESTv2Session(request) {
                    apps[app].registration = (request, wire.host(for: request.url))
                }
                let party = TraceEvent.Party.engine(app: apps[app].name)
                let outcome =
                    if let fetched = takeOwnFetch(id, app: app) {
                        exchange(request, from: party, fetched: fetched)
                    } else {
                        exchange(apps[app].cookies.apply(to: request), from: party)
                    }
                switch outcome {
                case .answer(let result, let after, let host):
                    events.schedule(.engineResult(app: app, id, result, from: host), at: now + after)
                case .never:
                    break
                }
            case .startTimer(let id, let at):
                events.schedule(.engineTimer(app: app, id), at: max(at, now))
                if firingTimer, at <= now { countRearm() }
            case .cancelTimer(let id):
                events.removeAll { if case .engineTimer(app, id) = $0 { return true } else { return false } }
            case .writeSharedStore(let shared):
                sharedStores[apps[app].wire] = shared
            }
        }
    }

    /// What a self-sending engine's request got (nil: the runtime sends it).
    private func takeOwnFetch(_ id: RequestID, app: Int) -> HTTPResult? {
        guard apps[app].sendsOwnRequests, var own = apps[app].engine as? any SelfSendingEngine else { return nil }
        defer { apps[app].engine = own }
        return own.takeOwnFetch(id)
    }

    private func openBrowser(_ url: String, app: Int) {
        userBack()
        if let fetch = self[.device].browser.open(url, owner: apps[app].name) { load(fetch, on: .device) }
    }

    private subscript(screen: BrowserSession.Screen) -> BrowserSession {
        get { sessions[screen.rawValue] }
        _modify { yield &sessions[screen.rawValue] }
    }

    /// The cookies a browser's loads carry: the second screen's own, those of the app that opened
    /// the device's browser, or, when the app's REST API v2 client opened it, the device session's own.
    private func withCookies<T>(of screen: BrowserSession.Screen, _ body: (inout CookieJar) -> T) -> T {
        if screen == .second || browser.owner == Simulator.restV2Client { return body(&self[screen].cookies) }
        let owner = appIndex(browser.owner) ?? 0
        return body(&apps[owner].cookies)
    }

    private func load(_ fetch: Browser.Fetch, on screen: BrowserSession.Screen) {
        let request = withCookies(of: screen) { $0.apply(to: fetch.request) }
        switch exchange(request, from: self[screen].party) {
        case .answer(let result, let after, let host):
            events.schedule(.pageResult(screen, load: fetch.load, result, from: host), at: now + after)
        case .never:
            break
        }
    }

    private func noteResponse(_ result: HTTPResult, to party: TraceEvent.Party, from host: LoggedRequest.Host?) {
        guard keepsTrace else { return }
        let kind: TraceEvent.Kind
        switch result {
        case .response(let r): kind = .response(to: party, status: r.status, failure: nil, host: host)
        case .failure(let why): kind = .response(to: party, status: 0, failure: why, host: host)
        case .timeout: kind = .response(to: party, status: 0, failure: "timed out", host: host)
        }
        trace.append(TraceEvent(time: now, kind: kind))
    }

    private enum Outcome {
        case answer(HTTPResult, after: Millis, host: LoggedRequest.Host?)
        case never
    }

    /// A `net` step: the link's model changes here and the wire hears of it (the live server applies it).
    public func net(_ command: NetCommand, host: LoggedRequest.Host) throws(SimulationError) {
        guard network.links[host] != nil else { throw SimulationError("no host \(host) in this world") }
        network.links[host]?.apply(command)
        try wire.changed(command, host: host)
    }

    /// Sends `request` over the wire, or, with `fetched`, times what the engine got when it sent the
    /// request itself (a port on the live network): either way the answer arrives in virtual time.
    private func exchange(_ sent: HTTPRequest, from party: TraceEvent.Party, fetched: HTTPResult? = nil) -> Outcome {
        let host = wire.host(for: sent.url)
        if keepsTrace {
            trace.append(
                TraceEvent(time: now, kind: .request(from: party, method: sent.method, url: sent.url, host: host)))
        }
        let request = Simulator.forwarded(sent, from: party)
        // The link is found once and used in place: reading it out of the dictionary and writing it
        // back hashed the host twice and copied the link's conditions on every exchange.
        guard let host, let index = network.links.index(forKey: host) else {
            return .answer(fetched ?? .failure("could not resolve host"), after: .zero, host: host)
        }
        // Only an injected failure reads the path (which one it matches): most links have none.
        let relative =
            network.links.values[index].failures.isEmpty
            ? nil
            : bases.first { $0.host == host }.flatMap { base in
                URLParts(request.url).map { Simulator.relativePath($0.path, base: base.url) }
            }
        let outcome: SimulatedNetwork.Outcome
        if let fetched {
            outcome = network.links.values[index].arrival(ofLive: fetched)
        } else {
            // The wire never calls back into the runtime, so changing the link in place is safe.
            outcome = wire.exchange(
                request, host: host, link: &network.links.values[index], relativePath: relative, at: now)
        }
        switch outcome {
        case .answer(let result, let after): return .answer(result, after: after, host: host)
        case .never: return .never
        }
    }

    /// The request as Adobe's edge hands it on, `X-Forwarded-For` naming the device that sent it:
    /// Adobe's throttle counts calls per client address (rest-api-v2.md 1.10), so every call of the
    /// device shares one bucket whatever headers its client sends (a client that leaves
    /// `AP-Device-Identifier` off its configuration calls is still counted; docs/CONFORMANCE.md,
    /// choice 80). An `http` step's request is the scenario's own, sent as written.
    static func forwarded(_ request: HTTPRequest, from party: TraceEvent.Party) -> HTTPRequest {
        switch party {
        case .engine, .browser: request.forwarded(for: SimulationSetup.deviceAddress)
        case .secondScreen: request.forwarded(for: SimulationSetup.secondScreenAddress)
        case .client: request
        }
    }

    static func relativePath(_ path: String, base: String) -> String {
        let basePath = URLParts(base)?.path ?? ""
        let trimmed = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        return path.hasPrefix(trimmed) ? String(path.dropFirst(trimmed.count)) : path
    }
}

/// A user step the simulation cannot carry out in the current state.
public struct SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
