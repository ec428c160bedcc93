import PassimConformance

/// passim's engine as an `AccessEnablerPort`, through the public API only (AccessEnabler on its
/// hosted runtime), as a port team would write the adapter from the DocC pages.
final class ReferenceAdapter: AccessEnablerPort, AccessEnablerHost, EntitlementDelegate {
    var now = Instant.simulationStart
    private var configuration = EngineConfiguration()
    private var appWires: [String: EngineWire] = [:]
    /// The device's shared store, one per wire: nothing is carried over between the SDK and v2.
    private var keychains: [EngineWire: DeviceKeychain] = [:]
    private var enablers: [String: AccessEnabler] = [:]
    private var actions: [PortAction] = []
    /// For the version test: what this adapter announces.
    var protocolVersion = PassimPortProtocol.version

    func start(_ world: PortWorld) {
        configuration = world.configuration
        appWires = world.appWires
        keychains = [:]
        enablers = [:]
    }

    func handle(_ input: PortInput) -> [PortAction] {
        now = input.now
        actions = []
        var own = configuration
        if let wire = appWires[input.app] { own.wire = wire }
        let keychain = keychains[own.wire] ?? DeviceKeychain()
        keychains[own.wire] = keychain
        let sdk = enablers[input.app] ?? AccessEnabler(configuration: own, host: self, keychain: keychain)
        sdk.delegate = self
        enablers[input.app] = sdk
        switch input.event {
        case .call(let call): sdk.perform(call)
        case .response(let id, let result): sdk.receive(result, for: id)
        case .timer(let id): sdk.timerFired(id)
        case .picker(let outcome): sdk.tvProviderPicker(outcome)
        }
        return actions
    }

    func deliver(_ callback: Callback) { actions.append(.callback(callback)) }
    func send(_ request: HTTPRequest, id: RequestID) { actions.append(.request(id, request)) }
    func startTimer(_ id: TimerID, at: Instant) { actions.append(.startTimer(id, at: at)) }
    func cancelTimer(_ id: TimerID) { actions.append(.cancelTimer(id)) }
    func presentBrowser(url: String) { actions.append(.presentBrowser(url: url)) }
}
