import Entitlement
import MockPass
import PassModel
import Scenario
import ScenarioSyntax
import Simulation

/// Picks the next step of a fuzz run: any call in any state, well-formed or not (nil, unknown ids,
/// repeated and late calls), user actions the simulation can carry out now, network faults and clock
/// jumps. User steps are only chosen when their precondition holds, so that every step written replays.
///
/// Steps are made typed (`Step`, what the runner performs), not as text to parse: text is only
/// rendered (`StepText`) when a program is written out. Every draw from `rng` is made in the order the
/// text generator made it; motifs add some (a clock step onto an expiry: authN, authZ and media
/// tokens, the registration code; a resource named twice in a preauthorization; a signed
/// `setRequestor` where the world declares key pairs), so seeded runs differ from those of earlier builds.
struct StepGenerator {
    let world: FuzzWorld
    private typealias T = StepText

    /// A step a motif planned (StepGenerator+Motifs.swift): taken before anything else is drawn. `afterLogin`: only once no login is under way; until then the steps that move the
    /// login along come first (at most `StepGenerator.loginPatience` of them).
    struct Planned: Hashable {
        var step: Step
        var afterLogin = false
    }

    /// What the motifs under way still have to do, in order (the rare shapes
    /// — a token changed under a request in flight, the other app set up again, an expiry met by a
    /// call — are a few steps each, which independent draws almost never line up).
    var plan: [Planned] = []
    /// Login steps taken while the plan's head waits for a login to end.
    var waited = 0
    /// The resources of the latest preauthorization the generator's flows asked: an app asks again
    /// for what it showed (the cache answers, or must not after a new token).
    var lastPreauthorized: [String]?

    static let loginPatience = 8

    /// What the generator has read of the mock's request log (`expiries`, `lastAuthorized`).
    var log: RequestLogDigest

    /// The MVPD a random call names: one the world declares, one it does not, or nil (made once,
    /// not at every random call).
    let anyMVPDs: [String]

    init(world: FuzzWorld) {
        self.world = world
        log = RequestLogDigest(v2: world.wire == .restV2)
        anyMVPDs = world.mvpds.map(\.id) + ["Nope", "nil"]
    }

    /// The step the generator made last: an interception already handed to the app is not handed
    /// over again (an app that expected none leaves the browser where it is, and the same
    /// `handleExternalURL` step after step was some 3% of all steps).
    var last: Step?
    /// How many steps the generator has made, and the links to heal when that count is reached
    /// (`healLater`), in the order they were planned.
    var made = 0
    var heals: [(due: Int, step: Step)] = []

    mutating func next(_ rng: inout SeededRandom, _ sim: Simulator) -> Step {
        let step: Step
        if let due = heals.firstIndex(where: { $0.due <= made }) {
            step = heals.remove(at: due).step
        } else {
            step = draw(&rng, sim)
        }
        last = step
        made += 1
        return step
    }

    private mutating func draw(_ rng: inout SeededRandom, _ sim: Simulator) -> Step {
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<E>(_ xs: [E]) -> E { xs[Int(rng.next() % UInt64(xs.count))] }

        if let planned = planned(&rng, sim) { return planned }
        // Two iOS apps, one of them holding what the shared store does not: now and then it is set
        // up again (or logs out, holding nothing) (StepGenerator+Motifs.swift).
        if world.apps.count > 1, rng.next() % 3 == 0, let relaunched = relaunch(&rng, sim) { return relaunched }
        // Now and then a clock step that lands exactly on an expiry (an authN, authZ or media token's,
        // a code's), or 1 ms before it: the instant a token is valid and the next, when it is gone
        //. Most of the time a call that uses what expires follows at once, before
        // time moves: the edge is seen only by a call made at that instant. Drawn before the steps
        // that move flows (which take most steps once a flow is under way).
        if chance(0.06), let edge = expiryEdge(sim, before: chance(0.4), &rng) {
            if rng.next() % 4 != 0 { plan.append(Planned(step: useAfterEdge(edge.at, &rng, sim))) }
            return .clock(edge.left)
        }
        // Half the time, a step that moves a flow forward when one waits: random calls alone rarely
        // get through a login (dialog, pick, login form, redirect), and the interesting edges are past it.
        if chance(0.7), let forward = progress(&rng, sim) { return forward }
        let user = userSteps(sim)
        let roll = rng.next() % 100
        if !user.isEmpty && roll < 30 { return pick(user) }
        // Faults one step in ten: a fault meets a request only if one follows before the link heals.
        if roll < 40 { return netStep(&rng) }
        if roll < 55 { return .clock(pick(StepGenerator.clockJumps)) }

        let app = world.apps.count > 1 && chance(0.3) ? world.apps[1] : nil
        // Drawn before the method, as they were before the vocabulary: seeded runs replay as they did.
        let anyMVPD = pick(anyMVPDs)
        let resource = pick(FuzzWorld.resources)
        let name = StepGenerator.slotNames[Int(rng.next() % UInt64(StepGenerator.slotCount))]
        return .call(app: app, call(name, mvpd: anyMVPD, resource: resource, &rng))
    }

