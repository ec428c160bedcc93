import PassModel

// The network conditions of a host, shared by both runtimes: the simulated network models them
// (Simulation's `SimulatedNetwork`), the live server enforces them for real (Live's `MockPassServer`).
// They live here, below both, because a scenario's `sp … latency/unreachable/silent` and `net …`
// steps mean the same thing to either.

/// How a host's link behaves (SCENARIO-FORMAT.md `sp … unreachable/silent`, `net SP down/up/silent`).
public enum LinkMode: String, Hashable, Sendable, CaseIterable {
    case up
    /// The listener is closed: connections are refused at once.
    case down
    /// Connections are accepted and requests read, but never answered.
    case silent
}

/// `net SP fail N [/path/] [status S]`: the next `remaining` requests whose host-relative path matches
/// `pathPattern` (a whole match of a `LinearRegex`, which cannot backtrack; nil matches every path) get
/// `status` instead of the mock.
public struct InjectedFailure: Hashable, Sendable {
    public var remaining: Int
    public var pathPattern: String? { didSet { compiled = InjectedFailure.compile(pathPattern) } }
    public var status: Int
    /// The answer's body (`net SP answer`): JSON when it opens with `{` or `[`, else plain text;
    /// nil: the failure's own text.
    public var body: String?

    public init(remaining: Int, pathPattern: String? = nil, status: Int = 503, body: String? = nil) {
        self.remaining = remaining
        self.pathPattern = pathPattern
        self.status = status
        self.body = body
        compiled = InjectedFailure.compile(pathPattern)
    }

    /// `pathPattern` compiled once: every request to the host is matched under the server's lock, and
    /// compiling there cost as much as the pattern is long (a megabyte of `(?:)` costs nothing to
    /// match) on every request. nil: no pattern, or one that does not compile.
    private var compiled: LinearRegex?

    private static func compile(_ pattern: String?) -> LinearRegex? { pattern.flatMap { try? LinearRegex($0) } }

    public func matches(_ path: String) -> Bool {
        guard pathPattern != nil else { return true }
        return compiled?.wholeMatch(path) ?? false
    }

    /// What matching a path against `pathPattern` costs per scalar (`LinearRegex.stepCost`); 0 without one.
    public var patternStepCost: Int { compiled?.stepCost ?? 0 }

    /// How the request log names this failure (`LoggedRequest.fault`).
    public var journalName: String { body == nil ? "injected failure \(status)" : "injected answer \(status)" }

    /// The answer an injected failure gives, in either runtime. None where HTTP forbids a body
    /// (`InjectedStatus.forbidsBody`): a 205's body would be read as the next answer's start.
    public var response: HTTPResponse {
        if InjectedStatus.forbidsBody(status) { return HTTPResponse(status: status) }
        guard let body else {
            return HTTPResponse(status: status, contentType: "text/plain", text: "injected failure \(status)\n")
        }
        let json = body.hasPrefix("{") || body.hasPrefix("[")
        return HTTPResponse(status: status, contentType: json ? "application/json" : "text/plain", text: body)
    }
}

/// The network conditions of one host: a response delay, a mode and pending injected failures.
public struct HostConditions: Hashable, Sendable {
    /// Added before every answer (the scenario's round trip).
    public var latency: Millis
    public var mode: LinkMode
    public var failures: [InjectedFailure]

    /// The scenario format's defaults: 10 ms, up, no failures.
    public init(latency: Millis = Millis(10), mode: LinkMode = .up, failures: [InjectedFailure] = []) {
        self.latency = latency
        self.mode = mode
        self.failures = failures
    }

    /// Takes one use of the first failure that matches `path`; nil when none does.
    public mutating func takeFailure(for path: String) -> InjectedFailure? {
        guard let i = failures.firstIndex(where: { $0.matches(path) }) else { return nil }
        let failure = failures[i]
        failures[i].remaining -= 1
        if failures[i].remaining <= 0 { failures.remove(at: i) }
        return failure
    }
}

/// A change to a host's conditions while a run goes on: a scenario's `net` step, or the live
/// server's `POST /admin/net`.
public enum NetCommand: Hashable, Sendable {
    case mode(LinkMode)
    case latency(Millis)
    case fail(InjectedFailure)
}

extension HostConditions {
    public mutating func apply(_ command: NetCommand) {
        switch command {
        case .mode(let m): mode = m
        case .latency(let d): latency = d
        case .fail(let f): failures.append(f)
        }
    }
}
