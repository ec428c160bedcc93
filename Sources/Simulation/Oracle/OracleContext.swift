import Entitlement
import MockPass
import PassModel

/// One input to an app's engine, as the runtime gave it: what the callbacks, requests and timers
/// that follow are the consequence of.
enum OracleInput: Sendable {
    case call(Call)
    case response(RequestID, HTTPResult)
    case timer(TimerID)
    /// The user acted in Apple's picker.
    case picker

    init(_ input: EngineInput) {
        switch input {
        case .call(let call, _): self = .call(call)
        case .response(let id, let result): self = .response(id, result)
        case .timer(let id): self = .timer(id)
        case .picker: self = .picker
        }
    }
}

/// What the observational oracle knows besides the run: the world and the app's configuration,
/// both inputs of the run (never the engine's state).
struct OracleContext: Sendable {
    var platform: Platform
    /// The requests the engine makes: what "answered at once" means differs on REST API v2.
    var wire: EngineWire
    /// The last three fields of every tracking array (BEHAVIOR.md, Tracking data).
    var trackingTail: [String?]
    var mvpds: Set<String>
    /// The users of each MVPD: whose data a callback may carry once that MVPD's token is held.
    var users: [String: [World.User]]
    /// TempPass MVPDs (promotional included): they authorize every resource.
    var tempPasses: Set<String>
    /// The non-promotional TempPasses' durations, counted from the first use on the device.
    var tempPassTTL: [String: Millis]

    init(world: World, configuration: EngineConfiguration) {
        self.init(WorldFacts(world), configuration: configuration)
    }

    init(_ world: WorldFacts, configuration: EngineConfiguration) {
        platform = configuration.platform
        wire = configuration.wire
        trackingTail = [
            configuration.deviceType.rawValue, configuration.platform.clientType, configuration.platform.osName,
        ]
        mvpds = world.mvpds
        users = world.users
        tempPasses = world.tempPasses
        tempPassTTL = world.tempPassTTL
    }

    /// What the context reads of the world: the same for every app of a simulation, so it is read
    /// once per simulation, not once per app.
    struct WorldFacts: Sendable {
        var mvpds: Set<String>
        var users: [String: [World.User]]
        var tempPasses: Set<String>
        var tempPassTTL: [String: Millis]

        init(_ world: World) {
            mvpds = Set(world.serviceProviders.flatMap { $0.mvpds.map(\.id) })
            users = Dictionary(grouping: world.users, by: \.mvpdID)
            tempPasses = Set(world.tempPasses.map(\.mvpdID))
            tempPassTTL = Dictionary(world.tempPasses.filter { !$0.promotional }.map { ($0.mvpdID, $0.ttl) }) { a, _ in
                a
            }
        }
    }
}
