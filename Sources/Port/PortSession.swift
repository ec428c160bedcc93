import Entitlement
import Lint
import PassModel
import Simulation

/// How the harness runs a port (`passim run --port COMMAND`).
public struct PortCommand: Sendable {
    public var command: String
    /// How long the port may take to answer one message (until its `idle`).
    public var timeout: Millis
    public var constants: ConstantMap
    /// Where processes of ports that speak protocol 1.1 wait between scenarios; nil: a process per
    /// scenario, as protocol 1 has it.
    public var pool: PortPool?
    /// A port in this process instead of `command` (which then only names it in reports): a fresh
    /// one for each scenario, so no pool is used.
    public var inProcess: (@Sendable () -> any LinePort)?
    /// On a live wire, whether the port sends its requests itself (docs/PORTING.md, "Live network")
    /// or writes them and the harness carries them over HTTP, as it does for passim's own engine.
    /// A process sends its own; a port in this process (`AccessEnablerPort`) has its HTTP done for it.
    public var sendsOwnRequests = true
    /// The wall time one scenario may take of the port, all its answers together, and the limit's
    /// name in the message (docs/LIMITS.md): `port-scenario-wall` for a suite, shorter in a fuzz
    /// campaign, which runs thousands of programs and must also shrink its findings.
    public var wall: Duration = .seconds(PortLimits.scenarioWallSeconds)
    public var wallLimit = "port-scenario-wall"
    /// Keep every line exchanged, with its virtual instant (`passim run --port-log`): `PortSession.conversation`.
    public var log = false

    public init(
        command: String, timeout: Millis = .seconds(5), constants: ConstantMap = ConstantMap(), pool: PortPool? = nil
    ) {
        self.command = command
        self.timeout = timeout
        self.constants = constants
        self.pool = pool
    }

    /// A port in this process, named `name` in reports.
    public init(
        inProcess name: String, constants: ConstantMap = ConstantMap(), _ make: @escaping @Sendable () -> any LinePort
    ) {
        self.init(command: name, constants: constants)
        inProcess = make
        sendsOwnRequests = false
    }
}

/// The live network of docs/PORTING.md: the port sends its requests itself, over loopback HTTP, to a
/// mock server serving the scenario's world; the harness still decides when each answer arrives.
public struct LiveNetwork {
    /// Each origin of the world, as written, with the loopback origin of its listener (curl's `--connect-to`).
    public var hosts: [(origin: String, connect: String)]
    /// How long, in real time, the port waits for an answer before it reports a timeout.
    public var fetchTimeout: Millis
    /// Holds the server's clock at the instant of the message about to be sent: the port's requests
    /// reach the SP at that virtual instant.
    public var hold: (Instant) throws(PortError) -> Void

    /// The server's forward proxy (`http://HOST:PORT`) and the file of the CA its TLS certificates
    /// chain to, when it has them: a port may send the world's own URLs through it instead.
    public var proxy: String?
    public var caFile: String?

    public init(
        hosts: [(origin: String, connect: String)], fetchTimeout: Millis, proxy: String? = nil, caFile: String? = nil,
        hold: @escaping (Instant) throws(PortError) -> Void
    ) {
        self.hosts = hosts
        self.fetchTimeout = fetchTimeout
        self.proxy = proxy
        self.caFile = caFile
        self.hold = hold
    }
}

/// One scenario's conversation with a port process (docs/PORTING.md). The harness writes a message
/// and reads everything up to `idle`; the first protocol error, timeout, exit or `unimplemented`
/// becomes `failure`, and from then on nothing more is sent: the scenario ends with it.
public final class PortSession {
    private let process: any PortTransport
    private var settings: PortCommand
    /// nil: the harness network (the harness carries every request).
    let live: LiveNetwork?
    public private(set) var failure: EngineFailure?
    /// The port's `implementation` text from `ready`.
    public private(set) var implementation = ""

