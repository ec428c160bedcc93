import Harness
import MockPass
import PassModel
import ScenarioSyntax

/// The request a `seen`/`unseen` line names: a method and a path as written, or an operation, which
/// is its request on each wire the run speaks (`WireOperation`'s bindings).
struct SeenRequest {
    let method: String
    let path: PathPattern
    /// An operation's bindings on the run's wires (empty for a path line).
    let bindings: [WireOperation.Binding]
    /// An operation with no request on any wire of the run (the SDK's media token on v2): a `seen`
    /// line holds at once, an `unseen` line too.
    let isNone: Bool

    init(method: String, path: PathPattern, wires: Set<EngineWire>) {
        self.method = method
        self.path = path
        guard case .operation(let id) = path else {
            bindings = []
            isNone = false
            return
        }
        let operation = WireOperation.named(id)
        bindings = wires.sorted { $0.rawValue < $1.rawValue }.compactMap { operation.binding(on: $0) }
        isNone = bindings.isEmpty
    }

    /// Whether `entry` is this request: for an operation, the binding it matched; for a path line,
    /// `.some(nil)` (its fields are read by their names as written).
    func matching(_ entry: LoggedRequest) -> WireOperation.Binding?? {
        guard case .operation = path else {
            return entry.method == method && RunState.pathMatches(path, entry.path) ? .some(nil) : nil
        }
        return bindings.first { $0.matches(method: entry.method, path: entry.path) }.map { .some($0) }
    }
}
