import ArgumentParser
import PassModel

/// `--port COMMAND` and `--port-timeout`, one option group for `run` and `fuzz`: a port of the SDK
/// (docs/PORTING.md) to drive, and how long it may take over one answer. Not a TCP port: `passim
/// serve` names its listening port `--listen-port`.
struct PortCommandOption: ParsableArguments {
    @Option(
        name: .customLong("port"),
        help: ArgumentHelp(
            "Drive a port of the SDK: COMMAND speaks docs/PORTING.md on its standard input and output. run: the scenarios run on it; fuzz: each program runs on it too, and a difference from the reference is a failure.",
            valueName: "COMMAND"))
    var command: String?

    @Option(
        name: .customLong("port-timeout"),
        help: ArgumentHelp(
            "How long a port may take over one answer (with --port, or --against's `BIN shim`). A port that misses it is killed with its process group, and its scenario (in fuzz: its program, a finding) fails naming the line it owed.",
            valueName: "DURATION"))
    var timeoutText: String = "5s"

    /// `--port-timeout` read (validate() refused anything else).
    var timeout: Millis { Millis(text: timeoutText) ?? .seconds(5) }

    func validate() throws {
        guard let timeout = Millis(text: timeoutText), timeout.value > 0 else {
            throw ValidationError("--port-timeout takes a duration like 5s or 500ms")
        }
    }
}
