import Entitlement
import MockPass
import PassModel
import PassXML

/// Everything a simulated run starts from.
public struct SimulationSetup: Sendable {
    public var world: World
    /// Latency and faults per host; a host without a link answers after 10 ms.
    public var links: [LoggedRequest.Host: HostConditions]
    public var seed: UInt64
    /// App names; the first is the scenario's `app`.
    public var apps: [String]
    /// The engine configuration every app starts with.
    public var engine: EngineConfiguration

    public init(world: World, links: [LoggedRequest.Host: HostConditions] = [:], seed: UInt64 = 1,
                apps: [String] = ["app"], engine: EngineConfiguration = EngineConfiguration()) {
        self.world = world
        self.links = links
        self.seed = seed
        self.apps = apps
        self.engine = engine
    }

    /// Each host of the world with its base URL, SPs first, in the world's order.
    public var bases: [(host: LoggedRequest.Host, url: String)] {
        world.serviceProviders.map { (LoggedRequest.Host.sp($0.name), $0.url) }
            + world.identityProviders.map { (LoggedRequest.Host.idp($0.mvpdID), $0.url) }
    }
}

/// The simulated runtime (ARCHITECTURE.md): one thread, a virtual clock, an event queue ordered by
/// (time, sequence), the simulated network, the device's browser, and one engine per app.
/// Callbacks go to a per-app queue as the engine delivers them; the scenario runner takes them.
public final class Simulator {
    public private(set) var now: Instant = .simulationStart
    /// What answers the device's requests: the in-process mock, or the live server over loopback.
    public let wire: any Wire
    /// The runtime's model of each link: it decides when answers arrive (in virtual time).
    public var network = SimulatedNetwork()
    /// The device's browser; the app that opened it last owns it.
    public private(set) var browser = Browser()
    /// The second screen where a tvOS user enters the registration code (its own browser and cookies).
    public private(set) var secondScreen = Browser()
    private var secondScreenCookies = CookieJar()
    /// The device's shared store of authN tokens (iOS passive SSO).
    public private(set) var sharedStore: SharedAuthentication?
    /// The last registration code shown (`status(REGCODE, code)`), for `user enter-code`.
    public private(set) var lastRegistrationCode: String?
    /// Everything that happened, in order (calls, callbacks, HTTP exchanges, user actions).
    public private(set) var trace: [TraceEvent] = []

    /// Records a user action in the trace (the runner names it as the scenario wrote it).
    public func noteUser(_ action: String) {
        trace.append(TraceEvent(time: now, kind: .user(action)))
    }

    struct App {
        var name: String
        var engine: any AppEngine
        var cookies = CookieJar()
        /// Delivered and not yet taken, each with the instant it was delivered (`< … at T`).
        var callbacks: [(callback: Callback, at: Instant)] = []
        /// nil for a port: the invariants are read off passim's engine state.
        var monitor: InvariantMonitor?
        /// nil for a port: the invariants and properties judged from what the app and the network see.
        var oracle: CallbackOracle?
    }
    private var apps: [App]
    private let world: World

    enum Event: Sendable {
        case engineResult(app: Int, RequestID, HTTPResult, from: LoggedRequest.Host?)
        case engineTimer(app: Int, TimerID)
        case browserResult(load: Int, HTTPResult, from: LoggedRequest.Host?)
        case secondScreenResult(load: Int, HTTPResult, from: LoggedRequest.Host?)
    }
    private var events = EventQueue<Event>()
    private let bases: [(host: LoggedRequest.Host, url: String)]

    /// The mock's request log (what `seen` reads).
    public var requestLog: [LoggedRequest] { wire.log }

