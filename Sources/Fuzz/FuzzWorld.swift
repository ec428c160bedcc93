import PassModel
import ScenarioSyntax

/// A random world for one fuzz run, as `.scenario` header and world lines, plus the names the step
/// generator picks from. Every choice comes from the run's seeded generator.
///
/// The world is made twice over, as the lines a finding is written with and as the parsed file the
/// run starts from (`file`): parsing a world per run was a tenth of the fuzzer's time. FuzzTests
/// checks that `file` is what the lines parse to.
struct FuzzWorld {
    enum Kind: CaseIterable {
        case plain, picker, supported, tempPass, promo
    }

    struct User {
        var name: String
        var password: String
        var mvpd: String
    }

    var platform: Platform = .ios
    var apps: [String] = ["app"]
    var sps: [String] = []
    /// Each SP's declared latency (ms): what a `net SP latency` step goes back to when it heals.
    var spLatencies: [String: Int] = [:]
    var mvpds: [(id: String, kind: Kind)] = []
    var users: [User] = []
    var requestors: [String] = []
    /// REQ1's software statement, when the world declares one: the program starts with
    /// `init(softwareStatement:)` (SDK 3.x registration at every SP origin).
    var softwareStatement: String?
    /// The key pairs requestors declare (`key "PK" secret "SK"`): their second-screen calls must be
    /// signed with them (BEHAVIOR.md, "SDK 2.x tvOS: signed second-screen calls"), which the
    /// deprecated tvOS `setRequestor(…, secret:, publicKey:)` does.
    var keys: [String: Requestor.KeyPair] = [:]
    static let resources = ["R1", "R2", "R3", "R4"]
    var lines: [String] = []
    /// What the lines declare, made as they are written (`file`).
    private var seed: UInt64 = 0
    private var appDecls: [Located<String>] = []
    private var statements: [Located<WorldStatement>] = []

    static let path = "fuzz.scenario"

    /// The header and world as `StepParser` reads `lines` (no steps).
    var file: ScenarioFile {
        var file = ScenarioFile(
            path: FuzzWorld.path, title: "fuzz seed \(seed)", tags: ["fuzz"], platform: platform, seed: seed,
            apps: appDecls, world: statements)
        file.wire = wire
        return file
    }

    /// The wire the apps' engines speak (`passim fuzz --wire v2`): the header says `wire v2`, so a
    /// finding replays on it. The draws are the same on either wire: one seed, one world.
    var wire: EngineWire = .sdk

    /// Writes a line, and what it declares.
    private mutating func add(_ line: String, _ statement: WorldStatement) {
        lines.append(line)
        statements.append(located(statement, line))
    }

    private func located<T>(_ value: T, _ line: String) -> Located<T> {
        Located(value, location: SourceLocation(file: FuzzWorld.path, line: lines.count, column: 1), text: line)
    }

    /// Every latency the world and its `net` steps give is at most 10 ms (the same draws, the values
    /// capped): over a live network latencies are waited for, and the mock comparison of
    /// `passim fuzz --compare mock` runs each program against served mocks.
    var fastNetwork = false

    /// `latency`, capped when the network is fast.
    func latency(_ latency: Int) -> Int { fastNetwork ? min(latency, 10) : latency }

