import Scenario

/// Shrinks a failing program to a small one that still fails the same way: delta debugging over the
/// steps (halves, quarters, … single steps), then over world lines and their options.
struct Shrinker {
    /// Does this candidate still fail the same way?
    let stillFails: (FuzzProgram) -> Bool
    /// Runs tried, a bound so that a shrink always ends.
    private(set) var attempts = 0
    static let maxAttempts = 2_000
    /// When shrinking must stop, in real time (nil: never). A try against a port may cost the whole
    /// of `--port-timeout`, or a program's wall, so counting tries alone does not bound a shrink.
    var deadline: ContinuousClock.Instant?
    /// Shrinking stopped at `deadline`: the program is smaller, maybe not the smallest.
    private(set) var cut = false

    init(stillFails: @escaping (FuzzProgram) -> Bool, deadline: ContinuousClock.Instant? = nil) {
        self.stillFails = stillFails
        self.deadline = deadline
    }

    /// Same failure key when explored from scratch.
    init(key: String) {
        self.init { $0.explore()?.failure?.key == key }
    }

    mutating func fails(_ p: FuzzProgram) -> Bool {
        guard more else { return false }
        attempts += 1
        let failed = stillFails(p)
        // A try that ran past the deadline does not count, failed or not: it may have been cut short
        // by the budget itself (a program's wall shortened to what is left of it).
        if let deadline, ContinuousClock.now >= deadline {
            cut = true
            return false
        }
        return failed
    }

    /// Whether another try may run: tries are left, and time.
    var more: Bool { attempts < Shrinker.maxAttempts && !cut }

    mutating func shrink(_ program: FuzzProgram) -> FuzzProgram {
        var best = program
        var chunk = max(1, best.steps.count / 2)
        while chunk >= 1 && more {
            var removed = false
            var start = 0
            while start < best.steps.count && more {
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
        while i < best.world.count && more {
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
                while changed && more {
                    changed = false
                    for simpler in Shrinker.simplerVersions(of: best.world[i]) where more {
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
