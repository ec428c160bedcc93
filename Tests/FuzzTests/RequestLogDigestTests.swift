import MockPass
import PassModel
import Simulation
import Testing

@testable import Fuzz
@testable import Scenario

/// The step generator reads the mock's request log through a digest (`RequestLogDigest`) that reads
/// each entry once: at every step of real runs, on both wires, it must find what a scan of the
/// whole log finds, however far apart its updates are.
@Suite struct RequestLogDigestTests {
    /// The latest entry of `log` the generator's expiries and authorizations read, by a scan.
    static func scan(_ log: [LoggedRequest], v2: Bool) -> [String: LoggedRequest] {
        func route(_ r: LoggedRequest) -> Route? { Route.recognise(path: r.path)?.route }
        func answered(_ r: LoggedRequest) -> Bool { r.fault == nil && (r.status ?? 200) / 100 == 2 }
        let kinds: [String: (LoggedRequest) -> Bool] = [
            "authorization": { $0.fault == nil && route($0) == .authorizeDevice },
            "authorized": { answered($0) && route($0) == .authorizeDevice },
            "media": { answered($0) && route($0) == .deviceShortAuthorize },
            "token": { answered($0) && $0.method == "POST" && route($0) == .clientToken },
            "code": { answered($0) && $0.method == "POST" && route($0) == .registrationCode },
            "session": {
                guard v2, answered($0), case .createSession? = V2Route(method: $0.method, path: $0.path) else {
                    return false
                }
                return true
            },
            "decision": {
                guard v2, answered($0), case .authorize? = V2Route(method: $0.method, path: $0.path) else {
                    return false
                }
                return true
            },
        ]
        return kinds.compactMapValues { kind in log.last(where: kind) }
    }

    /// The digest's latest entries, by the same names.
    static func found(_ digest: RequestLogDigest) -> [String: LoggedRequest] {
        let entries: [String: RequestLogDigest.Entry?] = [
            "authorization": digest.authorization, "authorized": digest.authorized, "media": digest.media,
            "token": digest.token, "code": digest.code, "session": digest.session, "decision": digest.decision,
        ]
        return entries.compactMapValues { $0?.request }
    }

    @Test(arguments: [EngineWire.sdk, .restV2])
    func theDigestFindsWhatAScanOfTheLogFinds(wire: EngineWire) {
        var kindsSeen = Set<String>()
        for seed in UInt64(1)...150 {
            var rng = SeededRandom(seed: seed)
            let world = FuzzWorld.random(&rng, seed: seed, wire: wire, v2Edges: wire == .restV2)
            let session = ExplorationSession(file: world.file, writesLines: false, typedResponses: true)
            var generator = StepGenerator(world: world)
            // Read at every step, every seventh step, and once at the end.
            var everyStep = RequestLogDigest(v2: wire == .restV2), nowAndThen = everyStep, once = everyStep
            let sim = session.simulator
            if let statement = world.softwareStatement {
                session.perform(
                    StepText.located(
                        StepText.call(nil, .initialize, [StepText.arg("softwareStatement", .string(statement))])))
            }
            for step in 0..<40 {
                session.perform(StepText.located(generator.next(&rng, sim)))
                if session.stopped || session.failed { break }
                let expected = Self.scan(sim.requestLog, v2: wire == .restV2)
                kindsSeen.formUnion(expected.keys)
                everyStep.update(sim)
                #expect(Self.found(everyStep) == expected, "seed \(seed), step \(step)")
                if step % 7 == 6 {
                    nowAndThen.update(sim)
                    #expect(Self.found(nowAndThen) == expected, "seed \(seed), step \(step)")
                }
            }
            once.update(sim)
            #expect(Self.found(once) == Self.scan(sim.requestLog, v2: wire == .restV2), "seed \(seed)")
            // The same log kept by a log that drops its oldest entries (`RequestLog`'s caps): what it
            // dropped is forgotten.
            let log = sim.requestLog
            for keep in [1, 3, 8] {
                var windowed = RequestLogDigest(v2: wire == .restV2)
                for end in log.indices {
                    let start = max(0, end + 1 - keep)
                    let window = Array(log[start...end])
                    windowed.update(window, dropped: start)
                    #expect(
                        Self.found(windowed) == Self.scan(window, v2: wire == .restV2),
                        "seed \(seed), entries \(start)...\(end)")
                }
            }
        }
        // The runs met every kind the wire has, so each was compared.
        let kinds: Set =
            wire == .sdk
            ? ["authorization", "authorized", "media", "token", "code"]
            : ["session", "decision"]
        #expect(kinds.isSubset(of: kindsSeen), "\(kindsSeen)")
    }
}
