import Scenario

/// Shrinks a failing program to a small one that still fails the same way: delta debugging over the
/// steps (halves, quarters, … single steps), then over world lines and their options.
struct Shrinker {
    /// Does this candidate still fail the same way?
    let stillFails: (FuzzProgram) -> Bool
    /// Runs tried, a bound so that a shrink always ends.
    private(set) var attempts = 0
    static let maxAttempts = 2_000

    init(stillFails: @escaping (FuzzProgram) -> Bool) { self.stillFails = stillFails }

    /// Same failure key when explored from scratch.
    init(key: String) {
        self.init { $0.explore()?.failure?.key == key }
    }

    mutating func fails(_ p: FuzzProgram) -> Bool {
        attempts += 1
        return stillFails(p)
    }

    mutating func shrink(_ program: FuzzProgram) -> FuzzProgram {
        var best = program
        var chunk = max(1, best.steps.count / 2)
        while chunk >= 1 && attempts < Shrinker.maxAttempts {
            var removed = false
            var start = 0
            while start < best.steps.count && attempts < Shrinker.maxAttempts {
                var candidate = best
                candidate.steps.removeSubrange(start..<min(start + chunk, best.steps.count))
                if fails(candidate) {
                    best = candidate
                    removed = true
                } else {
                    start += chunk
                }
            }
            if !removed { chunk /= 2 }
        }
        // World lines: whole lines (the parser refuses a candidate whose names dangle), then options.
        var i = 0
        while i < best.world.count && attempts < Shrinker.maxAttempts {
            let line = best.world[i]
            if line.hasPrefix("scenario ") || line.hasPrefix("seed ") {
                i += 1
                continue
            }
            var candidate = best
            candidate.world.remove(at: i)
            if fails(candidate) {
                best = candidate
            } else {
                // Drop options one at a time until none can go.
                var changed = true
                while changed && attempts < Shrinker.maxAttempts {
                    changed = false
                    for simpler in Shrinker.simplerVersions(of: best.world[i]) where attempts < Shrinker.maxAttempts {
                        var c = best
                        c.world[i] = simpler
                        if fails(c) {
                            best = c
                            changed = true
                            break
                        }
                    }
                }
                i += 1
            }
        }
        return best
    }

    /// The line without one of its options (latency, faults, TTLs, metadata, ...).
    static func simplerVersions(of line: String) -> [String] {
        let options = [
            " latency \\S+", " unreachable", " silent", " idp-latency \\S+", " idp-down", " svc",
            " device-id", " authn-ttl \\S+", " authz-ttl \\S+", " regcode-ttl \\S+",
            " encrypted \\S+", " meta .*", " deny [^\"]*( \"[^\"]*\")?", " allow [^d]*",
        ]
        var out: [String] = []
        for option in options {
            guard let regex = try? Regex(option) else { continue }
            let simpler = line.replacing(regex, with: "", maxReplacements: 1)
            if simpler != line { out.append(simpler) }
        }
        return out
    }
}
