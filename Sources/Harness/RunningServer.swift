import Live
import MockPass
import Simulation

/// `passim serve`'s side of the runtimes: how a running server turns a posted world into what it serves.
public enum RunningServer {
    /// The server's `POST /admin/world` loader, from what reads a world's text into a setup (the
    /// scenario language's parser, which Harness does not know).
    public static func worldLoader(_ setup: @escaping @Sendable (String) -> Result<SimulationSetup, HarnessError>)
        -> MockPassServer.WorldLoader
    {
        { text in
            switch setup(text) {
            case .success(let s):
                return .success(MockPassServer.LoadedWorld(world: s.world, conditions: s.links, seed: s.seed))
            case .failure(let error): return .failure(LiveError(error.message))
            }
        }
    }
}
