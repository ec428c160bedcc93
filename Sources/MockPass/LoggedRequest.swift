import PassModel

/// One request that reached a host the mock serves, as scenarios and tests inspect it.
public struct LoggedRequest: Hashable, Sendable {
    public enum Host: Hashable, Sendable {
        /// An SP, by name.
        case sp(String)
        /// An MVPD's identity provider, by MVPD id.
        case idp(String)
    }

    /// A query or form field.
    public struct Parameter: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var host: Host
    public var time: Instant
    public var method: String
    /// Relative to the host's base URL, without query, e.g. `/config/REQ1`.
    public var path: String
    /// Query parameters, then urlencoded form fields, in order.
    public var parameters: [Parameter]
    public var headers: HTTPHeaders

    public init(host: Host, time: Instant, method: String, path: String, parameters: [Parameter],
                headers: HTTPHeaders) {
        self.host = host
        self.time = time
        self.method = method
        self.path = path
        self.parameters = parameters
        self.headers = headers
    }

    /// The first parameter with this name.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
