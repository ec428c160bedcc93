import ArgumentParser

/// `--live`, one flag for `run` and `fuzz`: real HTTP on loopback instead of the simulated network.
/// What it goes with is each command's own check (run: alone or with --port; fuzz: with --port or --against).
struct LiveOption: ParsableArguments {
    @Flag(
        name: .customLong("live"),
        help:
            "Run over real HTTP: requests go through libcurl to mock servers on loopback (run: one per scenario, or --server's); with --port (or fuzz's --against) the port sends its own requests, its live network (docs/PORTING.md)."
    )
    var isOn = false
}
