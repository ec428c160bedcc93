import Passim

/// The "port" under test: an SDK-shaped object whose host sends its requests and runs its timers,
/// as a real Swift port's HTTP client and scheduler would be injected. Here it is passim's own
/// AccessEnabler, so the suite passes; `TrackingFirstPort` below has a bug.
public final class StandInDevice: AccessEnablerHost, EntitlementDelegate {
    public private(set) var now = Instant.simulationStart
    private let configuration: EngineConfiguration
    /// Apps on a wire of their own (a world with both faces), and one shared store per wire: nothing
    /// is carried over between the SDK and REST API v2.
    private let appWires: [String: EngineWire]
    private var keychains: [EngineWire: DeviceKeychain] = [:]
    private var apps: [String: AccessEnabler] = [:]
    /// What the app currently being driven did, in order.
    public var sent: [Event] = []

    public enum Event {
        case callback(Callback)
        case request(RequestID, HTTPRequest)
        case startTimer(TimerID, Instant)
        case cancelTimer(TimerID)
        case present(String)
    }

    public init(configuration: EngineConfiguration, appWires: [String: EngineWire] = [:]) {
        self.configuration = configuration
        self.appWires = appWires
    }

    /// The app's SDK instance, made on first use.
    public func app(_ name: String, at now: Instant) -> AccessEnabler {
        self.now = now
        sent = []
        if let enabler = apps[name] { return enabler }
        var own = configuration
        own.wire = appWires[name] ?? configuration.wire
        let keychain = keychains[own.wire] ?? DeviceKeychain()
        keychains[own.wire] = keychain
        let enabler = AccessEnabler(configuration: own, host: self, keychain: keychain)
        enabler.delegate = self
        apps[name] = enabler
        return enabler
    }

    public func deliver(_ callback: Callback) { sent.append(.callback(callback)) }
    public func send(_ request: HTTPRequest, id: RequestID) { sent.append(.request(id, request)) }
    public func startTimer(_ id: TimerID, at: Instant) { sent.append(.startTimer(id, at)) }
    public func cancelTimer(_ id: TimerID) { sent.append(.cancelTimer(id)) }
    public func presentBrowser(url: String) { sent.append(.present(url)) }
}
