import ArgumentParser

/// `--port COMMAND`, one option for `run` and `fuzz`: a port of the SDK (docs/PORTING.md) to drive.
/// Not a TCP port: `passim serve` names its listening port `--listen-port`.
struct PortCommandOption: ParsableArguments {
    @Option(
        name: .customLong("port"),
        help: ArgumentHelp(
            "Drive a port of the SDK: COMMAND speaks docs/PORTING.md on its standard input and output. run: the scenarios run on it; fuzz: each program runs on it too, and a difference from the reference is a failure.",
            valueName: "COMMAND"))
    var command: String?
}
