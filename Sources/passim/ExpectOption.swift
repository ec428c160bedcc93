import ArgumentParser

/// `--expect FILE`, one option for `run`, `fuzz` and `doc`: an expectations file (docs/PORTING.md,
/// "Expectations file"). fuzz merges several; run and doc read one, the last given, as their
/// single-valued option did before the option was shared.
struct ExpectOption: ParsableArguments {
    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "An expectations file (docs/PORTING.md): expected failures, skips, constants, `differ` and `parity` rules. run: a port's (with --port) or a wire's (with --wire v2); fuzz: with --port, --against or --parity (default: Scenarios/wire-v2.expect), several merged in order; doc: the v2 wire's, for --migration-out (default: Scenarios/wire-v2.expect).",
            valueName: "FILE"))
    var files: [String] = []

    /// For the commands that read one file: the last given (nil when none).
    var file: String? { files.last }

    /// The REST API v2 wire's expectations file: doc's default, and fuzz --parity's.
    static let wireV2 = "Scenarios/wire-v2.expect"
}