    /// `wire` nil: the simulated wire (`MockWire`) over `setup.world`. `engines` nil: passim's own
    /// engine for every app; else one engine per app of `setup.apps` (a port's).
    public init(_ setup: SimulationSetup, wire: (any Wire)? = nil, engines: [any AppEngine]? = nil) {
        self.wire = wire ?? MockWire(world: setup.world, seed: setup.seed)
        world = setup.world
        let engines = engines ?? setup.apps.map { _ in Engine(configuration: setup.engine) }
        apps = zip(setup.apps, engines).map { name, engine in
            App(name: name, engine: engine, monitor: engine.reference == nil ? nil : InvariantMonitor(app: name),
                oracle: engine.reference.map { CallbackOracle(app: name, context: OracleContext(world: setup.world, configuration: $0.configuration)) })
        }
        bases = setup.bases
        for (host, _) in bases { network.links[host] = setup.links[host] ?? HostConditions() }
    }

    // MARK: The app and the user

    /// The app (by index) calls the API at the current instant.
    public func call(_ call: Call, app: Int = 0) {
        if let engine = apps[app].engine.reference { apps[app].monitor?.called(call, engine: engine) }
        trace.append(TraceEvent(time: now, kind: .call(app: apps[app].name, call)))
        drive(app, .call(call, sharedStore: sharedStore))
    }

    /// Invariant violations seen so far, across apps, in the order found.
    public var violations: [InvariantViolation] {
        apps.flatMap { ($0.monitor?.violations ?? []) + ($0.oracle?.violations ?? []) }
    }

    /// The first app whose engine cannot go on (a port), with why.
    public var engineFailure: (app: String, failure: EngineFailure)? {
        for app in apps { if let f = app.engine.failure { return (app.name, f) } }
        return nil
    }