    /// Whether the port takes a later `hello` as a reset (its `ready` said so: protocol 1.1).
    public private(set) var resettable = false
    private var ended = false
    /// The liveness rules of the app's use of the API (docs/LINT.md), one monitor per app: fed the
    /// harness's calls, the callbacks the port delivers and the calls its app code reports with
    /// `app-call` (protocol 1.2), as `AccessEnabler` feeds its own.
    private var liveness: [String: LivenessMonitor] = [:]
    /// The failure is the liveness rules' (not a broken protocol): the process may serve another scenario.
    private var failedOnLiveness = false
    /// When the scenario must end (`PortCommand.wall`): every wait on the port ends by then too.
    private let wallDeadline: ContinuousClock.Instant
    /// Every line exchanged, when `PortCommand.log` is on: `0ms > {…}` for the harness's (at the
    /// virtual instant it carries), `0ms < {…}` for the port's, in order (`passim run --port-log`).
    public private(set) var conversation: [String] = []
    /// The messages the harness sent after `hello`: 0 when the scenario never asked the port anything
    /// (its steps were the harness's own: `http`, `seen`, `lint`).
    public private(set) var asked = 0

    /// Starts the process and says hello; the port must answer `ready` with protocol 1.
    /// A port that answers with `unimplemented` (one without the live network) gets its session, with
    /// that as its `failure`: its scenarios are unimplemented, not broken.
    /// With a pool, a process kept from an earlier scenario is reset with this `hello` instead; one
    /// that fails to answer it is ended and a fresh process started.
    public init(
        _ settings: PortCommand, apps: [String], engine: EngineConfiguration, appWires: [String: EngineWire] = [:],
        network live: LiveNetwork? = nil, at now: Instant
    ) throws(PortError) {
        self.settings = settings
        wallDeadline = ContinuousClock.now + settings.wall
        // On the live network an answer may wait on one of the port's own fetches, which the port
        // gives up to `fetchTimeout` (a world's latency is waited for in real time).
        if let live { self.settings.timeout = settings.timeout + live.fetchTimeout }
        self.live = live
        var network: [(String, Value)] = [("network", .string("harness"))]
        if let live {
            network = [
                ("network", .string("live")),
                ("hosts", .dict(live.hosts.map { Value.Entry($0.origin, .string($0.connect)) })),
                ("fetchTimeout", .int(Int(live.fetchTimeout.value))),
            ]
            if let proxy = live.proxy, let caFile = live.caFile {
                network += [("proxy", .string(proxy)), ("ca", .string(caFile))]
            }
        }
        // REST API v2: the wire, the apps with a wire of their own (a world with both
        // faces), and, for any v2 app, the app's own promotional TempPasses (choice 79).
        var wires: [(String, Value)] = engine.wire == .restV2 ? [("wire", .string(engine.wire.rawValue))] : []
        if !appWires.isEmpty {
            let own = apps.compactMap { app in appWires[app].map { Value.Entry(app, .string($0.rawValue)) } }
            wires.append(("appWires", .dict(own)))
        }
        if engine.wire == .restV2 || appWires.values.contains(.restV2) {
            wires.append(("promotionalTempPasses", .list(engine.promotionalTempPasses.sorted().map(Value.string))))
        }
        let hello = PortMessage.line(
            "hello",
            [("protocol", .int(PortMessage.version))] + network + [
                ("apps", .list(apps.map(Value.string))), ("platform", .string(engine.platform.rawValue)),
                ("device", .string(engine.deviceType.rawValue)),
                ("defaultServiceProvider", .string(engine.defaultServiceProvider)),
                ("svcScheme", .string(engine.svcScheme)), ("deviceID", .string(engine.deviceID)),
                ("clientVersion", .string(engine.clientVersion)),
            ] + PortSession.timeout(engine) + wires + [PortMessage.now(now)])
        let (process, greeting) = try PortSession.greeted(settings, hello)
        self.process = process
        process.scenariosServed += 1
        note(">", hello, at: now)
        note("<", greeting.line, at: now)
        implementation = greeting.implementation
        resettable = greeting.reset
        if let what = greeting.unimplemented { failure = .unimplemented(what) }
    }

