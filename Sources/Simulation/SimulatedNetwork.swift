import PassModel
import MockPass

/// The network between the device and the mock hosts as the runtime models it: each host's
/// `HostConditions` (latency, mode, injected failures; SCENARIO-FORMAT.md `sp …` and `net …`).
public struct SimulatedNetwork: Sendable {
    public var links: [LoggedRequest.Host: HostConditions] = [:]

    public init() {}

    /// The outcome of one request: what comes back and how long after it was sent, or never.
    public enum Outcome: Sendable {
        case answer(HTTPResult, after: Millis)
        case never
    }
}

extension HostConditions {
    /// Decides what happens to a request sent now over this link. `serve` runs the mock when the
    /// request gets through; a pending injected failure answers in its place.
    mutating func exchange(
        _ request: HTTPRequest, relativePath: String?, journal: (InjectedFailure) -> Void = { _ in },
        serve: (HTTPRequest) -> HTTPResponse
    ) -> SimulatedNetwork.Outcome {
        switch mode {
        case .down: return .answer(.failure("connection refused"), after: .zero)
        case .silent: return .never
        case .up: break
        }
        if let failure = takeFailure(for: relativePath ?? "") {
            journal(failure)
            return .answer(.response(failure.response), after: latency)
        }
        return .answer(.response(serve(request)), after: latency)
    }
}

extension HostConditions {
    /// When the answer to a request that went over real HTTP (the live wire's, or a port's own on the
    /// live network) reaches the app, in virtual time: after the link's latency; at once for a refused
    /// connection or any other live fault (which the transcript then shows); never from a silent host,
    /// whose request the engine's own timer ends.
    public func arrival(ofLive result: HTTPResult) -> SimulatedNetwork.Outcome {
        switch (mode, result) {
        case (.silent, _): return .never
        case (_, .response): return .answer(result, after: latency)
        case (_, .failure), (_, .timeout): return .answer(result, after: .zero)
        }
    }
}