    /// Checks what must hold once nothing is pending (call when the run is idle).
    public func checkSettled() {
        for i in apps.indices {
            apps[i].monitor?.settled()
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
    public var appNames: [String] { apps.map(\.name) }

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

    /// passim's engine of that app (nil when the app runs a port).
    public func engine(app: Int = 0) -> Engine? { apps[app].engine.reference }

    /// `user login`: fills the login form the browser shows and submits it. False when no such form shows.
    public func userLogin(user: String, password: String) -> Bool {
        guard let fetch = browser.fill(["username": user, "password": password]) else { return false }
        load(fetch)
        return true
    }

    /// `user pick ID [as NAME]`: the user picks an MVPD in Apple's picker. For a `SUPPORTED` MVPD the
    /// device's Apple account (NAME, by default the first user at that MVPD) supplies Apple's token,
    /// which the simulation gets from the MVPD's IdP at once (Apple's framework holds it already).
    public func userPick(_ mvpdID: String, asUser: String?) throws(SimulationError) {
        let app = try pickerApp()
        guard let mvpd = apps[app].engine.pickerShown?.first(where: { $0.id == mvpdID }) else {
            throw SimulationError("\(mvpdID) is not in the picker")
        }
        var token: String?
        if mvpd.boardingStatus == .supported {
            guard let user = world.users.first(where: { $0.mvpdID == mvpdID && (asUser == nil || $0.name == asUser) }) else {
                throw SimulationError("no user \(asUser.map { "'\($0)' " } ?? "")at \(mvpdID) for the device's Apple account")
            }
            guard let idp = world.identityProviders.first(where: { $0.mvpdID == mvpdID }) else {
                throw SimulationError("\(mvpdID) has no identity provider")
            }
            let request = HTTPRequest.form(idp.url + "/platform-sso", [("username", user.name), ("password", user.password)])
            let answer = wire.direct(request, at: now)
            guard case .response(let response) = answer, response.status == 200 else {
                let why = if case .response(let r) = answer { "HTTP \(r.status)" } else { "\(answer)" }
                throw SimulationError("Apple's token for \(user.name) was refused (\(why))")
            }
            token = SAML.encodeForPost(response.bodyText)
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
    public func userEnterCode(user: String, password: String) throws(SimulationError) {
        guard let code = lastRegistrationCode else { throw SimulationError("no registration code was shown") }
        guard let request = wire.log.last(where: { $0.method == "POST" && $0.path.hasSuffix("/regcode") }),
              case .sp(let spName) = request.host,
              let sp = world.serviceProviders.first(where: { $0.name == spName }) else {
            throw SimulationError("no registration-code request reached an SP")
        }
        let requestor = request.path.split(separator: "/").dropLast().last.map(String.init) ?? ""
        let query = FormCoding.encode([
            ("requestor_id", requestor), ("mso_id", request.parameter("mvpd") ?? ""), ("reg_code", code),
            ("domain_name", "adobe.com"), ("redirect_url", Simulator.secondScreenDone),
        ])
        if let fetch = secondScreen.open(sp.url + "/api/v1/authenticate?" + query, owner: "second screen") { loadSecondScreen(fetch) }
        run { secondScreen.isStopped }
        guard let fetch = secondScreen.fill(["username": user, "password": password]) else {
            throw SimulationError("the second screen shows no login form: \(secondScreen.location ?? "closed")")
        }
        loadSecondScreen(fetch)
        run { secondScreen.isStopped }
    }

    /// Where the second screen lands once the code is used (a page the user reads; it stops there).
    public static let secondScreenDone = "passim-second-screen://done"

    /// `user back`: the user closes the browser; its pending load is dropped.
    public func userBack() {
        browser.close()
        events.removeAll { if case .browserResult = $0 { return true } else { return false } }

    }

    // MARK: Time

    /// Nothing is scheduled: no response, timer or page load can ever come.
    public var isIdle: Bool { events.isEmpty }

    /// Lets time run, one event at a time, until `condition` holds or nothing is pending.
    @discardableResult
    public func run(until condition: () -> Bool) -> Bool {
        while !condition() {
            guard step() else { return condition() }
        }
        return true
    }

    /// `clock +D`: everything due within D happens, then the clock reads now + D.
    public func advance(by duration: Millis) {
        let target = now + duration
        while let t = events.nextTime, t <= target { step() }
        now = target
    }

    /// Runs one event; false when none is pending.
    @discardableResult
    func step() -> Bool {
        guard let entry = events.popFirst() else { return false }
        if entry.time > now { now = entry.time }
        switch entry.payload {
        case .engineResult(let app, _, let result, let host):
            noteResponse(result, to: .engine(app: apps[app].name), from: host)
        case .browserResult(_, let result, let host):
            noteResponse(result, to: .browser, from: host)
        case .secondScreenResult(_, let result, let host):
            noteResponse(result, to: .secondScreen, from: host)
        case .engineTimer:
            break
        }
        switch entry.payload {
        case .engineResult(let app, let id, let result, _):
            drive(app, .response(id, result))
        case .engineTimer(let app, let id):
            drive(app, .timer(id))
        case .browserResult(let loadID, let result, _):
            if case .response(let r) = result, case .loading(let url, _) = browser.state {
                apps[browserOwner].cookies.store(from: r, url: url)
            }
            if let next = browser.receive(result, load: loadID) { load(next) }
        case .secondScreenResult(let loadID, let result, _):
            if case .response(let r) = result, case .loading(let url, _) = secondScreen.state {
                secondScreenCookies.store(from: r, url: url)
            }
            if let next = secondScreen.receive(result, load: loadID) { loadSecondScreen(next) }
        }
        return true
    }

    // MARK: Doing what the engine asks

    /// Gives the engine one input and carries out what it asks; the monitor sees how logins end.
    private func drive(_ app: Int, _ input: EngineInput) {
        let before = (apps[app].engine.reference)?.loginID
        if var own = apps[app].engine as? any SelfSendingEngine {
            own.useCookies(apps[app].cookies.headers)
            apps[app].engine = own
        }
        let actions = apps[app].engine.step(input, at: now)
        perform(actions, app: app)
        apps[app].oracle?.observe(OracleInput(input), actions, at: now)
        let delivered = actions.compactMap { action -> Callback? in
            if case .deliver(let c) = action { return c }
            return nil
        }
        let after = (apps[app].engine.reference)?.loginID
        var call: Call?
        if case .call(let c, _) = input { call = c }
        apps[app].monitor?.input(call: call, loginBefore: before, loginAfter: after, delivered: delivered)
    }

    private func perform(_ actions: [EngineAction], app: Int) {
        for action in actions {
            switch action {
            case .deliver(let callback):
                apps[app].callbacks.append((callback, now))
                trace.append(TraceEvent(time: now, kind: .callback(app: apps[app].name, callback)))
                if let engine = apps[app].engine.reference { apps[app].monitor?.delivered(callback, engine: engine, at: now) }
                if case .status(StatusCode.registrationCode, let code?) = callback { lastRegistrationCode = code }
                // The app's delegate opens the browser on navigateToUrl, as a real app does.
                if case .navigateToUrl(let url, _) = callback { openBrowser(url, app: app) }
            case .presentBrowser(let url):
                // SFSafariViewController presented by the SDK itself: the same browser, no callback.
                openBrowser(url, app: app)
            case .send(let id, let request):
                let party = TraceEvent.Party.engine(app: apps[app].name)
                let outcome = if let fetched = takeOwnFetch(id, app: app) {
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
            case .cancelTimer(let id):
                events.removeAll { if case .engineTimer(app, id) = $0 { return true } else { return false } }
            case .writeSharedStore(let shared):
                sharedStore = shared
            }
        }
    }

    /// What a self-sending engine's request got (nil: the runtime sends it).
    private func takeOwnFetch(_ id: RequestID, app: Int) -> HTTPResult? {
        guard var own = apps[app].engine as? any SelfSendingEngine else { return nil }
        defer { apps[app].engine = own }
        return own.takeOwnFetch(id)
    }

    private func openBrowser(_ url: String, app: Int) {
        userBack()
        if let fetch = browser.open(url, owner: apps[app].name) { load(fetch) }
    }

    private var browserOwner: Int { appIndex(browser.owner) ?? 0 }

    private func load(_ fetch: Browser.Fetch) {
        let request = apps[browserOwner].cookies.apply(to: fetch.request)
        switch exchange(request, from: .browser) {
        case .answer(let result, let after, let host):
            events.schedule(.browserResult(load: fetch.load, result, from: host), at: now + after)
        case .never:
            break
        }
    }

    private func loadSecondScreen(_ fetch: Browser.Fetch) {
        switch exchange(secondScreenCookies.apply(to: fetch.request), from: .secondScreen) {
        case .answer(let result, let after, let host):
            events.schedule(.secondScreenResult(load: fetch.load, result, from: host), at: now + after)
        case .never:
            break
        }
    }

    private func noteResponse(_ result: HTTPResult, to party: TraceEvent.Party, from host: LoggedRequest.Host?) {
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
    private func exchange(_ request: HTTPRequest, from party: TraceEvent.Party, fetched: HTTPResult? = nil) -> Outcome {
        let host = wire.host(for: request.url)
        trace.append(TraceEvent(time: now, kind: .request(from: party, method: request.method, url: request.url, host: host)))
        let relative = host.flatMap { h in bases.first { $0.host == h } }.flatMap { base in
            URLParts(request.url).map { Simulator.relativePath($0.path, base: base.url) }
        }
        guard let host, var link = network.links[host] else {
            return .answer(fetched ?? .failure("could not resolve host"), after: .zero, host: host)
        }
        let outcome: SimulatedNetwork.Outcome
        if let fetched {
            outcome = link.arrival(ofLive: fetched)
        } else {
            outcome = wire.exchange(request, host: host, link: &link, relativePath: relative, at: now)
            network.links[host] = link
        }
        switch outcome {
        case .answer(let result, let after): return .answer(result, after: after, host: host)
        case .never: return .never
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