    /// `requestTimeout` only for a world whose timeout is not BEHAVIOR.md's (protocol 1.3, choice 71):
    /// otherwise the port's own default is what runs, and the suite's timeout scenarios test it.
    static func timeout(_ engine: EngineConfiguration) -> [(String, Value)] {
        engine.requestTimeout == PortMessage.specRequestTimeout
            ? [] : [("requestTimeout", .int(Int(engine.requestTimeout.value)))]
    }

    private struct Greeting {
        var implementation = ""
        var reset = false
        var unimplemented: String?
        /// The port's answer as it wrote it.
        var line = ""
    }

    /// Keeps a line of the conversation (`conversation`), when asked to.
    private func note(_ direction: String, _ line: String, at now: Instant) {
        guard settings.log else { return }
        conversation.append("\(now - .simulationStart) \(direction) \(line)")
    }

    /// A process that has answered `hello`: a kept one when the pool has a sound one, else a new one.
    private static func greeted(_ settings: PortCommand, _ hello: String) throws(PortError) -> (
        any PortTransport, Greeting
    ) {
        if let make = settings.inProcess {
            let transport = InProcessTransport(make())
            return (transport, try greet(transport, hello, settings))
        }
        if let pool = settings.pool, let kept = pool.take() {
            if kept.alive, kept.unaskedLine() == nil {
                kept.forgetErrorTail()
                // A kept process has started already: its hello gets `--port-timeout`, not the start's
                // grace, or a port that went deaf after its last answer would cost every scenario that.
                if let greeting = try? greet(kept, hello, settings, started: true) { return (kept, greeting) }
            }
            kept.close()
        }
        let process = try PortProcess(command: settings.command)
        settings.pool?.countStart()
        do throws(PortError) {
            return (process, try greet(process, hello, settings))
        } catch {
            let tail = process.errorTail()
            process.close()
            var failed = PortError(error.message + PortSession.stderrSection(tail))
            failed.timedOut = error.timedOut
            throw failed
        }
    }

    private static func greet(
        _ process: any PortTransport, _ hello: String, _ settings: PortCommand, started: Bool = false
    ) throws(PortError) -> Greeting {
        let within = started ? settings.timeout : max(settings.timeout, .seconds(PortLimits.startupSeconds))
        let deadline = ContinuousClock.now + .milliseconds(within.value)
        let line: String
        do throws(PortError) {
            try process.write(hello, before: deadline)
            line = try process.readLine(before: deadline)
        } catch  where error.timedOut {
            // Stopped at once: a port that never answers its hello may be spinning, deaf to its input.
            process.stop()
            let limit = within > settings.timeout ? "limit: port-startup" : "--port-timeout"
            throw PortError.timedOut(
                PortSession.silence(error, within: within, limit: limit, waitingFor: "ready", after: 0, hello))
        }
        let output: PortOutput
        do {
            output = try PortOutput.parse(line)
        } catch {
            // The line itself says most about a port that is not speaking the protocol yet.
            throw PortError("the port must answer hello with a ready line, got: \(line)\n  (\(error.message))")
        }
        switch output {
        case .ready(let version, let name, let reset):
            guard version == PortMessage.version else {
                let which =
                    version > PortMessage.version
                    ? "a newer driver protocol than this passim knows: update passim (CHANGELOG.md)"
                    : "an older driver protocol than this passim speaks"
                throw PortError(
                    "the port speaks protocol \(version), \(which); this passim speaks protocol \(PortMessage.versionText)"
                )
            }
            return Greeting(implementation: name, reset: reset, line: line)
        case .unimplemented(let what):
            return Greeting(unimplemented: what, line: line)
        default:
            throw PortError("the port must answer hello with ready, got: \(line)")
        }
    }

