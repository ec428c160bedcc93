import Entitlement
import PassModel

/// Every timer the engine sets is cancelled or fires: no id set again while running, no cancel of a
/// timer not running, none left once faults healed and three quiet hours passed.
struct TimersProperty: OracleProperty {
    static let id = "timers"
    static let clause = "BEHAVIOR.md, Time (timers); invariant 9"
    static let observes: ObservationKinds = [.timerStarted, .timerCancelled, .timerFired, .quiescent]

    private var running: [TimerID: Instant] = [:]

    mutating func check(
        _ observation: Observation, at now: Instant, context: OracleContext, token: TokenModel,
        found: inout [String]
    ) {
        switch observation {
        case .timerStarted(let id, let at):
            if running[id] != nil { found.append("\(id) set again while it is still running") }
            running[id] = at
        case .timerCancelled(let id):
            if running.removeValue(forKey: id) == nil {
                found.append("cancels \(id), which is not running (never set, fired or cancelled already)")
            }
        case .timerFired(let id):
            running[id] = nil
        case .quiescent:
            guard !running.isEmpty else { return }
            let ids = running.sorted { $0.key < $1.key }.map { "\($0.key) due \($0.value)" }
            found.append("\(running.count) timer(s) neither fired nor cancelled: \(ids.joined(separator: ", "))")
            running = [:]
        default:
            return  // not routed here (`observes`)
        }
    }
}