    /// How long until one of the expiries ahead, drawn among them (or 1 ms less): the instant a token
    /// or code is still valid and the next, when it is gone. nil when none is ahead.
    /// `at`: the expiry drawn.
    private mutating func expiryEdge(
        _ sim: Simulator, before: Bool, _ rng: inout SeededRandom
    ) -> (left: Millis, at: Instant)? {
        let ahead = expiries(sim).filter { $0 > sim.now }
        guard let nearest = ahead.min() else { return nil }
        // Half the time the nearest: what expires next is what an app meets first.
        let at = rng.next() % 2 == 0 ? nearest : ahead[Int(rng.next() % UInt64(ahead.count))]
        let left = at - sim.now
        return (before && left.value > 1 ? Millis(left.value - 1) : left, at)
    }

    /// The expiries the run has reached so far, in a fixed order: each app's authN token (read from
    /// its engine); and, read from the mock's request log and the world's TTLs as the mock computes
    /// them (`SDKFamily.authorizeDevice`, `SDKFamily.createRegistrationCode`), the latest registration
    /// code's `notAfter`, the latest authZ token's and the latest short media token's.
    mutating func expiries(_ sim: Simulator) -> [Instant] {
        var out: [Instant] = []
        var authn: Instant?
        for i in sim.appNames.indices {
            let now = sim.now
            if let expires = sim.reading(app: i, { $0.authnToken(at: now)?.expires }) ?? nil {
                out.append(expires)
                authn = authn ?? expires
            }
        }
        func requestor(_ r: LoggedRequest) -> Requestor? {
            let id =
                r.parameters.first { $0.name == "requestor_id" || $0.name == "requestor" }?.value
                ?? r.path.split(separator: "/").dropFirst(2).first.map(String.init)
            return world.file.world.lazy.compactMap { s -> Requestor? in
                if case .requestor(let d) = s.value, d.id == id { return d }
                return nil
            }.first
        }
        // The latest answered request of each kind, each entry of the log read once (`log`): the
        // log grows with the run, and this is read at many steps.
        log.update(sim)
        let authz = log.authorized?.request, media = log.media?.request, token = log.token?.request
        let session = log.session?.request, decision = log.decision?.request
        if let code = registrationCodeExpiry(sim) { out.append(code) }
        if let authz {
            let ttl = requestor(authz)?.authzTTL ?? .hours(24)
            let capped = authn.map { min(authz.time + ttl, $0) } ?? authz.time + ttl
            out.append(capped.wholeSeconds)
        }
        if let media { out.append(media.time + .minutes(5)) }
        // The SDK 3.x access token (the mock's `expires_in`: the requestor's token-ttl, else 6 h):
        // the instant the engine must fetch a new one before its next request.
        if let token {
            let ttl = world.file.world.lazy.compactMap { s -> Millis? in
                if case .requestor(let d) = s.value, d.softwareStatement != nil { return d.tokenTTL }
                return nil
            }.first
            out.append(token.time + (ttl ?? .hours(6)))
        }
        if log.v2 { out += v2Expiries(session: session, decision: decision, authn: authn, requestor: requestor) }
        return out
    }