    /// What the liveness rules found so far, app by app in the order found.
    public var livenessFindings: [(app: String, finding: LivenessMonitor.Finding)] {
        liveness.keys.sorted().flatMap { app in liveness[app]!.findings.map { (app, $0) } }
    }

    /// The harness calls the API for `app` (a scenario's `>` line): never from inside a callback.
    func noteCall(_ call: Call, app: String, at now: Instant) {
        liveness[app, default: LivenessMonitor()].called(call, at: now)
    }

    /// Sends one message for `app` at `now` and returns what the port did, up to its `idle`. The
    /// whole answer, the write included, has `--port-timeout` (a port writing line after line
    /// without its `idle` is no more answering than a silent one), and none goes past the scenario's
    /// wall. A port that misses either is stopped at once, its process group killed. On the live
    /// network each `fetched` line starts the time again: an input may send several requests, each
    /// of which may take the whole `fetchTimeout` (docs/PORTING.md).
    func exchange(_ message: String, app: String, at now: Instant) -> [PortOutput] {
        guard failure == nil else { return [] }
        asked += 1
        var outputs: [PortOutput] = []
        // The callback whose delivery an `app-call` is made from: the last one of this answer.
        var delivering: Callback?
        let started = ContinuousClock.now
        var answerDeadline = started + .milliseconds(settings.timeout.value)
        var deadline = min(answerDeadline, wallDeadline)
        var lines = 0
        do throws(PortError) {
            if let late = process.unaskedLine() {
                throw PortError("the port wrote after its idle, without new input\n  in the port's line: \(late)")
            }
            guard started < wallDeadline else { throw wallError(message, answering: false) }
            try live?.hold(now)
            do throws(PortError) {
                note(">", message, at: now)
                try process.write(message, before: deadline)
                while true {
                    let line = try process.readLine(before: deadline)
                    note("<", line, at: now)
                    lines += 1
                    let before = outputs.count
                    if try take(line, app: app, at: now, into: &outputs, delivering: &delivering) { return outputs }
                    if outputs.count > before, case .fetched? = outputs.last, live != nil {
                        answerDeadline = ContinuousClock.now + .milliseconds(settings.timeout.value)
                        deadline = min(answerDeadline, wallDeadline)
                    }
                }
            } catch  where error.timedOut {
                // Stopped now, before its standard error is read (what it wrote is still in the pipe):
                // a port that spins where it never reads its input would go on burning a core.
                let tail = process.errorTail()
                process.stop()
                throw PortError(
                    (answerDeadline <= wallDeadline
                        ? PortSession.silence(
                            error, within: settings.timeout, limit: "--port-timeout", waitingFor: "idle", after: lines,
                            message)
                        : wallError(message, answering: true).message + "; its processes were killed")
                        + PortSession.stderrSection(tail))
            }
        } catch {
            let tail = error.message.contains(PortSession.stderrHeading) ? "" : process.errorTail()
            failure = .broken("port: " + error.message + PortSession.stderrSection(tail))
            return []
        }
    }