    static func random(
        _ rng: inout SeededRandom, seed: UInt64, fastNetwork: Bool = false, wire: EngineWire = .sdk,
        v2Edges: Bool = false
    ) -> FuzzWorld {
        var w = FuzzWorld()
        w.fastNetwork = fastNetwork
        w.wire = wire
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

        w.seed = seed
        w.lines = ["scenario \"fuzz seed \(seed)\"", "tags fuzz", "seed \(seed)"]
        if chance(0.2) {
            w.platform = .tvos
            w.lines.append("platform tvos")
        }
        if wire == .restV2 { w.lines.append("wire v2") }
        if chance(0.25) {
            w.apps.append("second")
            w.lines.append("app second")
            w.appDecls.append(w.located("second", "app second"))
        }
        let spCount = chance(0.4) ? 2 : 1
        for i in 1...spCount {
            let name = "s\(i)"
            w.sps.append(name)
            let latency = w.latency(pick([5, 10, 40, 120, 300]))
            w.spLatencies[name] = latency
            var decl = SPDecl(name: name, url: "https://\(name).sp.test", latency: Millis(Int64(latency)))
            var line = "sp \(name) \"\(decl.url)\" latency \(latency)ms"
            if chance(0.05) {
                line += " unreachable"
                decl.unreachable = true
            } else if chance(0.05) {
                line += " silent"
                decl.silent = true
            }
            w.add(line, .sp(decl))
        }
        let mvpdCount = 1 + Int(rng.next() % 3)
        for i in 1...mvpdCount {
            // Two apps share Apple's token on iOS: the first MVPD is often an Apple SSO one there
            // (an adopted token must keep where it came from: VSA203 on logout in the other app).
            let apple = i == 1 && w.apps.count > 1 && w.platform == .ios && chance(0.3)
            let kind: Kind = apple ? .supported : chance(0.55) ? .plain : pick(Kind.allCases)
            let id = (kind == .tempPass ? "T" : kind == .promo ? "P" : "M") + "\(i)"
            w.mvpds.append((id, kind))
            let at = spCount == 2 && chance(0.5) ? ["s1", "s2"] : [pick(w.sps)]
            var line = "mvpd \(id) \"\(id) TV\" at \(at.joined(separator: ", "))"
            var decl = MVPDDecl(id: id, displayName: "\(id) TV", sps: at)
            switch kind {
            case .plain:
                if chance(0.1) {
                    line += " svc"
                    decl.svc = true
                }
                if chance(0.1) {
                    let latency = w.latency(pick([50, 500, 5000]))
                    line += " idp-latency \(latency)ms"
                    decl.idpLatency = Millis(Int64(latency))
                }
                if chance(0.05) {
                    line += " idp-down"
                    decl.idpDown = true
                }
            case .picker:
                line += " sso picker"
                decl.sso = .picker
            case .supported:
                line += " sso supported"
                decl.sso = .supported
            case .tempPass:
                let ttl = pick([
                    (text: "2m", value: Millis.minutes(2)), (text: "30m", value: Millis.minutes(30)),
                    (text: "4h", value: Millis.hours(4)),
                ])
                line += " temppass \(ttl.text)"
                decl.tempPass = ttl.value
            case .promo:
                let ttl = pick([(text: "5m", value: Millis.minutes(5)), (text: "1h", value: Millis.hours(1))])
                line += " promo-temppass \(ttl.text)"
                decl.promoTempPass = ttl.value
            }
            w.add(line, .mvpd(decl))
            if kind != .tempPass && kind != .promo {
                let user = User(name: "u\(i)", password: "pw\(i)", mvpd: id)
                w.users.append(user)
                let allow = resources.filter { _ in chance(0.5) }
                let deny = resources.filter { !allow.contains($0) && chance(0.5) }
                var u = "user \(user.name) \"\(user.password)\" at \(id)"
                var decl = UserDecl(name: user.name, password: user.password, mvpd: id, allow: allow, deny: deny)
                if !allow.isEmpty { u += " allow " + allow.joined(separator: ", ") }
                if !deny.isEmpty {
                    u += " deny " + deny.joined(separator: ", ")
                    if chance(0.5) {
                        u += " \"No \(i)\""
                        decl.denyMessage = "No \(i)"
                    }
                }
                if chance(0.5) {
                    u += " meta zip=[\"1000\(i)\"] householdID=\"h\(i)\""
                    decl.meta = [
                        MetaEntry(key: "zip", value: .list([.string("1000\(i)")])),
                        MetaEntry(key: "householdID", value: .string("h\(i)")),
                    ]
                    if chance(0.5) {
                        u += " encrypted householdID"
                        decl.encrypted = ["householdID"]
                    }
                }
                w.add(u, .user(decl))
            }
        }
        let requestorCount = chance(0.3) ? 2 : 1
        for i in 1...requestorCount {
            let id = "REQ\(i)"
            w.requestors.append(id)
            var line = "requestor \(id)"
            var decl = RequestorDecl(id: id)
            // An authN token shorter-lived than the authZ tokens it backs (they are capped at its expiry).
            if chance(0.3) {
                let ttl = pick([(text: "10m", value: Millis.minutes(10)), (text: "2h", value: Millis.hours(2))])
                line += " authn-ttl \(ttl.text)"
                decl.authnTTL = ttl.value
            }
            if chance(0.3) {
                let ttl = pick([(text: "1m", value: Millis.minutes(1)), (text: "30m", value: Millis.minutes(30))])
                line += " authz-ttl \(ttl.text)"
                decl.authzTTL = ttl.value
            }
            if chance(0.2) {
                line += " device-id"
                decl.deviceID = true
            }
            // A code's own lifetime matters where codes are shown: mostly on tvOS.
            if chance(w.platform == .tvos ? 0.5 : 0.15) {
                let ttl = pick([(text: "1m", value: Millis.minutes(1)), (text: "5m", value: Millis.minutes(5))])
                line += " regcode-ttl \(ttl.text)"
                decl.regcodeTTL = ttl.value
            }
            // Some worlds register the app (SDK 3.x), access tokens that expire too.
            if i == 1, chance(0.12) {
                let statement = "ss-\(id)"
                line += " software-statement \"\(statement)\""
                decl.softwareStatement = statement
                w.softwareStatement = statement
                if chance(0.5) {
                    line += " token-ttl 10m"
                    decl.tokenTTL = .minutes(10)
                }
            }
            // Some requestors declare a signing key pair (mostly on tvOS, where the
            // registration-code calls are signed; elsewhere the pair only must not change anything).
            if chance(w.platform == .tvos ? 0.6 : 0.1) {
                let pair = Requestor.KeyPair(publicKey: "pk-\(id)", secret: "sk-\(id)")
                line += " key \"\(pair.publicKey)\" secret \"\(pair.secret)\""
                decl.key = pair
                w.keys[id] = pair
            }
            w.add(line, .requestor(decl))
        }
        if v2Edges { w.addRESTv2Edges(seed: seed) }
        return w
    }