    /// The latest registration code's `notAfter` (the requestor's regcode-ttl, else 30 min, from
    /// its request), nil when none was answered.
    mutating func registrationCodeExpiry(_ sim: Simulator) -> Instant? {
        log.update(sim)
        guard let code = log.code?.request else { return nil }
        let id =
            code.parameters.first { $0.name == "requestor_id" || $0.name == "requestor" }?.value
            ?? code.path.split(separator: "/").dropFirst(2).first.map(String.init)
        let ttl = world.file.world.lazy.compactMap { s -> Millis? in
            if case .requestor(let d) = s.value, d.id == id { return d.regcodeTTL }
            return nil
        }.first
        return code.time + (ttl ?? .minutes(30))
    }

    /// REST API v2's expiries, from the v2 requests answered (the SDK's routes above are never sent
    /// on v2): the latest session's code (`notAfter`, RESTv2Options.sessionTTL), the latest
    /// authorization decision's (the requestor's authZ TTL capped at the profile's end) and its media
    /// token's (RESTv2Options.mediaTokenTTL, the expiry getMetadata reports on v2).
    private func v2Expiries(
        session: LoggedRequest?, decision: LoggedRequest?, authn: Instant?, requestor: (LoggedRequest) -> Requestor?
    ) -> [Instant] {
        let options = RESTv2Options()
        var out: [Instant] = []
        if let session { out.append(session.time + (world.sessionTTL ?? options.sessionTTL)) }
        if let decision {
            let ttl = requestor(decision)?.authzTTL ?? .hours(24)
            out.append(authn.map { min(decision.time + ttl, $0) } ?? decision.time + ttl)
            out.append(decision.time + options.mediaTokenTTL)
        }
        return out
    }

    static let clockJumps = [
        Millis(10), Millis(50), Millis(100), .seconds(1), .seconds(10), .seconds(31), .minutes(5),
        .minutes(31), .hours(2),
    ]

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

    /// The method of each slot (`slots`), looked up at every random call.
    static let slotNames = (0..<slotCount).map { slot in
        Call.Name.allCases.first { slots($0).contains(slot) } ?? .handleExternalURL
    }

