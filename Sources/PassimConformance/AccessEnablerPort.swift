@_exported import Passim

/// Your port of the AccessEnabler SDK, as the conformance suite drives it: the driver protocol of
/// docs/PORTING.md in Swift values. Inputs go in (an API call, the answer to a request, a timer, the
/// user in Apple's picker), each at the instant `now` the harness gives; actions come out (callbacks
/// for the app, requests to send, timers to start). The harness owns everything else: the clock, the
/// mock SP and MVPDs, the network, the browser, the user, and the comparison of transcripts.
///
/// The suite makes a new port for each scenario and calls `start(_:)` once before any input.
public protocol AccessEnablerPort: AnyObject {
    /// The major version of the driver protocol this port was written for (default: this passim's).
    /// A newer one than passim knows ends every scenario with an error saying so.
    var protocolVersion: Int { get }
    /// Free text shown in reports (default: the type's name).
    var implementation: String { get }
    /// The world of a scenario begins: its apps and the device (platform, default SP, …).
    func start(_ world: PortWorld)
    /// One input for one app; what the port does, in order. Only actions of `input.app` may be returned.
    func handle(_ input: PortInput) -> [PortAction]
}

extension AccessEnablerPort {
    public var protocolVersion: Int { PassimPortProtocol.version }
    public var implementation: String { String(describing: type(of: self)) }
}

/// The version of the driver protocol this passim speaks.
public enum PassimPortProtocol {
    public static var version: Int { ConformanceVersions.protocolMajor }
}

/// What `hello` says: the scenario's apps and the device every app runs on.
public struct PortWorld: Sendable {
    /// The apps' names; an engine per app, made when its first input comes.
    public var apps: [String]
    /// Platform, device type, default SP, SVC scheme, device ID, client version, request timeout.
    public var configuration: EngineConfiguration
    /// Apps with a wire of their own (a world with both faces, docs/PORTING.md `appWires`); the others
    /// speak `configuration.wire`.
    public var appWires: [String: EngineWire] = [:]
    public var now: Instant
    /// The world's request timeout when it is not BEHAVIOR.md's 30 s (driver protocol 1.3); nil: your
    /// port's own default runs, and the suite's timeout scenarios check it. `configuration` holds
    /// passim's value either way, for an adapter over passim's own `AccessEnabler`.
    public var requestTimeout: Millis? = nil
}

/// One input of the harness for one app.
public struct PortInput: Sendable {
    public enum Event: Sendable, Hashable {
        case call(Call)
        /// The answer to your request `id`: a response, a connection failure, or a timeout.
        case response(RequestID, HTTPResult)
        case timer(TimerID)
        case picker(PickerOutcome)
    }
    public var app: String
    /// The virtual instant of this input: the port's only clock.
    public var now: Instant
    public var event: Event
}

/// One thing the port does in answer to an input.
public enum PortAction: Sendable, Hashable {
    case callback(Callback)
    /// Send this request; its answer comes later as `.response(id, …)`. Ids are unique per app.
    case request(RequestID, HTTPRequest)
    case startTimer(TimerID, at: Instant)
    case cancelTimer(TimerID)
    /// The SDK presents SFSafariViewController itself at this URL (protocol 1.1 `present`).
    case presentBrowser(url: String)
    /// The port does not implement what the input asked: the scenario ends as unimplemented.
    case unimplemented(String)

    /// The action of passim's engine this stands for (nil for the shared-store write, which a port keeps itself).
    public init?(_ action: EngineAction) {
        switch action {
        case .deliver(let callback): self = .callback(callback)
        case .send(let id, let request): self = .request(id, request)
        case .startTimer(let id, let at): self = .startTimer(id, at: at)
        case .cancelTimer(let id): self = .cancelTimer(id)
        case .presentBrowser(let url): self = .presentBrowser(url: url)
        case .writeSharedStore: return nil
        }
    }
}
