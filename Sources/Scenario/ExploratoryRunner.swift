import Entitlement
import Harness
import MockPass
import PassModel
import ScenarioSyntax
import Simulation

/// Runs a scenario that has no expectations and writes them: after each step every callback the step
/// caused is taken from its app's queue and written as a `<` line right after it. Time runs only where
/// the steps say (`clock`, user steps), so the written file replays exactly: each `<` finds its callback
/// already queued. The fuzzer explores with it; a failure is written as a ready-to-run `.scenario`.
public struct ExploratoryRunner {
    /// Why a run stopped early.
    public enum Failure: Hashable, Sendable, CustomStringConvertible {
        /// An invariant of BEHAVIOR.md, by number.
        case invariant(InvariantViolation)
        /// Faults healed and hours passed, yet a flow still had requests or timers out.
        case liveness(String)
        /// The engine's bookkeeping grew past any reasonable bound.
        case growth(String)
        /// The run did not settle within the event budget (a hang).
        case hang(String)
        /// The same program run twice gave two transcripts.
        case nondeterminism(String)

        public var description: String {
            switch self {
            case .invariant(let v): return v.description
            case .liveness(let m): return "liveness: \(m)"
            case .growth(let m): return "unbounded growth: \(m)"
            case .hang(let m): return "hang: \(m)"
            case .nondeterminism(let m): return "nondeterminism: \(m)"
            }
        }

        /// A short key: two failures with the same key are "the same bug" while shrinking.
        public var key: String {
            switch self {
            case .invariant(let v): return v.key
            case .liveness: return "liveness"
            case .growth: return "growth"
            case .hang: return "hang"
            case .nondeterminism: return "nondeterminism"
            }
        }
    }

    public struct Result: Sendable {
        /// The step lines with the `<` lines they caused, in order (the body of a `.scenario`).
        public var lines: [String]
        /// How many steps ran (a step that could not be carried out ends the run).
        public var stepsRun: Int
        public var failure: Failure?
        /// The step that could not be carried out, if any (not a failure of the engine).
        public var inapplicable: String?
        /// How many inputs the run's engines were given (the fuzzer's throughput figure).
        public var engineInputs = 0
        /// An exploration that writes no `lines` (the fuzzer's, while it runs) keeps this instead: each
        /// step as a marker and each callback it caused, typed, which is what a determinism check
        /// compares without rendering a line.
        public var events: [Event] = []
    }

    /// One entry of a typed transcript: a step performed, or a callback taken from an app's queue.
    public enum Event: Hashable, Sendable {
        case step
        case callback(app: Int, Callback)
    }

    /// Bounds for the growth oracle: far above anything a correct engine reaches in a fuzz run.
    static let maxInFlight = 256

    /// Every `<` line written with `at T`, when its callback was delivered: a transcript that holds
    /// another engine to the reference's timing too (the differential fuzzer's: a timeout of 60 s
    /// instead of 30 s gives the same callbacks, later).
    public var pinsTimes: Bool

    public init(pinsTimes: Bool = false) { self.pinsTimes = pinsTimes }

    /// Runs `file`'s steps (its `<` lines, if any, are ignored). With `checkLiveness`, after the last
    /// step every fault is healed and three hours pass: nothing may still be in flight.
    public func run(_ file: ScenarioFile, checkLiveness: Bool = true) -> Result {
        let session = ExplorationSession(file: file, pinsTimes: pinsTimes)
        for step in file.steps {
            if case .expect = step.value { continue }
            session.perform(step)
            if session.failed || session.stopped { return session.result }
        }
        return session.finish(checkLiveness: checkLiveness)
    }

    /// Takes every queued callback: into `events` typed, or, with `lines`, as `<` lines.
    static func drain(_ sim: Simulator, into result: inout Result, writingLines: Bool, pinningTimes: Bool = false) {
        guard !writingLines else { return drain(sim, into: &result.lines, pinningTimes: pinningTimes) }
        for i in sim.appNames.indices {
            while let callback = sim.popCallback(app: i) { result.events.append(.callback(app: i, callback)) }
        }
    }

    static func drain(_ sim: Simulator, into lines: inout [String], pinningTimes: Bool = false) {
        for (i, name) in sim.appNames.enumerated() {
            while let (callback, at) = sim.popTimedCallback(app: i) {
                // Counted from the scenario's start, as `ScenarioRunner` reads a pinned time.
                let pin = pinningTimes ? " at \(at - .simulationStart)" : ""
                lines.append((i == 0 ? "" : name) + "< " + callback.description + pin)
            }
        }
    }

    static func growth(_ sim: Simulator) -> String? {
        for (i, name) in sim.appNames.enumerated() {
            guard let f = sim.reading(app: i, { $0.footprint }) else { continue }
            if f.requests > maxInFlight || f.timers > maxInFlight || f.flows > maxInFlight || f.queued > maxInFlight * 4
            {
                return
                    "\(name) holds \(f.requests) requests, \(f.timers) timers, \(f.flows) flows, \(f.queued) queued calls"
            }
        }
        return nil
    }

