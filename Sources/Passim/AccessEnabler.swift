/// The reference AccessEnabler: the SDK's API over passim's entitlement engine, delivering the
/// SDK's callbacks to an `EntitlementDelegate`. The engine is sans-I/O; the runtime chosen at
/// `init` drives it:
///
/// - `init(world:app:)`: a `SimulatedWorld` (mock SP and MVPDs, a browser, a user, a virtual clock);
///   callbacks arrive while the world runs (`SimulatedWorld.run()`), same seed, same order.
/// - `init(configuration:host:keychain:)`: the host owns time and HTTP (a port harness, a run loop).
///
/// Each SDK method maps to one `Call` (docs: "The API, method by method"); `perform(_:)` takes the
/// call as a value.
public final class AccessEnabler {
    public weak var delegate: (any EntitlementDelegate)?
    private let runtime: Runtime
    private var liveness = LivenessMonitor()

    /// What the liveness rules found in the app's use of this enabler so far (docs/LINT.md): e.g. a
    /// delegate that calls `getAuthentication` again from a cancelled login's
    /// `setAuthenticationStatus(0, …)`, so the provider picker reopens without a user action.
    public var livenessFindings: [LivenessMonitor.Finding] { liveness.findings }

    private enum Runtime {
        case simulated(SimulatedWorld, app: Int)
        case hosted(HostedEngine)
    }

    /// An app of `world` (`app` nil: its first app).
    public init(world: SimulatedWorld, app: String? = nil) throws(PassimError) {
        guard let index = world.simulator.appIndex(app ?? "app") else {
            throw PassimError(
                "the world has no app '\(app ?? "app")' (its apps: \(world.simulator.appNames.joined(separator: ", ")))"
            )
        }
        runtime = .simulated(world, app: index)
        world.attach(self, app: index)
    }

    /// An engine whose host sends its requests and runs its timers. The enabler holds its host
    /// weakly: keep the host alive as long as the enabler.
    public init(
        configuration: EngineConfiguration = EngineConfiguration(), host: any AccessEnablerHost,
        keychain: DeviceKeychain = DeviceKeychain()
    ) {
        runtime = .hosted(HostedEngine(engine: Engine(configuration: configuration), host: host, keychain: keychain))
    }

    /// Runs one API call.
    public func perform(_ call: Call) {
        liveness.called(call, at: now)
        switch runtime {
        case .simulated(let world, let app): world.simulator.call(call, app: app)
        case .hosted(let hosted):
            // The device's shared store travels with `setRequestor`, as the engine reads it there.
            let shared = if case .setRequestor = call { hosted.keychain.shared } else { SharedAuthentication?.none }
            hosted.input(self) { engine, now in engine.step(.call(call, sharedStore: shared), at: now) }
        }
    }

    // MARK: The hosted runtime's inputs

    /// The answer to request `id` (hosted runtime; ignored on a simulated one, whose world answers).
    public func receive(_ result: HTTPResult, for id: RequestID) {
        guard case .hosted(let hosted) = runtime else { return }
        hosted.input(self) { engine, now in engine.step(.response(id, result), at: now) }
    }

    /// Timer `id` fired (hosted runtime).
    public func timerFired(_ id: TimerID) {
        guard case .hosted(let hosted) = runtime else { return }
        hosted.input(self) { engine, now in engine.step(.timer(id), at: now) }
    }

    /// The user acted in Apple's TV-provider picker (hosted runtime; a simulated world's user picks itself).
    public func tvProviderPicker(_ outcome: PickerOutcome) {
        guard case .hosted(let hosted) = runtime else { return }
        hosted.input(self) { engine, now in engine.step(.picker(outcome), at: now) }
    }

    func deliver(_ callback: Callback) {
        liveness.willDeliver(callback)
        delegate?.deliver(callback)
        liveness.didDeliver()
    }

    /// The runtime's instant: the world's virtual time, or the host's.
    private var now: Instant {
        switch runtime {
        case .simulated(let world, _): world.now
        case .hosted(let hosted): hosted.host?.now ?? .simulationStart
        }
    }

    // MARK: The SDK's API

