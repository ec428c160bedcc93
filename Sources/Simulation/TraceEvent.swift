import Entitlement
import MockPass
import PassModel

/// One thing that happened in a simulated run, for callback-order documentation and debugging:
/// who talked to whom, in order. Requests are recorded when sent, responses when they arrive.
public struct TraceEvent: Hashable, Sendable {
    /// Who sent a request or received its answer.
    public enum Party: Hashable, Sendable {
        case engine(app: String)
        case browser
        case secondScreen
        /// The app's own HTTP client (an `http` step: a REST API v2 client, not the SDK).
        case client
    }

    public enum Kind: Hashable, Sendable {
        case call(app: String, Call)
        case callback(app: String, Callback)
        case request(from: Party, method: String, url: String, host: LoggedRequest.Host?)
        /// `status` 0: the request failed without an HTTP answer (`failure` says why).
        case response(to: Party, status: Int, failure: String?, host: LoggedRequest.Host?)
        case user(String)
    }

    public var time: Instant
    public var kind: Kind
}