    /// Heals every fault, lets three hours pass, and reports any app still waiting on the network or a timer.
    static func liveness(_ sim: Simulator) -> String? {
        for host in sim.network.links.keys {
            sim.network.links[host]?.mode = .up
            sim.network.links[host]?.failures = []
        }
        sim.advance(by: .hours(3))
        if let leftover = sim.checkQuiescent() { return leftover.description }
        for (i, name) in sim.appNames.enumerated() {
            guard let f = sim.reading(app: i, { $0.footprint }) else { continue }
            if f.requests > 0 || f.timers > 0 || f.flows > 0 {
                return
                    "\(name) still holds \(f.requests) requests, \(f.timers) timers, \(f.flows) flows after faults healed and 3h passed"
            }
        }
        return nil
    }
}

/// One exploration, step by step: the fuzzer asks the simulation what can happen next (is a login page
/// shown? is the picker up?) and performs one step at a time.
public final class ExplorationSession {
    private var state: RunState
    public var simulator: Simulator { state.simulator }
    private var partial = ExploratoryRunner.Result(lines: [], stepsRun: 0, failure: nil, inapplicable: nil)
    /// What the exploration wrote so far, and how many inputs its engines were given.
    public var result: ExploratoryRunner.Result {
        var r = partial
        r.engineInputs = state.simulator.engineInputs
        return r
    }

    /// False when nothing will read the lines (a fuzz run that finds nothing): the session keeps
    /// its typed `events` instead and builds no text.
    private let writesLines: Bool
    /// The `<` lines say when their callback came (`ExploratoryRunner.pinsTimes`).
    private let pinsTimes: Bool

    /// `typedResponses`: the simulated wire hands the mock's answers over as values too
    /// (`SimulationSetup.typedResponses`); the transcript is the same either way.
    /// `keepsTrace`: the simulation keeps its trace (`Simulator.keepsTrace`); the session never reads
    /// it, nor does the fuzzer, which turns it off.
    public init(
        file: ScenarioFile, writesLines: Bool = true, typedResponses: Bool = false, pinsTimes: Bool = false,
        keepsTrace: Bool = true
    ) {
        self.pinsTimes = pinsTimes
        var setup = WorldBuilder.setup(for: file)
        setup.typedResponses = typedResponses
        let simulator = RunningRuntime.simulated(setup).simulator
        simulator.keepsTrace = keepsTrace
        state = RunState(file: file, simulator: simulator)
        self.writesLines = writesLines
    }

    /// Whether the exploration has ended: a failure, or a step that could not be carried out.
    /// Kept as flags, set only where `partial.failure` / `partial.inapplicable` are (`fail`, `stop`):
    /// the fuzzer asks after every step, and reading the optionals out of the class copied the
    /// failure (its strings retained and released) just to compare it with nil.
    public private(set) var failed = false
    public private(set) var stopped = false

    private func fail(_ failure: ExploratoryRunner.Failure) {
        partial.failure = failure
        failed = true
    }

    private func stop(_ why: String) {
        partial.inapplicable = why
        stopped = true
    }

    private func write(_ step: Located<Step>) {
        if writesLines { partial.lines.append(step.text) } else { partial.events.append(.step) }
    }

    /// Performs one step and writes it, with the callbacks it caused, to `result.lines`. A step that
    /// cannot be carried out ends the exploration (`result.inapplicable`); so does a failure.
    public func perform(_ step: Located<Step>) {
        guard !failed, !stopped else { return }
        let sim = state.simulator
        do {
            try state.perform(step)
        } catch {
            if let violation = sim.firstViolation {
                write(step)
                ExploratoryRunner.drain(sim, into: &partial, writingLines: writesLines, pinningTimes: pinsTimes)
                fail(.invariant(violation))
            } else {
                stop("\(step.text): \(error.message)")
            }
            return
        }
        partial.stepsRun += 1
        write(step)
        ExploratoryRunner.drain(sim, into: &partial, writingLines: writesLines, pinningTimes: pinsTimes)
        if let livelock = sim.livelock {
            fail(.hang(livelock))
        } else if let growth = ExploratoryRunner.growth(sim) {
            fail(.growth(growth))
        }
    }

    /// Lets time run until nothing is pending (the end of a scenario), then checks what must hold.
    public func finish(checkLiveness: Bool) -> ExploratoryRunner.Result {
        guard !failed, !stopped else { return result }
        let sim = state.simulator
        var budget = ScenarioRunner.maxEvents
        sim.run {
            budget -= 1
            return budget <= 0
        }
        ExploratoryRunner.drain(sim, into: &partial, writingLines: writesLines, pinningTimes: pinsTimes)
        if let livelock = sim.livelock {
            fail(.hang(livelock))
            return self.result
        }
        guard sim.isIdle else {
            fail(.hang("still busy after \(ScenarioRunner.maxEvents) events"))
            return self.result
        }
        sim.checkSettled()
        if let violation = sim.firstViolation {
            fail(.invariant(violation))
            return self.result
        }
        if checkLiveness, let stuck = ExploratoryRunner.liveness(sim) {
            fail(.liveness(stuck))
        }
        return self.result
    }
}