    /// One line of the port's answer: true once it is the last (`idle`, `unimplemented`).
    private func take(
        _ line: String, app: String, at now: Instant, into outputs: inout [PortOutput], delivering: inout Callback?
    ) throws(PortError) -> Bool {
        let output: PortOutput
        do {
            output = try PortOutput.parse(line, constants: settings.constants)
        } catch {
            throw PortError("\(error.message)\n  in the port's line: \(line)")
        }
        switch output {
        case .idle:
            failOnLiveness()
            return true
        case .unimplemented(let what):
            failure = .unimplemented(what)
            outputs = []
            return true
        case .error(let message):
            throw PortError("the port reported an error: \(message)")
        case .ready:
            throw PortError("ready is only an answer to hello")
        case .request where live != nil:
            throw PortError(
                "request on the live network: send it yourself and report fetched\n  in the port's line: \(line)")
        case .fetched where live == nil:
            throw PortError(
                "fetched on the harness network: write request and the harness sends it\n  in the port's line: \(line)")
        case .appCall(let a, let call):
            guard a == app else {
                throw PortError(
                    "an app-call of app \(a) while answering a message for app \(app)\n  in the port's line: \(line)")
            }
            var monitor = liveness[app] ?? LivenessMonitor()
            if let delivering { monitor.willDeliver(delivering) }
            monitor.called(call, at: now)
            if delivering != nil { monitor.didDeliver() }
            liveness[app] = monitor
        case .callback(let a, _), .present(let a, _), .request(let a, _, _), .fetched(let a, _, _, _),
            .timer(let a, _, _), .cancelTimer(let a, _):
            guard a == app else {
                throw PortError("an answer for app \(a) to a message for app \(app)\n  in the port's line: \(line)")
            }
            if case .callback(_, let callback) = output { delivering = callback }
            outputs.append(output)
        }
        return false
    }

    /// The scenario's wall time is spent (`PortCommand.wall`), before the port was sent `message` or
    /// while it answered. Only the message's type is named: how far a program got in its wall time
    /// depends on the machine, and a finding's text should not.
    private func wallError(_ message: String, answering: Bool) -> PortError {
        let type = (try? Value(jsonText: message))?["type"]?.stringValue ?? "harness"
        return PortError.timedOut(
            "the port has taken more than \(PortSession.text(settings.wall)) of wall time on this scenario "
                + "(limit: \(settings.wallLimit)); stopped \(answering ? "while answering" : "before") a \(type) message"
        )
    }

    /// What a port that said nothing in time was asked, and what the harness was waiting for:
    /// `the port did not answer within 5s (--port-timeout): no idle after 2 lines in answer to {…}; its
    /// processes were killed`. The harness's message is quoted (its `now` is virtual time, so the text
    /// is the same from run to run) and cut, a `response` body being any size.
    static func silence(
        _ error: PortError, within: Millis, limit: String, waitingFor expected: String, after lines: Int,
        _ message: String
    ) -> String {
        let what = error.message.hasSuffix("did not read its input") ? "did not read its input" : "did not answer"
        let after = lines == 0 ? "" : lines == 1 ? " after 1 line" : " after \(lines) lines"
        return "the port \(what) within \(within) (\(limit)): no \(expected)\(after) in answer to "
            + "\(quoted(message)); its processes were killed"
    }

    /// A harness line as a message quotes it: at most 200 characters.
    static func quoted(_ line: String) -> String {
        line.count <= 200 ? line : String(line.prefix(200)) + "…"
    }

    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(Millis(seconds * 1000 + attoseconds / 1_000_000_000_000_000))"
    }

    static let stderrHeading = "\nport stderr:\n"

    /// The port's last lines of standard error, under their heading; nothing when it wrote none.
    static func stderrSection(_ tail: String) -> String { tail.isEmpty ? "" : stderrHeading + tail }

    /// A port must say nothing unasked: a line written after its last `idle` becomes the failure.
    /// Called when a scenario ends; `wait` gives a line on its way the time to arrive (a failed
    /// scenario waits a little, since an unasked line is the likeliest cause; a passing one does not).
    public func checkNothingUnasked(wait: Millis = .zero) {
        guard failure == nil, let late = process.unaskedLine(wait: wait) else { return }
        failure = .broken("port: the port wrote after its idle, without new input\n  in the port's line: \(late)")
    }

    /// A liveness finding fails the scenario once the answer that showed it is in (its callbacks are
    /// still delivered): a port whose app code reopens the picker on a cancel learns it here, as
    /// `AccessEnabler.livenessFindings` tells a Swift app. Nothing more is sent to the port.
    private func failOnLiveness() {
        let found = livenessFindings
        guard failure == nil, !found.isEmpty else { return }
        failedOnLiveness = true
        failure = .broken(
            "port: liveness (docs/LINT.md): " + found.map { "\($0.app): \($0.finding)" }.joined(separator: "; "))
    }

    /// Ends the conversation: a port that speaks protocol 1.1 and ended in a known state goes back to
    /// the pool for the next scenario; any other closes its input and has a second to exit.
    public func close() {
        guard !ended else { return }
        ended = true
        if let pool = settings.pool, let kept = process as? PortProcess, resettable, soundAfterwards, kept.alive,
            kept.scenariosServed < PortLimits.scenariosPerProcess, kept.unaskedLine() == nil
        {
            pool.give(kept)
        } else {
            process.close()
        }
    }

    /// No failure, or only `unimplemented` (a final answer: the port is waiting for input). A port
    /// that broke (an error, a timeout, an exit, a line after `idle`) may be in any state.
    private var soundAfterwards: Bool {
        if failedOnLiveness { return true }
        switch failure {
        case nil, .unimplemented?: return true
        default: return false
        }
    }
}

