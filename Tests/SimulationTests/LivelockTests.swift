import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

/// An engine that re-arms a timer at the same instant every time one fires, for ever: the runtime
/// must stop it and say so, not hang.
struct LivelockEngine: AppEngine {
    var inner: Engine
    /// 0: at the same instant; otherwise this much later (time moves but never settles).
    let step: Millis
    var next = 1_000_000

    mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] {
        var actions = inner.step(input, at: now)
        switch input {
        case .call, .timer:
            next += 1
            actions.append(.startTimer(TimerID(next), at: now + step))
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
    static func simulator(step: Millis) -> Simulator {
        let configuration = OracleMutantTests.configuration
        return Simulator(
            OracleMutantTests.setup, engines: [LivelockEngine(inner: Engine(configuration: configuration), step: step)])
    }

    @Test func aTimerReArmedAtTheSameInstantIsALivelock() {
        let sim = Self.simulator(step: .zero)
        sim.call(.checkAuthentication)
        #expect(sim.run { sim.isIdle } == false, "the run stops without settling")
        #expect(sim.livelock?.hasPrefix("livelock: more than \(Simulator.eventsPerInstant) events at 0ms") == true)
        #expect(sim.now == .simulationStart, "time never moved")
        // Nothing runs once stopped: `clock +D` returns too.
        sim.advance(by: .seconds(1))
        #expect(sim.livelock != nil)
    }

    @Test func aRunThatNeverSettlesEndsAtTheEventBudget() {
        let sim = Self.simulator(step: Millis(1))
        sim.eventBudget = 5_000
        sim.call(.checkAuthentication)
        sim.run { sim.isIdle }
        #expect(sim.livelock == "livelock: more than 5000 events in one run, the last at 5001ms")
    }
}
