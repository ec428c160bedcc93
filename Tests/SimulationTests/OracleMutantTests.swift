import Entitlement
import MockPass
import PassModel
import Testing
@testable import Simulation

/// passim's engine behind a wrapper that alters its actions, as a port with that bug would: the
/// oracle must catch each alteration in a simulated run, and pass the faithful engine.
struct MutantEngine: AppEngine {
    var inner: Engine
    let mutate: @Sendable ([EngineAction]) -> [EngineAction]

    mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction] { mutate(inner.step(input, at: now)) }
    var pickerShown: [MVPD]? { inner.pickerShown }
    var reference: Engine? { inner }
    var failure: EngineFailure? { nil }
}

@Suite struct OracleMutantTests {
    static let configuration = EngineConfiguration(defaultServiceProvider: "https://sp.test")
    static let setup: SimulationSetup = {
        let sp = World.ServiceProvider(name: "main", url: "https://sp.test", mvpds: [MVPD(id: "X", displayName: "X")])
        let world = World(
            serviceProviders: [sp], identityProviders: [World.IdentityProvider(mvpdID: "X")],
            users: [World.User(name: "u", password: "p", mvpdID: "X", allow: ["R1"])],
            requestors: [World.Requestor(id: "R")])
        return SimulationSetup(world: world, seed: 7, engine: configuration)
    }()

    /// A queued check, a browser login, two authorizations (the second from the cache), a
    /// preauthorization, a logout through the browser: the keys of what the oracle found.
    static func run(_ mutate: @escaping @Sendable ([EngineAction]) -> [EngineAction] = { $0 }) -> [String] {
        let sim = Simulator(setup, engines: [MutantEngine(inner: Engine(configuration: configuration), mutate: mutate)])
        sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
        sim.call(.checkAuthentication)
        sim.run { sim.isIdle }
        sim.call(.getAuthentication(forceAuthn: false, data: nil, filter: nil))
        sim.call(.setSelectedProvider("X"))
        sim.run { sim.browser.isStopped }
        _ = sim.userLogin(user: "u", password: "p")
        sim.run { sim.browser.isStopped }
        sim.call(.handleExternalURL("adobepass://ios.app"))
        sim.run { sim.isIdle }
        for _ in 0..<2 {
            sim.call(.getAuthorization(resource: "R1", data: nil))
            sim.run { sim.isIdle }
        }
        sim.call(.checkPreauthorizedResources(["R2", "R1"], cache: false))
        sim.run { sim.isIdle }
        sim.call(.logout)
        sim.run { sim.browser.isStopped }
        sim.call(.handleExternalURL("adobepass://ios.app"))
        sim.run { sim.isIdle }
        sim.checkSettled()
        sim.checkQuiescent()
        return sim.violations.map(\.key)
    }

    @Test func theFaithfulEnginePasses() {
        #expect(OracleMutantTests.run() == [])
    }

    @Test func droppedTrackingIsCaught() {
        let found = OracleMutantTests.run { actions in
            actions.filter {
                if case .deliver(.sendTrackingData(Constants.trackingAuthorization, _)) = $0 {
                    return false
                } else {
                    return true
                }
            }
        }
        #expect(found.first == "property tracking")
    }

    @Test func queuedCallsAnsweredBeforeSetRequestorCompleteAreCaught() {
        let found = OracleMutantTests.run { actions in
            let complete = actions.filter {
                if case .deliver(.setRequestorComplete) = $0 { return true } else { return false }
            }
            return actions.filter { !complete.contains($0) } + complete
        }
        #expect(found.first == "invariant 5")
    }

    @Test func aDuplicatedTokenIsCaught() {
        let found = OracleMutantTests.run { actions in
            actions.flatMap { a -> [EngineAction] in
                if case .deliver(.setToken) = a { return [a, a] }
                return [a]
            }
        }
        // The first copy is not followed by its tracking (found first); the second is owed to nobody.
        #expect(found.prefix(2) == ["property tracking", "invariant 3"])
    }

    @Test func trackingAfterItsFlowEndedIsCaught() {
        // The authorization's tracking moved before its terminal callback.
        let found = OracleMutantTests.run { actions in
            var out = actions
            if let t = out.firstIndex(where: {
                if case .deliver(.sendTrackingData(Constants.trackingAuthorization, _)) = $0 {
                    return true
                } else {
                    return false
                }
            }),
                t > 0
            {
                out.swapAt(t, t - 1)
            }
            return out
        }
        #expect(found.first == "property tracking")
    }

    @Test func aReusedTimerIsCaught() {
        let found = OracleMutantTests.run { actions in
            actions.map { a in
                if case .startTimer(_, let at) = a { return .startTimer(TimerID(1), at: at) }
                return a
            }
        }
        #expect(found.first == "property timers")
    }

    /// The simulated runtime fires every timer it is given; one set beyond the quiet period that
    /// ends a run (faults healed, three hours) is one the engine leaked.
    @Test func aTimerNeverCancelledNorFiredIsCaught() {
        func leftover(_ mutate: @escaping @Sendable ([EngineAction]) -> [EngineAction]) -> [String] {
            let sim = Simulator(
                OracleMutantTests.setup,
                engines: [MutantEngine(inner: Engine(configuration: OracleMutantTests.configuration), mutate: mutate)])
            sim.call(.setRequestor(requestorID: "R", serviceProviders: nil))
            sim.advance(by: .hours(3))
            return sim.checkQuiescent().map { [$0.key] } ?? []
        }
        #expect(leftover { $0 } == [])
        #expect(
            leftover { actions in
                actions
                    + actions.compactMap { a in
                        if case .startTimer(let id, let at) = a {
                            return .startTimer(TimerID(id.value + 1_000), at: at + .hours(100))
                        }
                        return nil
                    }
            } == ["property timers"])
    }
}
