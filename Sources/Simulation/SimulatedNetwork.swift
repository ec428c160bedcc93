import PassModel
import MockPass

/// The network between the device and the mock hosts as the runtime models it: per-host round trip
/// and faults (SCENARIO-FORMAT.md: `sp … latency/unreachable/silent`, `net …`).
public struct SimulatedNetwork: Sendable {
    public enum Mode: Hashable, Sendable {
        case up
        /// Connections are refused at once.
        case down
        /// Requests never answer; the client's timeout decides.
        case silent
    }

    public struct Link: Hashable, Sendable {
        public var latency: Millis
        public var mode: Mode
        /// `net SP fail N [/path/] [status S]`: the next N matching requests get that status.
        public var failures: [Failure] = []
        public init(latency: Millis = Millis(10), mode: Mode = .up) {
            self.latency = latency
            self.mode = mode
        }
    }

    public struct Failure: Hashable, Sendable {
        public var remaining: Int
        public var pathPattern: String?
        public var status: Int
        public init(remaining: Int, pathPattern: String?, status: Int) {
            self.remaining = remaining
            self.pathPattern = pathPattern
            self.status = status
        }
    }

    /// What a `net` step does to a link.
    public enum Change: Hashable, Sendable {
        case mode(Mode)
        case latency(Millis)
        case fail(Failure)
    }

    public var links: [LoggedRequest.Host: Link] = [:]

    public init() {}

    /// The outcome of one request: what comes back and how long after it was sent, or never.
    public enum Outcome: Sendable {
        case answer(HTTPResult, after: Millis)
        case never
    }
}

extension SimulatedNetwork.Link {
    public mutating func apply(_ change: SimulatedNetwork.Change) {
        switch change {
        case .mode(let m): mode = m
        case .latency(let d): latency = d
        case .fail(let f): failures.append(f)
        }
    }

    /// Decides what happens to a request sent now over this link. `serve` runs the mock when the
    /// request gets through; a pending injected failure answers in its place.
    mutating func exchange(_ request: HTTPRequest, relativePath: String?,
                           serve: (HTTPRequest) -> HTTPResponse) -> SimulatedNetwork.Outcome {
        switch mode {
        case .down: return .answer(.failure("connection refused"), after: .zero)
        case .silent: return .never
        case .up: break
        }
        if let i = failures.firstIndex(where: { $0.matches(relativePath ?? "") }) {
            let status = failures[i].status
            failures[i].remaining -= 1
            if failures[i].remaining <= 0 { failures.remove(at: i) }
            return .answer(.response(HTTPResponse(status: status, contentType: "text/plain", text: "injected failure \(status)\n")), after: latency)
        }
        return .answer(.response(serve(request)), after: latency)
    }
}

extension SimulatedNetwork.Failure {
    func matches(_ path: String) -> Bool {
        guard let pattern = pathPattern else { return true }
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: path)) != nil
    }
}
