import MockPass
import PassModel

/// Where the device's HTTP requests go. The runtime (`Simulator`) decides *when* things happen, in
/// virtual time; the wire decides *what* answers. `MockWire` answers from an in-process `MockPass`
/// through the modelled network; the live wire (Scenario's `LiveWire`) sends every request over
/// loopback HTTP to `passim serve`'s server, which enforces the faults for real.
///
/// Both are called at the instant a request is sent and answer at once with what comes back and
/// how long after `now` it arrives, so requests reach the mock in the order they are sent and
/// answers are delivered in the same virtual order by either wire.
public protocol Wire: AnyObject {
    /// Sends `request` at `now` to `host` over `link` (whose injected failures it may consume).
    func exchange(
        _ request: HTTPRequest, host: LoggedRequest.Host, link: inout HostConditions,
        relativePath: String?, at now: Instant
    ) -> SimulatedNetwork.Outcome
    /// A request outside the modelled network (Apple's framework holds the answer already).
    func direct(_ request: HTTPRequest, at now: Instant) -> HTTPResult
    /// A `net` step changed a host's link (the model is updated by the runtime; a live wire tells the server).
    func changed(_ command: NetCommand, host: LoggedRequest.Host) throws(SimulationError)
    /// Which host serves `url`, by the world's base URLs.
    func host(for url: String) -> LoggedRequest.Host?
    /// Every request that reached a host, in arrival order.
    var log: [LoggedRequest] { get }
    /// The log's kept entries (oldest first) and how many older ones it dropped, when the wire's
    /// log numbers its entries (the simulated mock's); nil when it does not (a live server's).
    var sequencedLog: (entries: [LoggedRequest], dropped: Int)? { get }
}

extension Wire {
    public var sequencedLog: (entries: [LoggedRequest], dropped: Int)? { nil }
}

/// The simulated wire: the in-process mock behind `SimulatedNetwork`'s model of each link.
public final class MockWire: Wire {
    public private(set) var mock: MockPass
    /// Whether answers keep the value the mock decoded them from (`SimulationSetup.typedResponses`);
    /// without, they are bytes only, and every reader parses them.
    let typedResponses: Bool
    /// The mock's host table (it never changes): the runtime asks for every request's host, and
    /// asking `mock` copied the whole mock out of this class and released it again.
    private let preparer: RequestPreparer

    public init(world: World, seed: UInt64, typedResponses: Bool = false) {
        mock = MockPass(world: world, seed: seed)
        preparer = mock.preparer
        // Where only this process reads an answer, a typed run's mock hands the value over instead of
        // bytes (its pages, its SAML, the configuration: `MockPass.typedRun`).
        mock.typedRun = typedResponses
        self.typedResponses = typedResponses
    }

    public func exchange(
        _ request: HTTPRequest, host: LoggedRequest.Host, link: inout HostConditions,
        relativePath: String?, at now: Instant
    ) -> SimulatedNetwork.Outcome {
        link.exchange(
            request, relativePath: relativePath,
            journal: { [self] failure in
                mock.journal(mock.preparer.prepareForJournal(request), fault: failure, at: now)
            }
        ) { request in
            var response = mock.handle(preparer.prepare(request, target: lastTarget), at: now)
            if !typedResponses { response.decoded = nil }
            return response
        }
    }

    public func direct(_ request: HTTPRequest, at now: Instant) -> HTTPResult {
        .response(mock.handle(request, at: now))
    }

    public func changed(_ command: NetCommand, host: LoggedRequest.Host) {}

    /// The runtime asks for every request's host right before sending it: what was found is kept
    /// for `exchange`, so the URL is split and matched once.
    public func host(for url: String) -> LoggedRequest.Host? {
        if let last = lastTarget, last.url == url { return last.host }
        lastTarget = preparer.target(of: url)
        return lastTarget?.host
    }
    private var lastTarget: RequestPreparer.Target?

    /// Read through `requestLog`, a stored property, so the entries come out of the mock in place:
    /// `mock.log` is computed on the whole mock, which copied it out of this class on every read.
    public var log: [LoggedRequest] { mock.requestLog.all }
    public var sequencedLog: (entries: [LoggedRequest], dropped: Int)? {
        (mock.requestLog.all, mock.requestLog.dropped)
    }
}
