import Live
import PassModel

/// `passim login`: a running `passim serve` logs a user in for a REST API v2 session's code
/// (`POST /admin/login`, docs/SERVE.md), its fields sent as JSON with the admin token, as
/// `RemoteServer` sends its own.
public enum RemoteLogin {
    /// The server's answer: 200 and where the browser ended (JSON), or a refusal and why.
    public struct Answer: Sendable {
        public var status: Int
        public var text: String
    }

    /// A login walks several pages, each after its host's latency: more time than one admin call.
    static let timeout = Millis.seconds(60)

    /// `fields`: `code` or `url`, `user`, and optionally `password`, `requestor`, `sp`. Throws when the
    /// admin endpoint cannot be reached or gives no answer; any answer, a refusal too, is returned.
    public static func perform(adminURL: String, token: String?, fields: [(String, String)]) throws(LiveError)
        -> Answer
    {
        let admin = try CurlTransport()
        let request = RemoteServer.post(
            adminURL.withoutTrailingSlash, AdminRoute.login.path, fields.map { ($0.0, Value.string($0.1)) },
            token: token)
        switch admin.perform(request, timeout: timeout) {
        case .response(let r): return Answer(status: r.status, text: r.bodyText)
        case .failure(let why):
            throw LiveError("cannot reach the server's admin endpoint at \(adminURL): \(why)")
        case .timeout:
            throw LiveError(
                "the server's admin endpoint at \(adminURL) did not answer the login in \(timeout.value / 1000) s")
        }
    }
}
