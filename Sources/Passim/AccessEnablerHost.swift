/// What an `AccessEnabler` on the hosted runtime needs from its host, which owns time and I/O: the
/// host sends each request and answers it with `AccessEnabler.receive(_:for:)`, runs each timer and
/// fires it with `AccessEnabler.timerFired(_:)`. This is how a harness (or an app's own run loop)
/// drives passim's sans-I/O engine; the `AccessEnablerPort` of PassimConformance is one such host.
public protocol AccessEnablerHost: AnyObject {
    /// The instant every input happens at: the engine has no clock of its own.
    var now: Instant { get }
    func send(_ request: HTTPRequest, id: RequestID)
    func startTimer(_ id: TimerID, at: Instant)
    func cancelTimer(_ id: TimerID)
    /// The SDK presents SFSafariViewController itself at `url` (an SVC MVPD without `handleSVC`).
    func presentBrowser(url: String)
}

/// The device's keychain that apps of one vendor share (iOS passive SSO, BEHAVIOR.md): give the
/// same one to every `AccessEnabler` of a device.
public final class DeviceKeychain {
    var shared: SharedAuthentication?
    public init() {}
}