    /// A call of `name` as a step writes it: well-formed or not (nil, unknown ids, missing resources).
    /// `mvpd` and `resource` are drawn for every call, whichever it is.
    func call(_ name: Call.Name, mvpd: String, resource: String, _ rng: inout SeededRandom) -> CallSyntax {
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<E>(_ xs: [E]) -> E { xs[Int(rng.next() % UInt64(xs.count))] }
        // The vocabulary's name (`Call.Name`), never a literal.
        func syntax(_ name: Call.Name, _ arguments: [ArgumentSyntax] = []) -> CallSyntax {
            CallSyntax(name: name.rawValue, arguments: arguments, location: StepText.location)
        }
        switch name {
        case .initialize: return syntax(.initialize)
        case .setRequestor:
            let id = pick(world.requestors + ["NOPE"])
            let requestor = T.arg(.string(id))
            var arguments =
                chance(0.3) ? [requestor, T.arg("serviceProviders", .list(world.sps.map(T.word)))] : [requestor]
            // Where the world declares key pairs, the deprecated tvOS variant that signs the second-screen
            // calls: with the requestor's pair, or now and then a wrong secret (the mock answers 401).
            // Not on v2, which knows no request signature (DCR only, rest-api-v2.md 1.4): the draws are
            // made all the same, so one seed gives one world and one program shape on either wire.
            if !world.keys.isEmpty, chance(0.5) {
                let signed = signing(id, wrong: chance(0.2))
                if world.wire == .sdk { arguments += signed }
            }
            return syntax(.setRequestor, arguments)
        case .getAuthentication:
            let all = [
                [], [T.arg("forceAuthn", .bool(true))],
                promoArguments(&rng),
                [T.arg("filter", .list(world.mvpds.map { T.word($0.id) }))],
                [featuredFilter(&rng)],
            ]
            return syntax(.getAuthentication, pick(all))
        case .setSelectedProvider:
            // An id the world does not declare is a string: a bare name must be one it declares.
            let declared = world.mvpds.contains { $0.id == mvpd }
            return syntax(.setSelectedProvider, [T.arg(declared || mvpd == "nil" ? T.word(mvpd) : .string(mvpd))])
        case .handleExternalURL: return syntax(.handleExternalURL, [T.arg(.string("adobepass://ios.app"))])
        case .checkAuthentication: return syntax(.checkAuthentication)
        case .checkAuthorization, .getAuthorization:
            let which = pick([Call.Name.getAuthorization, .checkAuthorization])
            return syntax(which, [T.arg(.string(resource))] + (chance(0.3) ? StepGenerator.authzData : []))
        case .checkPreauthorizedResources:
            // In a random order: an answer must keep the request's order, whatever it is.
            var asked = FuzzWorld.resources.filter { _ in chance(0.6) }
            asked.shuffle(using: &rng)
            // Sometimes a resource named twice (CONFORMANCE choice 37: answered twice).
            if chance(0.15), let first = asked.first { asked.append(first) }
            let list = T.arg(.list(asked.map { .string($0) }))
            return syntax(.checkPreauthorizedResources, chance(0.3) ? [list, T.arg("cache", .bool(false))] : [list])
        case .getMetadata:
            func opcode(_ symbol: String) -> DictEntrySyntax { T.constantKey("METADATA_OPCODE_KEY", T.word(symbol)) }
            // The user-meta key is drawn whichever request is picked (the text generator wrote all four first).
            let userMetaKey = pick(["zip", "householdID", "none"])
            let all: [[DictEntrySyntax]] = [
                [opcode("METADATA_AUTHENTICATION")],
                [opcode("METADATA_AUTHORIZATION"), T.constantKey("METADATA_RESOURCE_ID_KEY", .string(resource))],
                [opcode("METADATA_DEVICE_ID")],
                [opcode("METADATA_USER_META"), T.constantKey("METADATA_USER_META_KEY", .string(userMetaKey))],
            ]
            return syntax(.getMetadata, [T.arg(.dict(pick(all)))])
        case .logout: return syntax(.logout)
        case .getSelectedProvider: return syntax(.getSelectedProvider)
        case .setOptions:
            let handleSVC = chance(0.5)
            let visitor = "v\(rng.next() % 9)"
            return syntax(
                .setOptions,
                [
                    T.arg(
                        .dict([
                            DictEntrySyntax("handleSVC", .bool(handleSVC)),
                            DictEntrySyntax("visitorID", .string(visitor)),
                        ]))
                ])
        case .getAuthenticationToken: return syntax(.getAuthenticationToken)
        case .getVersion: return syntax(.getVersion)
        }
    }

    /// `secret:` and `publicKey:` for requestor `id`: its declared pair (or the first declared, for a
    /// requestor without one), with a secret that signs wrongly when `wrong`.
    func signing(_ id: String, wrong: Bool) -> [ArgumentSyntax] {
        guard let pair = world.keys[id] ?? world.keys.sorted(by: { $0.key < $1.key }).first?.value else { return [] }
        return [
            T.arg("secret", .string(wrong ? pair.secret + "-wrong" : pair.secret)),
            T.arg("publicKey", .string(pair.publicKey)),
        ]
    }

    /// `signing`'s arguments on the SDK's wire; none on v2, where no request is signed.
    func signed(_ id: String, wrong: Bool) -> [ArgumentSyntax] {
        world.wire == .sdk ? signing(id, wrong: wrong) : []
    }

    private mutating func progress(_ rng: inout SeededRandom, _ sim: Simulator) -> Step? {
        // Time only runs on clock and user steps here (there is no `<` to wait on): let answers come.
        // Now and then a wait past the SDK's 30 s request timeout (BEHAVIOR.md, Timeouts), so that a
        // silent SP's requests time out between two steps rather than at the end of the run.
        if !sim.isIdle && rng.next() % 3 == 0 { return .clock(rng.next() % 8 == 0 ? .seconds(31) : .seconds(1)) }
        // Read once: each read copies the browser out of the simulation.
        let browser = sim.browser
        if case .intercepted(let url) = browser.state {
            let handOver = T.call(browser.owner, .handleExternalURL, [T.arg(.string(url))])
            if handOver != last { return handOver }
        }
        if case .showing(let url, _) = browser.state {
            let host = URLParts(url)?.authority ?? ""
            if let u = world.users.first(where: { host.hasPrefix($0.mvpd.lowercased() + ".") }) {
                return .userLogin(user: u.name, password: u.password)
            }
        }
        // From an app drawn at random: with two apps, the second moves its own flows too (logins,
        // logouts, adoption of the first's token through the shared store).
        let first = Int(rng.next() % UInt64(sim.appNames.count))
        for k in sim.appNames.indices {
            let i = (first + k) % sim.appNames.count
            // Read in place: a copy of the engine per app and step was a visible share of a run.
            if let step = sim.reading(app: i, { engine in forward(app: sim.appNames[i], engine, &rng, sim) }) ?? nil {
                return step
            }
        }
        return nil
    }

