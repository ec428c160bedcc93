import PassimConformance
import MyPort

/// The adapter a port team writes: the suite's inputs to the port's API, its outputs back.
final class StandInAdapter: AccessEnablerPort {
    var device = StandInDevice(configuration: EngineConfiguration())

    func start(_ world: PortWorld) {
        device = StandInDevice(configuration: world.configuration, appWires: world.appWires)
    }

    func handle(_ input: PortInput) -> [PortAction] {
        let sdk = device.app(input.app, at: input.now)
        switch input.event {
        case .call(let call): sdk.perform(call)
        case .response(let id, let result): sdk.receive(result, for: id)
        case .timer(let id): sdk.timerFired(id)
        case .picker(let outcome): sdk.tvProviderPicker(outcome)
        }
        return device.sent.map { event in
            switch event {
            case .callback(let callback): return .callback(callback)
            case .request(let id, let request): return .request(id, request)
            case .startTimer(let id, let at): return .startTimer(id, at: at)
            case .cancelTimer(let id): return .cancelTimer(id)
            case .present(let url): return .presentBrowser(url: url)
            }
        }
    }
}

/// The same adapter with a bug a real port could have: it reports tracking before the status it
/// belongs to (BEHAVIOR.md: the status callback comes first). The suite must catch it.
final class TrackingFirstAdapter: AccessEnablerPort {
    private let inner = StandInAdapter()

    func start(_ world: PortWorld) { inner.start(world) }

    func handle(_ input: PortInput) -> [PortAction] {
        var actions = inner.handle(input)
        for i in actions.indices.dropFirst() {
            if case .callback(.sendTrackingData) = actions[i], case .callback(.setAuthenticationStatus) = actions[i - 1] {
                actions.swapAt(i, i - 1)
            }
        }
        return actions
    }
}
