import ArgumentParser
import PassModel

/// `--wire sdk|v2`, one option for `run` and `fuzz`: declared once so both spell, parse and
/// describe it alike. Each command reads its own default from nil (run: each world's own wire;
/// fuzz: the SDK's).
struct WireOption: ParsableArguments {
    @Option(
        name: .customLong("wire"),
        help: ArgumentHelp(
            "The requests passim's engine makes behind the API: sdk (the AccessEnabler SDK's) or v2 (REST API v2's, docs/MIGRATION.md). run: every world runs on it (default: each world's own); fuzz: every generated world says it, so a finding replays (default: sdk), and --parity generates its programs on it.",
            valueName: "sdk|v2"))
    var value: EngineWire?
}

extension EngineWire: ExpressibleByArgument {}
