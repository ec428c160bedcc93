import Entitlement
import PassModel

/// What the runtime drives for one app: passim's own `Engine`, or a port of the SDK behind the
/// driver protocol of docs/PORTING.md (the `Port` module). Inputs go in, `EngineAction`s come out,
/// exactly as for the sans-I/O engine, so the same runtime, wire, browser and user serve both.
public protocol AppEngine {
    /// One input (a call, with the device's shared store as the call is made; an answer; a timer;
    /// the picker's outcome) and the actions it causes.
    mutating func step(_ input: EngineInput, at now: Instant) -> [EngineAction]
    /// The MVPDs of Apple's picker while it is shown.
    var pickerShown: [MVPD]? { get }
    /// Why this engine cannot go on (a port that broke the protocol or does not implement a call).
    var failure: EngineFailure? { get }
    /// passim's own engine when this is it, or wraps it (a test's altered engine): the
    /// oracle's context reads its configuration. nil for a port.
    var reference: Engine? { get }
    /// `body` of passim's own engine (nil for a port), read in place: `reference` copies the whole
    /// engine out of its existential, and the fuzzer reads it several times on every step.
    func withReference<T>(_ body: (Engine) -> T) -> T?
}

extension AppEngine {
    public var reference: Engine? { self as? Engine }
    public func withReference<T>(_ body: (Engine) -> T) -> T? { reference.map(body) }
}

/// An engine that sends its requests itself, over the live network (a port's: the `Port` module's
/// adapter adopts this). The runtime gives it the device's cookies before each input, and takes
/// what each of its requests got instead of sending it.
public protocol SelfSendingEngine: AppEngine {
    /// The device's cookies for this app (the `Cookie` header of each host).
    mutating func useCookies(_ cookies: [(host: String, header: String)])
    /// What the engine's request `id` got when the engine sent it itself, for the runtime to deliver
    /// in virtual time; nil when the runtime is to send it.
    mutating func takeOwnFetch(_ id: RequestID) -> HTTPResult?
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
    public var failure: EngineFailure? { nil }
    public func withReference<T>(_ body: (Engine) -> T) -> T? { body(self) }
}
