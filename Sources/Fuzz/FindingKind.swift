/// What kind of difference a differential finding is: the port's transcript differs, or the port
/// broke down (a livelock, silence, a scenario that never ends, an exit, a broken protocol). A finding
/// is shrunk only through programs of its own kind (CONFORMANCE.md choice 98): a livelock must not
/// shrink into some other difference the smaller program happens to show, and a transcript difference
/// must not slide into a timeout, each try of which costs `--port-timeout` of real time.
enum FindingKind: String, Sendable, Equatable {
    case transcript, livelock, silent, slow, exited, broken

    /// The kind of a failure: a difference the runner could name as data (`Mismatch`) is the
    /// transcript's; otherwise its message is read, the simulator's livelock and the port session's
    /// texts (PortSession, PortProcess) saying each breakdown in their own words.
    init(failure: String, hasMismatch: Bool = false) {
        let first = failure.prefix { $0 != "\n" }
        // A port's breakdown reaches the runner as `APP: port: …` (the engine failed), or as `port: …`
        // when the port could not take the scenario's hello.
        let port = first.contains(": port: ") || first.hasPrefix("port: ")
        if hasMismatch {
            self = .transcript
        } else if first.hasPrefix("livelock:") {
            self = .livelock
        } else if !port {
            self = .transcript
        } else if first.contains("did not answer within") || first.contains("did not read its input within") {
            self = .silent
        } else if first.contains("of wall time on this scenario") {
            self = .slow
        } else if first.contains("the port exited with status") || first.contains("the port was killed by signal")
            || first.contains("the port closed its standard output")
        {
            self = .exited
        } else {
            self = .broken
        }
    }

    /// What a finding's scenario says of its kind; nil for a transcript difference, whose `<` lines
    /// say it.
    var reason: String? {
        switch self {
        case .transcript: nil
        case .livelock:
            "a livelock: the port kept making work without letting time move (docs/LIMITS.md, \"Simulated time\")"
        case .silent: "the port stopped answering: it said nothing within --port-timeout and was killed"
        case .slow: "the port never let the program end: it ran out of the program's wall time and was stopped"
        case .exited: "the port exited while the program ran"
        case .broken: "the port broke the driver protocol (docs/PORTING.md)"
        }
    }
}