/// One app's engine in a port: `AppEngine` over the port's conversation, so the simulated runtime
/// drives a port exactly as it drives passim's engine. Request and timer ids are the port's own. On
/// the live network the port sends its requests itself: this adapter carries the device's cookies to
/// it and hands the runtime what each request got (`SelfSendingEngine`).
public struct PortEngine: SelfSendingEngine {
    let session: PortSession
    let app: String
    public private(set) var pickerShown: [MVPD]?
    /// Live network: the device's cookies, sent with every message.
    private var cookies: [(host: String, header: String)] = []
    /// Live network: what the port's requests got, until the runtime takes them to time their arrival.
    private var fetched: [Int: HTTPResult] = [:]

    public init(session: PortSession, app: String) {
        self.session = session
        self.app = app
    }

    public var failure: EngineFailure? { session.failure }

    /// The port keeps the device's shared store itself (all apps live in its one process), so a
    /// call's snapshot is not sent.
    public mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] {
        switch input {
        case .call(let call, _):
            session.noteCall(call, app: app, at: now)
            return exchange("call", [("call", .string(call.name)), ("args", PortCodec.arguments(of: call))], at: now)
        case .response(let id, let result):
            // On the live network the port holds the answer itself: the harness only says it has arrived.
            if session.live != nil { return exchange("deliver", [("id", .int(id.value))], at: now) }
            return exchange("response", [("id", .int(id.value))] + PortMessage.outcome(result), at: now)
        case .timer(let id):
            return exchange("timer", [("id", .int(id.value))], at: now)
        case .picker(let outcome):
            return exchange("picker", [("outcome", PortMessage.picker(outcome))], at: now)
        }
    }

    public mutating func useCookies(_ cookies: [(host: String, header: String)]) { self.cookies = cookies }

    public mutating func takeOwnFetch(_ id: RequestID) -> HTTPResult? { fetched.removeValue(forKey: id.value) }

    private mutating func exchange(_ type: String, _ fields: [(String, Value)], at now: Instant) -> [EngineAction] {
        var all = [("app", Value.string(app))] + fields + [PortMessage.now(now)]
        if session.live != nil { all.append(("cookies", PortMessage.cookies(cookies))) }
        return session.exchange(PortMessage.line(type, all), app: app, at: now).compactMap { output -> EngineAction? in
            switch output {
            case .callback(_, let callback):
                if case .presentTvProviderDialog(let shown, _) = callback { pickerShown = shown }
                if case .dismissTvProviderDialog = callback { pickerShown = nil }
                return .deliver(callback)
            case .present(_, let url): return .presentBrowser(url: url)
            case .request(_, let id, let request): return .send(RequestID(id), request)
            case .fetched(_, let id, let request, let result):
                fetched[id] = result
                return .send(RequestID(id), request)
            case .timer(_, let id, let at): return .startTimer(TimerID(id), at: at)
            case .cancelTimer(_, let id): return .cancelTimer(TimerID(id))
            default: return nil
            }
        }
    }
}
