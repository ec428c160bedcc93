import PassModel
import MockPass

/// The simulated network between the device and the mock hosts: per-host round trip and faults
/// (SCENARIO-FORMAT.md: `sp … latency/unreachable/silent`, `net …`).
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

    public var links: [LoggedRequest.Host: Link] = [:]

    public init() {}

    /// The outcome of one request: when it is answered and how, or nil when it never is.
    enum Outcome {
        case answer(HTTPResult, after: Millis)
        case never
    }

    /// Decides what happens to a request sent now. `serve` runs the mock when the request gets through.
    mutating func exchange(_ request: HTTPRequest, host: LoggedRequest.Host?, relativePath: String?,
                           serve: (HTTPRequest) -> HTTPResponse) -> Outcome {
        guard let host, var link = links[host] else {
            return .answer(.failure("could not resolve host"), after: .zero)
        }
        switch link.mode {
        case .down: return .answer(.failure("connection refused"), after: .zero)
        case .silent: return .never
        case .up: break
        }
        if let i = link.failures.firstIndex(where: { $0.matches(relativePath ?? "") }) {
            let status = link.failures[i].status
            link.failures[i].remaining -= 1
            if link.failures[i].remaining <= 0 { link.failures.remove(at: i) }
            links[host] = link
            return .answer(.response(HTTPResponse(status: status, contentType: "text/plain", text: "injected failure \(status)\n")), after: link.latency)
        }
        return .answer(.response(serve(request)), after: link.latency)
    }
}

extension SimulatedNetwork.Failure {
    func matches(_ path: String) -> Bool {
        guard let pattern = pathPattern else { return true }
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.wholeMatch(in: path)) != nil
    }
}
