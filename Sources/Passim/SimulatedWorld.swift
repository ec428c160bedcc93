import Harness
import Scenario
import ScenarioSyntax
import Simulation

/// Where a simulated world's requests go. Time is virtual either way.
public enum PassimNetwork: Sendable, Hashable {
    /// passim's mock SP and MVPDs in this process: no socket is opened.
    case simulated
    /// Real HTTP over loopback (libcurl) to a mock server started for the world: every request is
    /// encoded, sent and parsed, cookies and redirects included (`passim run --live`).
    case live
}

/// passim's simulated runtime for `AccessEnabler`s: the mock SP and MVPD identity providers of a
/// world, the device's browser and its user, a simulated network and a virtual clock starting at
/// 2026-01-01 00:00:00 GMT. Nothing happens until the world runs; it then delivers each callback to
/// its app's delegate in order, at the virtual instant it happens. Same world, same seed, same run.
public final class SimulatedWorld {
    let simulator: Simulator
    /// What runs the world: on the live network, a server to stop with the world.
    private let runtime: RunningRuntime
    /// The enabler of each app, held weakly: the app owns its enabler.
    private var enablers: [Int: WeakEnabler] = [:]

    private struct WeakEnabler { weak var enabler: AccessEnabler? }

    /// A world written in the scenario format's header and world statements (SCENARIO-FORMAT.md:
    /// `sp`, `mvpd`, `user`, `requestor`, `app`, `platform`, `seed`…), as `passim serve --world` reads it.
    /// `network: .live` sends its requests over real HTTP to a mock server started for it, stopped
    /// with the world; callbacks, their order and their instants are the same as on `.simulated`.
    public init(_ text: String, network: PassimNetwork = .simulated) throws(PassimError) {
        let file: ScenarioFile
        do {
            file = try ScenarioParser.parseWorld(text, path: "world")
        } catch {
            throw PassimError(error.description)
        }
        let setup = WorldBuilder.setup(for: file)
        switch network {
        case .simulated:
            runtime = .simulated(setup)
        case .live:
            do {
                runtime = try Runtime.live.start(RuntimeWorld(setup: setup))
            } catch {
                throw PassimError(error.message)
            }
        }
        simulator = runtime.simulator
    }

    deinit { runtime.close() }

    func attach(_ enabler: AccessEnabler, app: Int) { enablers[app] = WeakEnabler(enabler: enabler) }

    /// The virtual time.
    public var now: Instant { simulator.now }

    /// Runs until nothing is left to happen (or `maxEvents` events have run), delivering callbacks.
    /// Returns whether the world is idle.
    @discardableResult
    public func run(maxEvents: Int = PassimLimits.worldRunEvents) -> Bool {
        var budget = maxEvents
        while true {
            deliverPending()
            if simulator.isIdle || budget <= 0 { break }
            simulator.run {
                budget -= 1
                return budget <= 0 || simulator.appNames.indices.contains { simulator.hasCallback(app: $0) }
            }
        }
        return simulator.isIdle
    }

    /// Lets `duration` of virtual time pass: timers fire and answers arrive, each callback delivered
    /// at the instant it happens (`now` reads that instant inside the delegate), so what a delegate
    /// starts in answer happens within the span too when it is due in it. The clock then reads the
    /// end of the span.
    public func advance(by duration: Millis) {
        deliverPending()
        simulator.advance(by: duration) { deliverPending() }
    }

    private func deliverPending() {
        var delivered = true
        while delivered {
            delivered = false
            for app in simulator.appNames.indices {
                while let callback = simulator.popCallback(app: app) {
                    delivered = true
                    enablers[app]?.enabler?.deliver(callback)
                }
            }
        }
    }

    // MARK: The user

    /// The user submits the login form the browser shows; false when it shows none.
    @discardableResult
    public func userLogin(user: String, password: String) -> Bool {
        run()
        let done = simulator.userLogin(user: user, password: password)
        run()
        return done
    }

    /// The user closes the browser (the app must then call `setSelectedProvider(nil)`).
    public func userBack() {
        run()
        simulator.userBack()
    }

    /// Where the browser is, nil when closed.
    public var browserLocation: String? { simulator.browser.location }

    /// Every request the mock SP and IdPs received, in order.
    public var requestLog: [LoggedRequest] { simulator.requestLog }

    /// The client rules of `passim lint` judged on the requests so far (docs/LINT.md).
    public func lintReport() -> LintReport { LintReport(Journal(requestLog)) }
}