    /// What only REST API v2 has, for `passim fuzz --wire v2` (the invariant and differential fuzzers;
    /// not `--parity`, whose worlds must mean the same on both wires): OAuth2 MVPDs, profiles that end
    /// before the requestor's authN TTL (the clock-step motif lands on them, as on every authN token's
    /// end), sessions (a tvOS code) that end sooner, and the MVPDs' own faults. Drawn from
    /// a generator of their own, after every other draw: the steps a seed generates stay those it
    /// generated before, on either wire, and the SDK wire's worlds are untouched.
    private mutating func addRESTv2Edges(seed: UInt64) {
        var rng = SeededRandom(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        for (id, kind) in mvpds where kind != .tempPass && kind != .promo {
            // An OAuth2 IdP for a browser login (the SAML one's callbacks are the same; its requests are not).
            if kind == .plain, chance(0.3) { add("rest-v2 oauth2 \(id)", .restV2(.oauth2(mvpd: id))) }
            if chance(0.3) {
                let ttl = pick([(text: "1m", value: Millis.minutes(1)), (text: "10m", value: Millis.minutes(10))])
                add("rest-v2 profile-ttl \(id) \(ttl.text)", .restV2(.profileTTL(mvpd: id, ttl: ttl.value)))
            }
            // No degradation: it permits what the user's lists deny, which the oracle's invariant 6 (a
            // preauthorization names only what the token's user may watch) does not know of.
            if chance(0.06) {
                let code = pick(["authorization_denied_by_hba_policies", "network_connection_timeout"])
                add("rest-v2 fault \(id) \(code)", .restV2(.fault(mvpd: id, code: code)))
            }
        }
        if chance(platform == .tvos ? 0.4 : 0.1) {
            let ttl = pick([(text: "1m", value: Millis.minutes(1)), (text: "3m", value: Millis.minutes(3))])
            add("rest-v2 session-ttl \(ttl.text)", .restV2(.sessionTTL(ttl.value)))
            sessionTTL = ttl.value
        }
    }

    /// The world's `rest-v2 session-ttl`, when it sets one (the step generator's session expiry).
    var sessionTTL: Millis?

    func user(for mvpd: String) -> User? { users.first { $0.mvpd == mvpd } }
}
