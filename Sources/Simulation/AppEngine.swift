import Entitlement
import PassModel

/// What the runtime drives for one app: passim's own `Engine`, or a port of the SDK behind the
/// driver protocol of docs/PORTING.md (the `Port` module). Inputs go in, `EngineAction`s come out,
/// exactly as for the sans-I/O engine, so the same runtime, wire, browser and user serve both.
public protocol AppEngine {
    mutating func handle(_ call: Call, at now: Instant) -> [EngineAction]
    mutating func receive(_ result: HTTPResult, for id: RequestID, at now: Instant) -> [EngineAction]
    mutating func timerFired(_ id: TimerID, at now: Instant) -> [EngineAction]
    mutating func tvProviderPicker(_ outcome: PickerOutcome, at now: Instant) -> [EngineAction]
    /// Reads the device's shared store before `setRequestor` (a port keeps its own, docs/PORTING.md).
    mutating func adoptSharedStore(_ shared: SharedAuthentication?)
    /// The device's cookies for this app (the `Cookie` header of each host), given before each input.
    /// A port on the live network adds them to the requests it sends itself; passim's engine leaves
    /// cookies to the runtime.
    mutating func useCookies(_ cookies: [(host: String, header: String)])
    /// What the engine's request `id` got when the engine sent it itself (a port on the live network),
    /// for the runtime to deliver in virtual time; nil when the runtime is to send it.
    mutating func takeOwnFetch(_ id: RequestID) -> HTTPResult?
    /// The MVPDs of Apple's picker while it is shown.
    var pickerShown: [MVPD]? { get }
    /// passim's own engine, whose state the invariant monitor reads; nil for a port, which is judged
    /// by its transcripts alone.
    var inspectable: Engine? { get }
    /// Why this engine cannot go on (a port that broke the protocol or does not implement a call).
    var failure: EngineFailure? { get }
}

/// A port that cannot go on; the scenario ends with it.
public enum EngineFailure: Hashable, Sendable, CustomStringConvertible {
    /// The port said it does not implement what it was asked.
    case unimplemented(String)
    /// The port broke the protocol, timed out, or exited.
    case broken(String)

    public var description: String {
        switch self {
        case .unimplemented(let what): return "the port does not implement \(what)"
        case .broken(let why): return why
        }
    }
}

extension Engine: AppEngine {
    public var inspectable: Engine? { self }
    public var failure: EngineFailure? { nil }
    public func useCookies(_ cookies: [(host: String, header: String)]) {}
    public func takeOwnFetch(_ id: RequestID) -> HTTPResult? { nil }
}
