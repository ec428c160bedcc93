/// Limits on what a port's process may make the harness hold, the one place they are set.
public enum PortLimits {
    /// Bytes of one line of the port's standard output.
    public static let lineBytes = 16 << 20
    /// Bytes of the port's standard error kept: the last ones (the tail is what a failure report
    /// shows). A port writing 300 MB of stderr grew a file without bound.
    public static let stderrBytes = 64 << 10
    /// Scenarios one port process serves before the harness starts a fresh one (protocol 1.1 resets):
    /// a port that leaks a little per world cannot grow without bound over a long run or a fuzz campaign.
    public static let scenariosPerProcess = 1000
    /// Seconds of wall time one scenario may take of a port, all its answers together (each answer
    /// has its own `--port-timeout` too): a port that answers every message in time but never lets a
    /// scenario end (work that never settles) is stopped there, with its scenario.
    public static let scenarioWallSeconds = 300
    /// Seconds a port's process may take to start and answer `hello` when `--port-timeout` is
    /// shorter: an interpreter that starts slowly on a loaded machine is not a port that stopped
    /// answering (a 300 ms answer timeout failed the set-up check of a Python port under load).
    public static let startupSeconds: Int64 = 10
}
