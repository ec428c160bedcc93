import MockPass
import PassModel
import Simulation

/// What the step generator reads of the mock's request log: the latest request of each kind its
/// expiries and authorizations come from. The log grows through a run, and the generator read it
/// at many steps, from the newest entry back, recognising every path each time (and all of them
/// when a kind never occurred): the digest reads each entry once, when the generator next asks.
///
/// Entries are read by their sequence number in the mock's log (`RequestLog`, 1 for the first
/// request ever logged), which a log that drops its oldest entries keeps: the digest reads those
/// after the last it read, and forgets a request the log no longer keeps, as a scan of the log would
/// not find it. An entry is final when the generator sees it: the mock records its answer while
/// handling it, and journals an injected failure with its status, both within the step that sent it.
struct RequestLogDigest {
    /// A request and its sequence number in the log.
    struct Entry {
        var sequence: Int
        var request: LoggedRequest
    }

    /// The latest authorization the SP answered with no injected failure, whatever its status
    /// (`StepGenerator.lastAuthorized`).
    private(set) var authorization: Entry?
    /// The latest of each kind answered with a 2xx and no injected failure: an authorization
    /// (`authorizeDevice`), a short media token, an SDK 3.x access token (a POST), a registration
    /// code (a POST), and on REST API v2 a session and an authorization decision.
    private(set) var authorized: Entry?
    private(set) var media: Entry?
    private(set) var token: Entry?
    private(set) var code: Entry?
    private(set) var session: Entry?
    private(set) var decision: Entry?

    /// Whether the v2 routes are recognised too (the generator's world is on REST API v2).
    let v2: Bool
    /// The sequence number of the last entry read, and how many entries the log had dropped then.
    private var read = 0
    private var dropped = 0

    init(v2: Bool) { self.v2 = v2 }

    /// Reads what the simulation's log gained since the last update.
    mutating func update(_ sim: Simulator) {
        guard let log = sim.sequencedRequestLog else {
            // Another wire's log has no sequence numbers: read all of it, as a scan would.
            self = RequestLogDigest(v2: v2)
            update(sim.requestLog, dropped: 0)
            return
        }
        update(log.entries, dropped: log.dropped)
    }

    /// Reads what a log gained: `entries`, the ones it keeps (oldest first), after the `dropped`
    /// oldest it let go of.
    mutating func update(_ entries: [LoggedRequest], dropped: Int) {
        // Not the log read so far (a log never gets back what it dropped, nor loses what it keeps
        // but by dropping it): read this one from its start.
        if dropped + entries.count < read || dropped < self.dropped { self = RequestLogDigest(v2: v2) }
        if dropped > self.dropped {
            forget(upTo: dropped)
            self.dropped = dropped
        }
        for i in max(read - dropped, 0)..<entries.count { note(entries[i], sequence: dropped + 1 + i) }
        read = dropped + entries.count
    }

    /// Lets go of the requests the log dropped (sequence numbers up to `dropped`).
    private mutating func forget(upTo dropped: Int) {
        func kept(_ entry: Entry?) -> Entry? { entry.flatMap { $0.sequence > dropped ? $0 : nil } }
        authorization = kept(authorization)
        authorized = kept(authorized)
        media = kept(media)
        token = kept(token)
        code = kept(code)
        session = kept(session)
        decision = kept(decision)
    }

    /// The fixed text every path of each route kept contains (`Route.pathEnding`).
    private static let endings = [Route.authorizeDevice, .deviceShortAuthorize, .clientToken, .registrationCode].map(
        \.pathEnding)

    /// Reads one entry, newer than any read before.
    private mutating func note(_ request: LoggedRequest, sequence: Int) {
        guard request.fault == nil else { return }
        // Only a path that contains one of the kept routes' fixed endings can be one of them:
        // most are not (configurations, logins, IdP pages), and recognising a path tries every route.
        let route =
            RequestLogDigest.endings.contains { request.path.containsBytes($0) }
            ? Route.recognise(path: request.path)?.route : nil
        if route == .authorizeDevice { authorization = Entry(sequence: sequence, request: request) }
        guard (request.status ?? 200) / 100 == 2 else { return }
        // Made only for an entry kept: most are not.
        func entry() -> Entry { Entry(sequence: sequence, request: request) }
        switch route {
        case .authorizeDevice?: authorized = entry()
        case .deviceShortAuthorize?: media = entry()
        case .clientToken? where request.method == "POST": token = entry()
        case .registrationCode? where request.method == "POST": code = entry()
        default: break
        }
        guard v2 else { return }
        switch V2Route(method: request.method, path: request.path) {
        case .createSession?: session = entry()
        case .authorize?: decision = entry()
        default: break
        }
    }
}
