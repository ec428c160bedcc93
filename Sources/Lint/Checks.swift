/// The checks that follow state through a journal.
extension Rules {
    /// The shortest access token lifetime Adobe shows (the DCR sample's `expires_in: 21600`, rest-api-v2.md 1.4).
    static let shortestTokenLife: Int64 = 21_600_000

    /// A token request while the client's previous token (same `client_id`) may still be valid: no
    /// 401 answered since, and less than the shortest lifetime gone.
    static func accessTokenRefetches(_ j: Journal) -> Findings {
        var last: [String: ClassifiedRequest] = [:]
        var found = Findings()
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
    static func configurationWhileAuthenticated(_ j: Journal) -> Findings {
        var authorized: [String: ClassifiedRequest] = [:]
        var found = Findings()
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
    /// but 429), after a REST v2 poll found the profile or a REST v1 check answered 200 (success),
    /// after the device polled a newer code, after the device was granted an authorization.
    ///
    /// Linear in the journal: only a device's newest code can still be polled without a stop (every
    /// older one was stopped when a newer one was first polled), so a grant stops that one code, not
    /// every code the device ever polled (which made a journal of one device's codes quadratic).
    static func pollingAfterStop(_ j: Journal) -> Findings {
        struct Code { var first: ClassifiedRequest; var stop: (ClassifiedRequest, String)? }
        var codes: [String: [String: Code]] = [:]
        var newest: [String: String] = [:]
        var found = Findings()
        var reported: Set<String> = []
        for e in j.entries {
            let device = e.device
            if e.v2?.operation == .authorize, e.succeeded == true {
                if let name = newest[device], var c = codes[device]?[name], c.stop == nil {
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
                // A v2 poll answers 200 every time; the one whose profiles are not empty is the success.
                if e.v2 != nil, s == 200, let found = e.profiles, !found.isEmpty {
                    c.stop = (e, "after it found the profile (success)")
                }
                if e.v2 == nil, s == 200 { c.stop = (e, "after it succeeded") }
            }
            codes[device, default: [:]][code] = c
        }
        return found
    }

    /// The calls of a run of one key that a violation shows: the first five (the call and four
    /// repeats), however long the run. Kept in place, so a run of a million refusals costs what five do;
    /// copying the run out of its dictionary and back made each call cost the run's length.
    struct Streak {
        var first: [ClassifiedRequest] = []
        var length = 0

        mutating func add(_ e: ClassifiedRequest) {
            length += 1
            if first.count < 5 { first.append(e) }
        }
    }

    /// More than 3 repeats of a decision call in a row after refusals (non-2xx answers).
    static func retries(_ calls: [ClassifiedRequest]) -> Findings {
        var streak: [String: Streak] = [:]
        var found = Findings()
        for c in calls {
            let key = c.device + " " + c.call
            if c.succeeded == true { streak[key] = nil; continue }
            streak[key, default: Streak()].add(c)
            // The first call and 3 retries are allowed; the 4th retry is reported, once per streak.
            if let s = streak[key], s.length == 5 {
                found.append(Violation("retried a refused decision more than 3 times", s.first))
            }
        }
        return found
    }

    /// Refusals (`ClassifiedRequest.refused`: 4xx but 401 and 429, or every decision refused) of the same
    /// call, repeated more than 3 times in a row by one device.
    static func refusalLoops(_ calls: [ClassifiedRequest]) -> Findings {
        var streak: [String: Streak] = [:]
        var found = Findings()
        for c in calls {
            let key = c.device + " " + c.call
            guard c.refused, let s = c.status else { streak[key] = nil; continue }
            streak[key, default: Streak()].add(c)
            let why = c.refusedInside ? "\(s), \(c.errorCode ?? "")" : "\(s)"
            if let run = streak[key], run.length == 5 {
                found.append(Violation("repeated a refused call (\(why)) more than 3 times", run.first))
            }
        }
        return found
    }

    /// More than 3 new authentication sessions within a minute from one device, reported once per
    /// device. Each device keeps a window of its opens of the last minute, oldest first, trimmed from
    /// the front (each open enters and leaves once), and nothing once it is reported: filtering the
    /// whole window on every open made a journal of one device's sessions quadratic.
    static func sessionStorms(_ opens: [ClassifiedRequest]) -> Findings {
        struct Window {
            var opens: [ClassifiedRequest] = []
            var head = 0
        }
        var windows: [String: Window] = [:]
        var reported: Set<String> = []
        var found = Findings()
        for o in opens {
            let device = o.device
            guard !reported.contains(device) else { continue }
            var w = windows.removeValue(forKey: device) ?? Window()
            while w.head < w.opens.count, o.time - w.opens[w.head].time >= 60_000 { w.head += 1 }
            // Compacted once half is behind the head: amortized O(1) an open.
            if w.head > 64, w.head * 2 > w.opens.count {
                w.opens.removeFirst(w.head)
                w.head = 0
            }
            w.opens.append(o)
            let recent = w.opens[w.head...]
            if recent.count > 3 {
                reported.insert(device)
                found.append(
                    Violation(
                        "\(recent.count) new authentication sessions within a minute, from one device", Array(recent)))
                continue
            }
            windows[device] = w
        }
        return found
    }
}
