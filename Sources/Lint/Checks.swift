/// The checks that follow state through a journal.
extension Rules {
    /// The shortest access token lifetime Adobe shows (the DCR sample's `expires_in: 21600`, rest-api-v2.md 1.4).
    static let shortestTokenLife: Int64 = 21_600_000

    /// A token request while the client's previous token (same `client_id`) may still be valid: no
    /// 401 answered since, and less than the shortest lifetime gone.
    static func accessTokenRefetches(_ j: Journal) -> [Violation] {
        var last: [String: JournalEntry] = [:]
        var found: [Violation] = []
        for e in j.entries {
            if e.status == 401 { last = [:]; continue }
            guard e.route == .clientToken else { continue }
            let client = e.parameter("client_id") ?? "?"
            if let prev = last[client], e.time - prev.time < shortestTokenLife {
                found.append(
                    Violation(
                        "asked for a new access token \(Journal.seconds(e.time - prev.time)) after the last one, with no 401 between",
                        [prev, e]))
            }
            if e.succeeded == true { last[client] = e }
        }
        return found
    }

    /// How long a granted authorization shows the device authenticated (shorter than any authentication
    /// TTL a world sets in practice; past it the profile may have expired and the user may pick again).
    static let authenticatedWindow: Int64 = 1_800_000

    /// A configuration fetched by a device that holds an authorization (a permitted decision less
    /// than 30 minutes before, no logout since).
    static func configurationWhileAuthenticated(_ j: Journal) -> [Violation] {
        var authorized: [String: JournalEntry] = [:]
        var found: [Violation] = []
        for e in j.entries {
            guard let op = e.v2?.operation else { continue }
            switch op {
            case .authorize where e.succeeded == true: authorized[e.device] = e
            case .logout: authorized[e.device] = nil
            case .configuration:
                if let a = authorized[e.device], e.time - a.time < authenticatedWindow {
                    found.append(
                        Violation(
                            "fetched the configuration while authenticated (an authorization was granted before)",
                            [a, e]))
                }
            default: break
            }
        }
        return found
    }

    /// Polls of a code after polling should have stopped: after the code was refused (REST v2: a 4xx
    /// but 429), after a REST v1 check answered 200 (success), after the device polled a newer code,
    /// after the device was granted an authorization.
    static func pollingAfterStop(_ j: Journal) -> [Violation] {
        struct Code { var first: JournalEntry; var stop: (JournalEntry, String)? }
        var codes: [String: [String: Code]] = [:]
        var newest: [String: String] = [:]
        var found: [Violation] = []
        var reported: Set<String> = []
        for e in j.entries {
            let device = e.device
            if e.v2?.operation == .authorize, e.succeeded == true {
                for (name, var c) in codes[device] ?? [:] where c.stop == nil {
                    c.stop = (e, "after the device was granted an authorization (success)")
                    codes[device]?[name] = c
                }
                continue
            }
            guard let code = e.polledCode else { continue }
            var c = codes[device]?[code] ?? Code(first: e, stop: nil)
            if let (stop, why) = c.stop, !reported.contains(device + " " + code) {
                reported.insert(device + " " + code)
                found.append(Violation("polled code \(code) again \(why)", [stop, e]))
            }
            // A code polled for the first time is the device's newest: polling an older one must stop.
            if codes[device]?[code] == nil {
                if let old = newest[device], var oc = codes[device]?[old], oc.stop == nil {
                    oc.stop = (e, "after a newer code was polled")
                    codes[device]?[old] = oc
                }
                newest[device] = code
            }
            if c.stop == nil, let s = e.status {
                if e.v2 != nil, (400..<500).contains(s), s != 429 {
                    c.stop = (e, "after it was refused (expired or unknown)")
                }
                if e.v2 == nil, s == 200 { c.stop = (e, "after it succeeded") }
            }
            codes[device, default: [:]][code] = c
        }
        return found
    }

    /// More than 3 repeats of a decision call in a row after refusals (non-2xx answers).
    static func retries(_ calls: [JournalEntry]) -> [Violation] {
        var streak: [String: [JournalEntry]] = [:]
        var found: [Violation] = []
        for c in calls {
            let key = c.device + " " + c.path
            if c.succeeded == true { streak[key] = nil; continue }
            var s = streak[key] ?? []
            s.append(c)
            streak[key] = s
            // The first call and 3 retries are allowed; the 4th retry is reported, once per streak.
            if s.count == 5 { found.append(Violation("retried a refused decision more than 3 times", s)) }
        }
        return found
    }

    /// Refusals (`JournalEntry.refused`: 4xx but 401 and 429, or every decision refused) of the same
    /// call, repeated more than 3 times in a row by one device.
    static func refusalLoops(_ calls: [JournalEntry]) -> [Violation] {
        var streak: [String: [JournalEntry]] = [:]
        var found: [Violation] = []
        for c in calls {
            let key = c.device + " " + c.method + " " + c.path
            guard c.refused, let s = c.status else { streak[key] = nil; continue }
            var run = streak[key] ?? []
            run.append(c)
            streak[key] = run
            let why = c.refusedInside ? "\(s), \(c.errorCode ?? "")" : "\(s)"
            if run.count == 5 { found.append(Violation("repeated a refused call (\(why)) more than 3 times", run)) }
        }
        return found
    }
}
