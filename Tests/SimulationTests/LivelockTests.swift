import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

/// An engine that re-arms a timer every time one fires, for ever (or, `resends`, sends a request
/// every time one is answered, to a host that refuses it at once): the runtime must stop it and say
/// so, not hang.
struct LivelockEngine: AppEngine {
    var inner: Engine
    /// 0: at the same instant; otherwise this much later (time moves but never settles).
    let step: Millis
    var resends = false
    var next = 1_000_000

    mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] {
        var actions = inner.step(input, at: now)
        next += 1
        switch input {
        case .call where resends, .response where resends:
            actions.append(.send(RequestID(next), HTTPRequest(method: "GET", url: "https://nowhere.test/again")))
        case .call, .timer:
            if !resends { actions.append(.startTimer(TimerID(next), at: now + step)) }
        case .response, .picker:
            break
        }
        return actions
    }
    var pickerShown: [MVPD]? { inner.pickerShown }
    var reference: Engine? { inner }
    var failure: EngineFailure? { nil }
}

@Suite struct LivelockTests {
    static func simulator(step: Millis, resends: Bool = false) -> Simulator {
        let configuration = OracleMutantTests.configuration
        return Simulator(
            OracleMutantTests.setup,
            engines: [LivelockEngine(inner: Engine(configuration: configuration), step: step, resends: resends)])
    }

    /// Told apart after 100 re-arms, not 10,000 events: through a port each event is a round trip,
    /// and a port whose every answer costs more as its work piles up took hours to reach 10,000.
    @Test func aTimerReArmedAtTheSameInstantIsALivelock() {
        let sim = Self.simulator(step: .zero)
        sim.call(.checkAuthentication)
        #expect(sim.run { sim.isIdle } == false, "the run stops without settling")
        #expect(
            sim.livelock
                == "livelock: a timer re-armed at the instant it fired, more than \(Simulator.rearmsPerInstant) times at 0ms without time moving"
        )
        #expect(sim.now == .simulationStart, "time never moved")
        #expect(sim.engineInputs < 2 * Simulator.rearmsPerInstant)
        // Nothing runs once stopped: `clock +D` returns too.
        sim.advance(by: .seconds(1))
        #expect(sim.livelock != nil)
    }

    /// Any other work at one instant without end (here: a request sent again each time a host refuses
    /// it, at once) still ends at `eventsPerInstant`.
    @Test func workWithoutEndAtOneInstantIsALivelock() {
        let sim = Self.simulator(step: .zero, resends: true)
        sim.call(.checkAuthentication)
        #expect(sim.run { sim.isIdle } == false)
        #expect(sim.livelock?.hasPrefix("livelock: more than \(Simulator.eventsPerInstant) events at 0ms") == true)
        #expect(sim.now == .simulationStart)
    }

    @Test func aRunThatNeverSettlesEndsAtTheEventBudget() {
        let sim = Self.simulator(step: Millis(1))
        sim.eventBudget = 5_000
        sim.call(.checkAuthentication)
        sim.run { sim.isIdle }
        #expect(sim.livelock == "livelock: more than 5000 events in one run, the last at 5001ms")
    }
}
