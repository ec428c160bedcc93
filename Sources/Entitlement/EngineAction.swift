import PassModel
import PassXML

/// Identifies one HTTP request the engine asked its runtime to send.
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public static func < (a: RequestID, b: RequestID) -> Bool { a.value < b.value }
    public var description: String { "request#\(value)" }
}

/// Identifies one timer the engine asked its runtime to run.
public struct TimerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: Int
    public init(_ value: Int) { self.value = value }
    public static func < (a: TimerID, b: TimerID) -> Bool { a.value < b.value }
    public var description: String { "timer#\(value)" }
}

/// What the engine asks its runtime to do. The engine owns no I/O (ARCHITECTURE.md, sans-I/O): every
/// input returns the actions it causes, in the order they must happen.
public enum EngineAction: Hashable, Sendable {
    /// Deliver a callback to the app, now, in this order.
    case deliver(Callback)
    /// Send a request; answer later with `.response` to `Engine.step(_:at:)`. The runtime adds the device's
    /// cookies, as iOS's URL loading system would.
    case send(RequestID, HTTPRequest)
    /// Give the engine `.timer` at that instant unless cancelled first.
    case startTimer(TimerID, at: Instant)
    case cancelTimer(TimerID)
    /// The SDK presents SFSafariViewController itself at this URL (an MVPD that requires SVC while
    /// `handleSVC` is false: no `navigateToUrl`; BEHAVIOR.md, Authentication 3): the runtime opens the
    /// device's browser there, as the app does on `navigateToUrl`.
    case presentBrowser(url: String)
    /// The app's authN token changed: write it to the device's shared store (iOS passive SSO;
    /// nil clears it). It goes back with the next
    /// `setRequestor` (`EngineInput.call`).
    case writeSharedStore(SharedAuthentication?)
}

/// What the device's shared store keeps of an authN token (BEHAVIOR.md, Vocabulary).
public struct SharedAuthentication: Hashable, Sendable {
    public var token: AuthnToken
    public var userMeta: Value?
    public var fromPlatformSSO: Bool
    /// A promotional TempPass's identity on REST API v2 (its `AP-TempPass-Identity`, which every
    /// later decision about that pass must carry); nil otherwise.
    public var tempPassIdentity: Value? = nil
}
