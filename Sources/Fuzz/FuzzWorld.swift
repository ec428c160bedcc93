import PassModel

/// A random world for one fuzz run, as `.scenario` header and world lines, plus the names the step
/// generator picks from. Every choice comes from the run's seeded generator.
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
    var mvpds: [(id: String, kind: Kind)] = []
    var users: [User] = []
    var requestors: [String] = []
    static let resources = ["R1", "R2", "R3", "R4"]
    var lines: [String] = []

    static func random(_ rng: inout SeededRandom, seed: UInt64) -> FuzzWorld {
        var w = FuzzWorld()
        func chance(_ p: Double) -> Bool { Double(rng.next() % 1000) < p * 1000 }
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

        w.lines = ["scenario \"fuzz seed \(seed)\"", "tags fuzz", "seed \(seed)"]
        if chance(0.2) {
            w.platform = .tvos
            w.lines.append("platform tvos")
        }
        if chance(0.25) {
            w.apps.append("second")
            w.lines.append("app second")
        }
        let spCount = chance(0.4) ? 2 : 1
        for i in 1...spCount {
            let name = "s\(i)"
            w.sps.append(name)
            var line = "sp \(name) \"https://\(name).sp.test\" latency \(pick([5, 10, 40, 120, 300]))ms"
            if chance(0.05) { line += " unreachable" } else if chance(0.05) { line += " silent" }
            w.lines.append(line)
        }
        let mvpdCount = 1 + Int(rng.next() % 3)
        for i in 1...mvpdCount {
            let kind: Kind = chance(0.55) ? .plain : pick(Kind.allCases)
            let id = (kind == .tempPass ? "T" : kind == .promo ? "P" : "M") + "\(i)"
            w.mvpds.append((id, kind))
            let at = spCount == 2 && chance(0.5) ? "s1, s2" : pick(w.sps)
            var line = "mvpd \(id) \"\(id) TV\" at \(at)"
            switch kind {
            case .plain:
                if chance(0.1) { line += " svc" }
                if chance(0.1) { line += " idp-latency \(pick([50, 500, 5000]))ms" }
                if chance(0.05) { line += " idp-down" }
            case .picker: line += " sso picker"
            case .supported: line += " sso supported"
            case .tempPass: line += " temppass \(pick(["2m", "30m", "4h"]))"
            case .promo: line += " promo-temppass \(pick(["5m", "1h"]))"
            }
            w.lines.append(line)
            if kind != .tempPass && kind != .promo {
                let user = User(name: "u\(i)", password: "pw\(i)", mvpd: id)
                w.users.append(user)
                let allow = resources.filter { _ in chance(0.5) }
                let deny = resources.filter { !allow.contains($0) && chance(0.5) }
                var u = "user \(user.name) \"\(user.password)\" at \(id)"
                if !allow.isEmpty { u += " allow " + allow.joined(separator: ", ") }
                if !deny.isEmpty { u += " deny " + deny.joined(separator: ", ") + (chance(0.5) ? " \"No \(i)\"" : "") }
                if chance(0.5) { u += " meta zip=[\"1000\(i)\"] householdID=\"h\(i)\"" + (chance(0.5) ? " encrypted householdID" : "") }
                w.lines.append(u)
            }
        }
        let requestorCount = chance(0.3) ? 2 : 1
        for i in 1...requestorCount {
            let id = "REQ\(i)"
            w.requestors.append(id)
            var line = "requestor \(id)"
            if chance(0.15) { line += " authn-ttl \(pick(["10m", "2h"]))" }
            if chance(0.15) { line += " authz-ttl \(pick(["1m", "30m"]))" }
            if chance(0.2) { line += " device-id" }
            if chance(0.15) { line += " regcode-ttl \(pick(["1m", "5m"]))" }
            w.lines.append(line)
        }
        return w
    }

    func user(for mvpd: String) -> User? { users.first { $0.mvpd == mvpd } }
}
