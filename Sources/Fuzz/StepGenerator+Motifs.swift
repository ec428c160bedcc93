import Entitlement
import PassModel
import ScenarioSyntax
import Simulation

private typealias Text = StepText

/// The generator's motifs: shapes of a few steps that independent draws almost
/// never line up, though each is an everyday event for an app, and each is where a port goes wrong:
///
/// - a token changed under a request in flight (`underATokenChange`): a preauthorization or an
///   authorization left out (its SP silent, or slower than what follows, or answered just before),
///   then a new token (a TempPass selected, a login over the token held, or the other app's token
///   adopted at `setRequestor`), then the same request again and the wait for the first one's answer;
/// - the other app set up again (`relaunch`, two iOS apps): an app whose token is not the shared
///   store's calls `setRequestor` (it adopts the other's, or loses its own after the other's logout)
///   and then uses it; or, holding nothing, logs out (which clears the shared store);
/// - an expiry met by a call (`useAfterEdge`): after a clock step onto an expiry, a call that uses
///   what expires, at that instant.
///
/// A motif returns its first step and plans the rest (`plan`), taken before anything else is drawn;
/// the steps of a motif are calls, `net` and clock steps only (always performable), and the login
/// a motif starts is moved along by `loginStep` before its later steps (`Planned.afterLogin`).
/// Everything is drawn from the run's generator: a seed still gives one program.
extension StepGenerator {
    /// The planned step to take now, if any: the login under way first when the plan's head waits
    /// for it (at most `loginPatience` steps: a login that cannot end does not hold the plan).
    mutating func planned(_ rng: inout SeededRandom, _ sim: Simulator) -> Step? {
        guard let head = plan.first else { return nil }
        if head.afterLogin, waited < StepGenerator.loginPatience, let step = loginStep(&rng, sim) {
            waited += 1
            return step
        }
        plan.removeFirst()
        waited = 0
        return head.step
    }

    /// The step that moves a login under way along (any app's), nil when none is.
    func loginStep(_ rng: inout SeededRandom, _ sim: Simulator) -> Step? {
        // Read once: each read copies the browser out of the simulation.
        let browser = sim.browser
        if case .intercepted(let url) = browser.state {
            let handOver = Text.call(browser.owner, .handleExternalURL, [Text.arg(.string(url))])
            if handOver != last { return handOver }
        }
        if case .showing(let url, _) = browser.state {
            let host = URLParts(url)?.authority ?? ""
            guard let u = world.users.first(where: { host.hasPrefix($0.mvpd.lowercased() + ".") }) else { return nil }
            return .userLogin(user: u.name, password: u.password)
        }
        for i in sim.appNames.indices {
            let app = sim.appNames[i]
            let step =
                sim.reading(app: i) { engine -> Step? in
                    if let shown = engine.pickerShown {
                        let pickable = shown.filter { $0.boardingStatus != .supported || world.user(for: $0.id) != nil }
                        return pickable.first.map { .userPick(mvpd: $0.id, asUser: nil) } ?? .userPickOther
                    }
                    guard engine.isLoginWaiting else { return nil }
                    // Requests of the login on their way (or another's): let them come.
                    if !sim.isIdle { return .clock(.seconds(1)) }
                    if let code = engine.awaitingRegistrationCode, code == sim.lastRegistrationCode,
                        let mvpd = engine.selectedMVPD, let u = world.user(for: mvpd.id)
                    {
                        return .userEnterCode(user: u.name, password: u.password)
                    }
                    if engine.selectedMVPD?.promoTempPass == true {
                        return Text.call(app, .getAuthentication, promoArguments(&rng))
                    }
                    guard browser.state == .closed, let mvpds = engine.currentConfiguration?.mvpds, !mvpds.isEmpty
                    else { return nil }
                    let m = mvpds[Int(rng.next() % UInt64(mvpds.count))]
                    return Text.call(app, .setSelectedProvider, [Text.arg(Text.word(m.id))])
                } ?? nil
            if let step { return step }
        }
        return nil
    }

    /// A request of app `app` (a preauthorization of `asked`, or an authorization of `resource`)
    /// and a new token while it is out or just after: its first step; the rest is planned.
    mutating func underATokenChange(
        app: String, asked: [String], resource: String, _ rng: inout SeededRandom, _ sim: Simulator
    ) -> Step {
        let preauthorizes = rng.next() % 2 == 0
        let request =
            preauthorizes
            ? Text.call(app, .checkPreauthorizedResources, [Text.arg(.list(asked.map { .string($0) }))])
            : Text.call(
                app, rng.next() % 3 == 0 ? .checkAuthorization : .getAuthorization, [Text.arg(.string(resource))])
        if preauthorizes { lastPreauthorized = asked }
        let sps = world.sps.map { NetTarget.sp($0) }
        var steps: [Planned] = []
        // How the request is left: sent while its SP is silent (it times out at 30 s, after
        // everything below); still on its way while what follows is faster (a shorter latency from
        // now on); or answered just before the token changes (a second's wait).
        let left = rng.next() % 8
        let silent = left < 2
        if silent {
            steps += sps.map { Planned(step: .net($0, .silent)) } + [Planned(step: request)]
            steps += sps.map { Planned(step: .net($0, .up)) }
        } else if left < 5 {
            steps += [Planned(step: request)] + sps.map { Planned(step: .net($0, .latency(Millis(5)))) }
        } else {
            steps += [Planned(step: request), Planned(step: .clock(.seconds(1)))]
        }
        // The new token: a login over the one held, a TempPass selected (a promotional one asks for
        // its e-mail: `loginStep`), or, where the shared store holds another app's, adopted at
        // setRequestor. The last two, twice as likely: they come in a step or two, while a request
        // is still out; a login takes a few user steps.
        var changes = [Text.call(app, .getAuthentication, [Text.arg("forceAuthn", .bool(true))])]
        for m in world.mvpds where m.kind == .tempPass || m.kind == .promo {
            changes += Array(repeating: Text.call(app, .setSelectedProvider, [Text.arg(Text.word(m.id))]), count: 2)
        }
        if let i = sim.appIndex(app), storeDiffers(app: i, sim) { changes += [setRequestor(app), setRequestor(app)] }
        steps.append(Planned(step: changes[Int(rng.next() % UInt64(changes.count))]))
        // Once the new token is there: the same request again (the new token's cache fills; a
        // failure of the first must answer nothing from it), and a wait past the SDK's 30 s timeout.
        if rng.next() % 3 != 0 {
            steps += [Planned(step: .clock(.seconds(1)), afterLogin: true), Planned(step: request, afterLogin: true)]
        }
        if silent || rng.next() % 3 == 0 { steps.append(Planned(step: .clock(.seconds(31)), afterLogin: true)) }
        plan += steps.dropFirst()
        return steps[0].step
    }

