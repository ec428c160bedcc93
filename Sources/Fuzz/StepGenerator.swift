import Entitlement
import PassModel
import Scenario
import Simulation

/// Picks the next step of a fuzz run: any call in any state, well-formed or not (nil, unknown ids,
/// repeated and late calls), user actions the simulation can carry out now, network faults and clock
/// jumps. User steps are only chosen when their precondition holds, so that every step written replays.
struct StepGenerator {
    let world: FuzzWorld

    func next(_ rng: inout SeededRandom, _ sim: Simulator) -> String {
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

        // Half the time, a step that moves a flow forward when one waits: random calls alone rarely
        // get through a login (dialog, pick, login form, redirect), and the interesting edges are past it.
        if chance(0.7), let forward = progress(&rng, sim) { return forward }
        let user = userSteps(sim)
        let roll = rng.next() % 100
        if !user.isEmpty && roll < 30 { return pick(user) }
        if roll < 35 { return netStep(&rng) }
        if roll < 50 { return "clock +" + pick(["10ms", "50ms", "100ms", "1s", "10s", "31s", "5m", "31m", "2h"]) }

        let app = world.apps.count > 1 && chance(0.3) ? world.apps[1] + "> " : "> "
        // Drawn before the method, as they were before the vocabulary: seeded runs replay as they did.
        let anyMVPD = pick(world.mvpds.map(\.id) + ["Nope", "nil"])
        let resource = pick(FuzzWorld.resources)
        let slot = Int(rng.next() % UInt64(StepGenerator.slotCount))
        let name = Call.Name.allCases.first { StepGenerator.slots($0).contains(slot) } ?? .handleExternalURL
        return app + call(name, mvpd: anyMVPD, resource: resource, &rng)
    }

    /// How often the fuzzer calls each method: the slots of one draw it takes. Exhaustive, so that a
    /// new method of the vocabulary does not build until it is given its place here and a generator
    /// below. The slots are the draw the fuzzer made before the vocabulary (handleExternalURL twice,
    /// the two authorizations sharing a pair), so that every seeded run, and every figure and test
    /// measured with one, stays what it was.
    static func slots(_ name: Call.Name) -> [Int] {
        switch name {
        // The header's init is the only one an app makes; a second is outside the SDK's contract.
        // getVersion changes nothing (choice 48): no edge of the state machine to find, and a slot for
        // it would change every seeded run.
        case .initialize, .getVersion: return []
        case .setRequestor: return [0, 1]
        case .getAuthentication: return [2, 3]
        case .setSelectedProvider: return [4, 5]
        case .handleExternalURL: return [6, 16]
        case .checkAuthentication: return [7]
        // One pair for both: the generator draws which of the two.
        case .checkAuthorization, .getAuthorization: return [8, 9]
        case .checkPreauthorizedResources: return [10]
        case .getMetadata: return [11]
        case .logout: return [12]
        case .getSelectedProvider: return [13]
        case .setOptions: return [14]
        case .getAuthenticationToken: return [15]
        }
    }

    static let slotCount = Set(Call.Name.allCases.flatMap(slots)).count