    /// The step that moves app `app`'s flow forward, read from its engine; nil when none does.
    private mutating func forward(app: String, _ engine: Engine, _ rng: inout SeededRandom, _ sim: Simulator) -> Step? {
        if let shown = engine.pickerShown {
            let pickable = shown.filter { $0.boardingStatus != .supported || world.user(for: $0.id) != nil }
            if let m = pickable.first { return .userPick(mvpd: m.id, asUser: nil) }
            return .userPickOther
        }
        if let code = engine.awaitingRegistrationCode, code == sim.lastRegistrationCode {
            // One time in three the user takes a while: the polls go on, meet faults and the code's expiry.
            guard rng.next() % 3 != 0 else { return nil }
            if let mvpd = engine.selectedMVPD, let u = world.user(for: mvpd.id) {
                return .userEnterCode(user: u.name, password: u.password)
            }
        }
        guard let mvpds = engine.currentConfiguration?.mvpds, !mvpds.isEmpty else {
            // Mostly the app's first call (a third of the programs never got a configuration).
            if rng.next() % 3 != 0 {
                // A requestor with a key pair is set up signed (its regcode calls are refused otherwise),
                // one time in four with a wrong secret: the login that follows must be refused (REG500).
                let id = world.requestors[0]
                let wrong = rng.next() % 4 == 0
                return T.call(
                    app, .setRequestor, [T.arg(.string(id))] + (world.keys[id] == nil ? [] : signed(id, wrong: wrong)))
            }
            return nil
        }
        if engine.isLoginWaiting {
            if engine.selectedMVPD?.promoTempPass == true {
                return T.call(app, .getAuthentication, promoArguments(&rng))
            }
            if sim.browser.state == .closed {
                let m = mvpds[Int(rng.next() % UInt64(mvpds.count))]
                return T.call(app, .setSelectedProvider, [T.arg(T.word(m.id))])
            }
            return nil
        }
        if engine.authnToken(at: sim.now) == nil {
            // A login is usually carried through (and then what it is for: StepGenerator+Motifs):
            // a random step in the middle of one (a fault, another call) most often ends it, and
            // few programs held a token at all (some 8% of one-app iOS programs of 30 steps).
            let which = rng.next() % 12
            if which < 7, rng.next() % 4 != 0 { plan.append(Planned(step: use(app: app, &rng, sim), afterLogin: true)) }
            switch which {
            case 0, 1, 2: return T.call(app, .getAuthentication)
            // Where the world has Apple SSO MVPDs, the picker they make (featured or not).
            case 3: return T.call(app, .getAuthentication, [featuredFilter(&rng)])
            case 4, 5, 6: return T.call(app, .getAuthorization, [T.arg(.string("R1"))])
            // A logout with no valid token: after its expiry, or in an app that never logged in
            // (the shared store still holds the other app's token on iOS).
            case 7: return T.call(app, .logout)
            default: return nil
            }
        }
        var asked = FuzzWorld.resources.filter { _ in rng.next() % 3 != 0 }
        // Half the time what the app asked last (its cache answers it, or must not after a new
        // token); one time in six a resource named twice (CONFORMANCE choice 37: answered twice).
        if rng.next() % 2 == 0, let last = lastPreauthorized { asked = last }
        if rng.next() % 6 == 0, let first = asked.first { asked.append(first) }
        let rs = asked.map { ValueSyntax.string($0) }
        // Half the time the resource last authorized (an app asks for what it plays again): its
        // cached authZ token serves, or has just expired on an expiry edge.
        let drawn = FuzzWorld.resources[Int(rng.next() % 4)]
        let again = rng.next() % 2 == 0 ? lastAuthorized(sim) : nil
        let resource = again ?? drawn
        // One request in six meets a fault: an SP failure planned right before it (a fault drawn
        // among the steps meets a request only when one follows before the link heals).
        func meetingAFault(_ request: Step) -> Step {
            guard rng.next() % 6 == 0 else { return request }
            plan.append(Planned(step: request))
            let sp = world.sps[Int(rng.next() % UInt64(world.sps.count))]
            return .net(.sp(sp), .fail(count: 1, path: nil, status: [500, 503, 429][Int(rng.next() % 3)]))
        }
        switch rng.next() % 16 {
        case 0, 1, 2:
            lastPreauthorized = asked
            // A quarter of them without the cache too.
            let cache = rng.next() % 4 == 0 ? [T.arg("cache", .bool(false))] : []
            return meetingAFault(T.call(app, .checkPreauthorizedResources, [T.arg(.list(rs))] + cache))
        // Without the cache: a failed request must not answer from it (CONFORMANCE choice 37's neighbour).
        case 3:
            lastPreauthorized = asked
            return meetingAFault(
                T.call(app, .checkPreauthorizedResources, [T.arg(.list(rs)), T.arg("cache", .bool(false))]))
        case 4, 5, 6:
            return meetingAFault(
                T.call(
                    app, rng.next() % 3 == 0 ? .checkAuthorization : .getAuthorization,
                    [T.arg(.string(resource))] + (rng.next() % 3 == 0 ? StepGenerator.authzData : [])))
        case 7, 8:
            // What the token says: its authZ expiry, or the user's metadata (encrypted keys included).
            func opcode(_ symbol: String) -> DictEntrySyntax { T.constantKey("METADATA_OPCODE_KEY", T.word(symbol)) }
            let request =
                rng.next() % 2 == 0
                ? [opcode("METADATA_AUTHORIZATION"), T.constantKey("METADATA_RESOURCE_ID_KEY", .string(resource))]
                : [
                    opcode("METADATA_USER_META"),
                    T.constantKey("METADATA_USER_META_KEY", .string(rng.next() % 2 == 0 ? "householdID" : "zip")),
                ]
            return T.call(app, .getMetadata, [T.arg(.dict(request))])
        case 9:
            // The app set up again (as at each launch): on iOS it reads the shared store then (a
            // token another app left there, or that another app's logout cleared).
            // Signed where the requestor has a key pair, with a wrong secret one time in five.
            let id = world.requestors[0]
            let wrong = rng.next() % 5 == 0
            return T.call(
                app, .setRequestor, [T.arg(.string(id))] + (world.keys[id] == nil ? [] : signed(id, wrong: wrong)))
        case 10, 11, 12, 13:
            // A request, and the token changed while it is out (StepGenerator+Motifs.swift).
            return underATokenChange(app: app, asked: asked, resource: resource, &rng, sim)
        default:
            // Now and then a logout, or a login over the token held (forceAuthn): either way the next
            // token is a new one (caches cleared, TempPass again).
            return rng.next() % 2 == 0
                ? T.call(app, .logout) : T.call(app, .getAuthentication, [T.arg("forceAuthn", .bool(true))])
        }
    }