    /// Two iOS apps: an app whose token is not the shared store's (configured, nothing queued, no
    /// login under way) is set up again and then uses what it holds; or, holding nothing while the
    /// store holds a token, logs out. nil when no app qualifies.
    mutating func relaunch(_ rng: inout SeededRandom, _ sim: Simulator) -> Step? {
        guard world.platform == .ios, sim.appNames.count > 1 else { return nil }
        let apps = sim.appNames.indices.filter { i in
            storeDiffers(app: i, sim)
                && (sim.reading(app: i) { e in
                    e.currentConfiguration != nil && e.queuedCalls.isEmpty && !e.isLoginWaiting
                } ?? false)
        }
        guard !apps.isEmpty else { return nil }
        let i = apps[Int(rng.next() % UInt64(apps.count))]
        let app = sim.appNames[i]
        let now = sim.now
        let holds = (sim.reading(app: i) { $0.authnToken(at: now) != nil } ?? false)
        if !holds, rng.next() % 2 == 0 { return Text.call(app, .logout) }
        // Then it uses what it adopted; a third of the time it logs out (what came from Apple's
        // token says so: VSA203).
        plan.append(Planned(step: rng.next() % 3 == 0 ? Text.call(app, .logout) : use(app: app, &rng, sim)))
        return setRequestor(app)
    }

    /// Whether app `i`'s valid authN token is not the one the shared store holds (iOS).
    func storeDiffers(app i: Int, _ sim: Simulator) -> Bool {
        guard world.platform == .ios else { return false }
        let now = sim.now
        let stored = sim.sharedStores[world.wire]?.token
        let held = sim.reading(app: i) { $0.authnToken(at: now)?.guid } ?? nil
        return held != stored?.guid && (held != nil || (stored.map { $0.expires > now } ?? false))
    }

    /// The call right after a clock step onto expiry `at`: one that uses what may just have
    /// expired. An app's authN token: a call of that app; another expiry (an authZ or media token's,
    /// a code's, an access token's): most often the authorization of the resource last authorized,
    /// which its cached authZ token serves, or no longer does.
    mutating func useAfterEdge(_ at: Instant, _ rng: inout SeededRandom, _ sim: Simulator) -> Step {
        let authn = sim.appNames.indices.filter { i in
            let now = sim.now
            return (sim.reading(app: i) { $0.authnToken(at: now)?.expires } ?? nil) == at
        }
        let app = sim.appNames[authn.first ?? Int(rng.next() % UInt64(sim.appNames.count))]
        if authn.isEmpty, let resource = lastAuthorized(sim), rng.next() % 3 != 0 {
            return Text.call(
                app, rng.next() % 2 == 0 ? .getAuthorization : .checkAuthorization, [Text.arg(.string(resource))])
        }
        return use(app: app, &rng, sim)
    }

    /// A call of app `app` that uses its tokens: an authorization of what it played last, a
    /// preauthorization of what it showed last, what the token says, a check, or a logout.
    mutating func use(app: String, _ rng: inout SeededRandom, _ sim: Simulator) -> Step {
        let resource = lastAuthorized(sim) ?? "R1"
        switch rng.next() % 6 {
        case 0, 1:
            return Text.call(
                app, rng.next() % 2 == 0 ? .getAuthorization : .checkAuthorization, [Text.arg(.string(resource))])
        case 2:
            let asked = lastPreauthorized ?? FuzzWorld.resources
            return Text.call(app, .checkPreauthorizedResources, [Text.arg(.list(asked.map { .string($0) }))])
        case 3:
            return Text.call(
                app, .getMetadata,
                [
                    Text.arg(
                        .dict([
                            Text.constantKey("METADATA_OPCODE_KEY", Text.word("METADATA_AUTHORIZATION")),
                            Text.constantKey("METADATA_RESOURCE_ID_KEY", .string(resource)),
                        ]))
                ])
        case 4: return Text.call(app, .checkAuthentication)
        default: return Text.call(app, .logout)
        }
    }

    /// `setRequestor` of the first requestor, signed with its pair where it declares one.
    func setRequestor(_ app: String) -> Step {
        let id = world.requestors[0]
        return Text.call(
            app, .setRequestor, [Text.arg(.string(id))] + (world.keys[id] == nil ? [] : signed(id, wrong: false)))
    }
}