    /// A call of `name` as a step writes it: well-formed or not (nil, unknown ids, missing resources).
    /// `mvpd` and `resource` are drawn for every call, whichever it is.
    func call(_ name: Call.Name, mvpd: String, resource: String, _ rng: inout SeededRandom) -> String {
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        let mvpdIDs = world.mvpds.map(\.id)
        switch name {
        case .initialize: return "init()"
        case .setRequestor:
            return "setRequestor(\"\(pick(world.requestors + ["NOPE"]))\"" + (chance(0.3) ? ", serviceProviders: [\(world.sps.joined(separator: ", "))])" : ")")
        case .getAuthentication:
            return pick(["getAuthentication()", "getAuthentication(forceAuthn: true)",
                         "getAuthentication(forceAuthn: false, withData: {email: \"f@z.z\"})",
                         "getAuthentication(filter: [\(mvpdIDs.joined(separator: ", "))])"])
        case .setSelectedProvider: return "setSelectedProvider(\(mvpd))"
        case .handleExternalURL: return "handleExternalURL(\"adobepass://ios.app\")"
        case .checkAuthentication: return "checkAuthentication()"
        case .checkAuthorization, .getAuthorization:
            return "\(pick([Call.Name.getAuthorization, .checkAuthorization]).rawValue)(\"\(resource)\")"
        case .checkPreauthorizedResources:
            // In a random order: an answer must keep the request's order, whatever it is.
            var asked = FuzzWorld.resources.filter { _ in chance(0.6) }
            asked.shuffle(using: &rng)
            return "checkPreauthorizedResources([\(asked.map { "\"\($0)\"" }.joined(separator: ", "))]" + (chance(0.3) ? ", cache: false)" : ")")
        case .getMetadata:
            return pick(["getMetadata({METADATA_OPCODE_KEY: METADATA_AUTHENTICATION})",
                         "getMetadata({METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: \"\(resource)\"})",
                         "getMetadata({METADATA_OPCODE_KEY: METADATA_DEVICE_ID})",
                         "getMetadata({METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: \"\(pick(["zip", "householdID", "none"]))\"})"])
        case .logout: return "logout()"
        case .getSelectedProvider: return "getSelectedProvider()"
        case .setOptions: return "setOptions({handleSVC: \(chance(0.5)), visitorID: \"v\(rng.next() % 9)\"})"
        case .getAuthenticationToken: return "getAuthenticationToken()"
        case .getVersion: return "getVersion()"
        }
    }

    private func progress(_ rng: inout SeededRandom, _ sim: Simulator) -> String? {
        func prefix(_ app: String) -> String { app == "app" ? "> " : app + "> " }
        // Time only runs on clock and user steps here (there is no `<` to wait on): let answers come.
        if !sim.isIdle && rng.next() % 3 == 0 { return "clock +1s" }
        if case .intercepted(let url) = sim.browser.state {
            return prefix(sim.browser.owner) + "handleExternalURL(\(Value.quote(url)))"
        }
        if case .showing(let url, _) = sim.browser.state {
            let host = URLParts(url)?.authority ?? ""
            if let u = world.users.first(where: { host.hasPrefix($0.mvpd.lowercased() + ".") }) {
                return "user login \"\(u.name)\" \"\(u.password)\""
            }
        }
        for i in sim.appNames.indices {
            guard let engine = sim.engine(app: i) else { continue }
            let app = prefix(sim.appNames[i])
            if let shown = engine.pickerShown {
                let pickable = shown.filter { $0.boardingStatus != .supported || world.user(for: $0.id) != nil }
                if let m = pickable.first { return "user pick \(m.id)" }
                return "user pick other"
            }
            if let code = engine.awaitingRegistrationCode, code == sim.lastRegistrationCode,
               let mvpd = engine.selectedMVPD, let u = world.user(for: mvpd.id) {
                return "user enter-code \"\(u.name)\" \"\(u.password)\""
            }
            guard let mvpds = engine.currentConfiguration?.mvpds, !mvpds.isEmpty else {
                if engine.queuedCalls.isEmpty, rng.next() % 3 == 0 { return app + "setRequestor(\"\(world.requestors[0])\")" }
                continue
            }
            if engine.isLoginWaiting {
                if engine.selectedMVPD?.promoTempPass == true {
                    return app + "getAuthentication(forceAuthn: false, withData: {email: \"f@z.z\"})"
                }
                if sim.browser.state == .closed {
                    let m = mvpds[Int(rng.next() % UInt64(mvpds.count))]
                    return app + "setSelectedProvider(\(m.id))"
                }
                continue
            }
            if engine.authnToken(at: sim.now) == nil {
                if rng.next() % 2 == 0 { return app + (rng.next() % 2 == 0 ? "getAuthentication()" : "getAuthorization(\"R1\")") }
                continue
            }
            let rs = FuzzWorld.resources.filter { _ in rng.next() % 3 != 0 }.map { "\"\($0)\"" }
            return app + (rng.next() % 2 == 0
                ? "checkPreauthorizedResources([\(rs.joined(separator: ", "))])"
                : "getAuthorization(\"\(FuzzWorld.resources[Int(rng.next() % 4)])\")")
        }
        return nil
    }

    private func userSteps(_ sim: Simulator) -> [String] {
        var steps: [String] = []
        if case .showing(let url, let page) = sim.browser.state {
            if page.forms.contains(where: { f in f.fields.contains { $0.name == "password" } }) {
                // The user of the IdP shown (or anyone: a wrong login shows the page again).
                let host = URLParts(url)?.authority ?? ""
                let right = world.users.first { host.hasPrefix($0.mvpd.lowercased() + ".") } ?? world.users.first
                if let u = right { steps += ["user login \"\(u.name)\" \"\(u.password)\"", "user login \"\(u.name)\" \"wrong\""] }
            }
        }
        if sim.browser.isStopped, sim.browser.state != .closed { steps.append("user back") }
        for i in sim.appNames.indices {
            guard let shown = sim.engine(app: i)?.pickerShown else { continue }
            for m in shown where m.boardingStatus != .supported || world.user(for: m.id) != nil {
                steps.append("user pick \(m.id)")
            }
            steps += ["user pick other", "user cancel"]
        }
        let waiting = sim.appNames.indices.contains { sim.engine(app: $0)?.awaitingRegistrationCode == sim.lastRegistrationCode }
        if sim.lastRegistrationCode != nil, waiting, let u = world.users.first {
            steps.append("user enter-code \"\(u.name)\" \"\(u.password)\"")
        }
        return steps
    }

    private func netStep(_ rng: inout SeededRandom) -> String {
        let target: String
        if rng.next() % 4 == 0, let m = world.mvpds.first(where: { $0.kind == .plain || $0.kind == .picker }) {
            target = "mvpd \(m.id)"
            return "net \(target) \(rng.next() % 2 == 0 ? "down" : "up")"
        }
        target = world.sps[Int(rng.next() % UInt64(world.sps.count))]
        switch rng.next() % 6 {
        case 0: return "net \(target) down"
        case 1, 2: return "net \(target) up"
        case 3: return "net \(target) silent"
        case 4: return "net \(target) latency \([5, 50, 500, 40_000][Int(rng.next() % 4)])ms"
        default: return "net \(target) fail \(1 + rng.next() % 3) status \([500, 503, 404, 401][Int(rng.next() % 4)])"
        }
    }
}
