import Live
import MockPass
import PassModel
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

extension RunningServer {
    /// The server's `POST /admin/login` browser: the walk of a scenario's `user authenticate`
    /// (`HeadlessLogin`), its outcome told as the admin answer's status and reason.
    public static let login: MockPassServer.LoginDriver = { url, user, password, fetch in
        outcome(HeadlessLogin.run(url: url, user: user, password: password, fetch: fetch))
    }

    /// 404 for a code the session's programmer does not know; 409 for a session that cannot take a
    /// login now (parameters missing, login done, expired); 403 when the MVPD's page refused the
    /// user; 502 when a host did not answer.
    static func outcome(_ walk: HeadlessLogin.Outcome) -> MockPassServer.LoginOutcome {
        switch walk {
        case .left(let at):
            return .completed(at: at)
        case .stopped(let at, let title, let message):
            let why = message.map { "\"\($0)\"" } ?? "no message"
            return .refused(status: 403, reason: "the login page refused it: \(why) on \"\(title)\" at \(at)")
        case .noLoginForm(let at, let title):
            let page = title.isEmpty ? "" : "\"\(title)\" "
            return .refused(status: 409, reason: "no login form to fill: the browser stopped at \(page)\(at)")
        case .refused(let at, let status, let body):
            // A REST API v2 error names its code; an SP's or IdP's page says why in its text.
            if let error = try? Value(jsonText: body, maxDepth: 4), let code = error["code"]?.stringValue {
                let message = error["details"]?.stringValue ?? error["message"]?.stringValue ?? ""
                let known = code == "invalid_parameter_code" || code == "invalid_parameter_service_provider"
                return .refused(
                    status: known ? 404 : 409,
                    reason: "\(at) answered \(status) \(code)" + (message.isEmpty ? "" : " (\(message))"))
            }
            let text = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return .refused(status: 409, reason: "\(at) answered \(status)" + (text.isEmpty ? "" : ": \(text)"))
        case .failed(let at, let reason):
            return .refused(status: 502, reason: "\(at): \(reason)")
        }
    }
}