    /// The resource of the latest authorization the SP answered, if any.
    mutating func lastAuthorized(_ sim: Simulator) -> String? {
        log.update(sim)
        return log.authorization?.request.parameters.first { $0.name == "resource_id" }?.value
    }

    /// `withData:` of an authorization: sent as the authorize request's generic_data.
    static let authzData = [T.arg("withData", .dict([DictEntrySyntax("rating", .string("PG"))]))]

    /// The dictionary filter of a login: TV_PROVIDERS a subset of the MVPDs, FEATURED_TV_PROVIDERS
    /// another (a featured MVPD not in TV_PROVIDERS is dropped: BEHAVIOR.md, Apple SSO).
    private func featuredFilter(_ rng: inout SeededRandom) -> ArgumentSyntax {
        let ids = world.mvpds.map(\.id)
        let shown = ids.filter { _ in rng.next() % 10 < 7 }, featured = ids.filter { _ in rng.next() % 2 == 0 }
        return T.arg(
            "filter",
            .dict([
                T.constantKey("TV_PROVIDERS", .list(shown.map(T.word))),
                T.constantKey("FEATURED_TV_PROVIDERS", .list(featured.map(T.word))),
            ]))
    }

    /// A promotional TempPass login's arguments: one of two e-mails (each e-mail has its own pass).
    func promoArguments(_ rng: inout SeededRandom) -> [ArgumentSyntax] {
        [
            T.arg("forceAuthn", .bool(false)),
            T.arg("withData", .dict([DictEntrySyntax("email", .string(rng.next() % 2 == 0 ? "f@z.z" : "g@z.z"))])),
        ]
    }