    /// `init(softwareStatement:)` (SDK 3.x).
    public func initialize(softwareStatement: String?) { perform(.initialize(softwareStatement: softwareStatement)) }
    /// `setOptions:`
    public func setOptions(_ options: [Value.Entry]) { perform(.setOptions(options)) }
    /// `setRequestor:serviceProviders:` and, with a signed ID, `setRequestor:setSignedRequestorId:…`.
    public func setRequestor(
        _ requestorID: String, serviceProviders: [String]? = nil, signedRequestorID: String? = nil,
        secret: String? = nil, publicKey: String? = nil
    ) {
        perform(
            .setRequestor(
                requestorID: requestorID, serviceProviders: serviceProviders, signedRequestorID: signedRequestorID,
                secret: secret, publicKey: publicKey))
    }
    /// `checkAuthentication`
    public func checkAuthentication() { perform(.checkAuthentication) }
    /// `getAuthentication`, `getAuthentication:withData:`, `getAuthentication:filter:`
    public func getAuthentication(forceAuthn: Bool = false, data: Value? = nil, filter: Value? = nil) {
        perform(.getAuthentication(forceAuthn: forceAuthn, data: data, filter: filter))
    }
    /// `setSelectedProvider:` (nil: the user backed out)
    public func setSelectedProvider(_ mvpdID: String?) { perform(.setSelectedProvider(mvpdID)) }
    /// `handleExternalURL:`
    public func handleExternalURL(_ url: String) { perform(.handleExternalURL(url)) }
    /// `getSelectedProvider`
    public func getSelectedProvider() { perform(.getSelectedProvider) }
    /// `checkAuthorization:` / `checkAuthorization:withData:`
    public func checkAuthorization(_ resource: String, data: Value? = nil) {
        perform(.checkAuthorization(resource: resource, data: data))
    }
    /// `getAuthorization:` / `getAuthorization:withData:`
    public func getAuthorization(_ resource: String, data: Value? = nil) {
        perform(.getAuthorization(resource: resource, data: data))
    }
    /// `checkPreauthorizedResources:` / `checkPreauthorizedResources:cache:`
    public func checkPreauthorizedResources(_ resources: [String], cache: Bool = true) {
        perform(.checkPreauthorizedResources(resources, cache: cache))
    }
    /// `getMetadata:`
    public func getMetadata(_ key: Value) { perform(.getMetadata(key)) }
    /// `logout`
    public func logout() { perform(.logout) }
    /// `getAuthenticationToken` (SDK 1.x's public call)
    public func getAuthenticationToken() { perform(.getAuthenticationToken) }
    /// `getVersion`: the version of the AccessEnabler library this enabler plays (the engine's
    /// `clientVersion`, the `client_version` its logins send). A getter: no callback carries it,
    /// nothing is sent and no flow changes (docs/CONFORMANCE.md, choice 48).
    @discardableResult public func getVersion() -> String {
        perform(.getVersion)
        return switch runtime {
        case .simulated(let world, let app):
            world.simulator.reading(app: app) { $0.configuration.clientVersion } ?? EngineConfiguration().clientVersion
        case .hosted(let hosted): hosted.engine.configuration.clientVersion
        }
    }
}

/// The engine of a hosted `AccessEnabler` and what its actions go to.
private final class HostedEngine {
    var engine: Engine
    /// Weak: a host commonly owns its enablers (a port keeps one per app).
    weak var host: (any AccessEnablerHost)?
    let keychain: DeviceKeychain

    init(engine: Engine, host: any AccessEnablerHost, keychain: DeviceKeychain) {
        self.engine = engine
        self.host = host
        self.keychain = keychain
    }

    /// One input at the host's `now`; its actions are carried out in the engine's order. The engine
    /// has settled before the first of them, so a delegate may call the API from a callback.
    func input(_ enabler: AccessEnabler, _ step: (inout Engine, Instant) -> [EngineAction]) {
        guard let host else { return }
        let actions = step(&engine, host.now)
        for action in actions {
            switch action {
            case .deliver(let callback): enabler.deliver(callback)
            case .send(let id, let request): host.send(request, id: id)
            case .startTimer(let id, let at): host.startTimer(id, at: at)
            case .cancelTimer(let id): host.cancelTimer(id)
            case .presentBrowser(let url): host.presentBrowser(url: url)
            case .writeSharedStore(let shared): keychain.shared = shared
            }
        }
    }
}

/// A misuse of the library (a world that does not parse, an app it does not have), with a message
/// that says what to change.
public struct PassimError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
