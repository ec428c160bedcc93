/// The limits of the library's runtimes (docs/LIMITS.md, "Library").
public enum PassimLimits {
    /// `world-run-events`: how many events one `SimulatedWorld.run()` runs at most, so a flow that
    /// re-arms a timer forever returns control to the test.
    public static let worldRunEvents = 100_000
}