    private func userSteps(_ sim: Simulator) -> [Step] {
        var steps: [Step] = []
        let browser = sim.browser
        if case .showing(let url, let page) = browser.state {
            if page.forms.contains(where: { f in f.fields.contains { $0.name == "password" } }) {
                // The user of the IdP shown (or anyone: a wrong login shows the page again).
                let host = URLParts(url)?.authority ?? ""
                let right = world.users.first { host.hasPrefix($0.mvpd.lowercased() + ".") } ?? world.users.first
                if let u = right {
                    steps += [
                        .userLogin(user: u.name, password: u.password), .userLogin(user: u.name, password: "wrong"),
                    ]
                }
            }
        }
        if browser.isStopped, browser.state != .closed { steps.append(.userBack) }
        // Whether an app waits for the code shown: read with its picker, one read of each engine.
        var waiting = false
        for i in sim.appNames.indices {
            let (shown, code) = sim.reading(app: i, { ($0.pickerShown, $0.awaitingRegistrationCode) }) ?? (nil, nil)
            if code == sim.lastRegistrationCode { waiting = true }
            guard let shown else { continue }
            for m in shown where m.boardingStatus != .supported || world.user(for: m.id) != nil {
                steps.append(.userPick(mvpd: m.id, asUser: nil))
            }
            steps += [.userPickOther, .userCancel]
        }
        if sim.lastRegistrationCode != nil, waiting, let u = world.users.first {
            steps.append(.userEnterCode(user: u.name, password: u.password))
        }
        return steps
    }

    private mutating func netStep(_ rng: inout SeededRandom) -> Step {
        if rng.next() % 4 == 0, let m = world.mvpds.first(where: { $0.kind == .plain || $0.kind == .picker }) {
            let down = rng.next() % 2 == 0
            if down { healLater(.net(.mvpd(m.id), .up), &rng) }
            return .net(.mvpd(m.id), down ? .down : .up)
        }
        let name = world.sps[Int(rng.next() % UInt64(world.sps.count))]
        let target = NetTarget.sp(name)
        switch rng.next() % 7 {
        case 0:
            healLater(.net(target, .up), &rng)
            return .net(target, .down)
        case 1, 2: return .net(target, .up)
        case 3:
            healLater(.net(target, .up), &rng)
            return .net(target, .silent)
        case 4:
            let latency = world.latency([5, 50, 500, 40_000][Int(rng.next() % 4)])
            if latency > 1000 { healLater(.net(target, .latency(Millis(Int64(world.spLatencies[name] ?? 5)))), &rng) }
            return .net(target, .latency(Millis(Int64(latency))))
        default:  // the likeliest: failures meet the next requests, whichever flow sends them
            let count = 1 + Int(rng.next() % 3)
            return .net(target, .fail(count: count, path: nil, status: [500, 503, 404, 401, 429][Int(rng.next() % 5)]))
        }
    }

    /// An outage is mostly a while (two times in three): the link heals a few steps later. An
    /// outage to the end of the program left most programs without a login.
    private mutating func healLater(_ heal: Step, _ rng: inout SeededRandom) {
        guard rng.next() % 3 != 0 else { return }
        heals.append((due: made + 1 + Int(rng.next() % 5), step: heal))
    }
}
