import ArgumentParser
import Foundation

/// `--server URL` and its `--admin-token`: a running `passim serve` to run on, as `run --live` takes it.
/// Only run takes them today; a group, like the other shared options, so the pair and the token's
/// environment default are declared once for any command that comes to take them.
struct ServerOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "With --live: use this running `passim serve` (its admin URL) instead of a server per scenario.",
            valueName: "URL"))
    var adminURL: String?

    @Option(
        help: ArgumentHelp(
            "With --server: the admin token that `passim serve` printed (default: $PASSIM_ADMIN_TOKEN).",
            valueName: "TOKEN"))
    var adminToken: String?

    /// The token to use: --admin-token, else $PASSIM_ADMIN_TOKEN.
    var token: String? { adminToken ?? ProcessInfo.processInfo.environment["PASSIM_ADMIN_TOKEN"] }
}
