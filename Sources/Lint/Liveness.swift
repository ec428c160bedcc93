import PassModel

/// The liveness rules of an app's use of the SDK API, judged from its calls and the callbacks it gets
/// (the lint's): what a wrapper that reopens the provider picker on every failed status does never
/// shows as one bad request, only as calls made from inside callbacks. `AccessEnabler` keeps one.
public struct LivenessMonitor: Sendable {
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        public var rule: String
        public var message: String
        public var at: Instant
        public var description: String { "\(rule): \(message) (at \(at.milliseconds) ms)" }
    }

    /// The rules, as `passim lint --rules` writes them (these judge calls and callbacks, not requests).
    public static let rules: [(id: String, title: String, citation: String)] = [
        (
            "live.picker-reopened-on-failure", "No new login from a failed login's status without a user action",
            Rules.mandatory("3", "Polling Mechanism Stopping")
                + " (a new code or session only when the user asks); passim liveness rule"
        ),
        (
            "live.login-storm", "At most 3 logins a minute started from callbacks",
            Rules.mandatory("8", "HTTP Error Handling Support") + "; passim liveness rule"
        ),
    ]

    public private(set) var findings: [Finding] = []
    private var delivering: [Callback] = []
    /// Whether the last authentication call was `getAuthentication` or `setSelectedProvider` (a
    /// login the user started), not `checkAuthentication`.
    private var loginStarted = false
    private var automaticLogins: [Instant] = []
    private var stormReported = false

    public init() {}

    public mutating func willDeliver(_ callback: Callback) { delivering.append(callback) }
    public mutating func didDeliver() { if !delivering.isEmpty { delivering.removeLast() } }

    /// An API call at `now`, made by the app (from inside a callback when one is being delivered).
    public mutating func called(_ call: Call, at now: Instant) {
        let opensLogin: Bool
        switch call {
        case .getAuthentication: opensLogin = true
        case .checkAuthentication: opensLogin = false; loginStarted = false
        default: opensLogin = false
        }
        defer {
            if opensLogin || { if case .setSelectedProvider(.some) = call { true } else { false } }() {
                loginStarted = true
            }
        }
        guard opensLogin, let inside = delivering.last else { return }
        if loginStarted, case .setAuthenticationStatus(let status, let code) = inside, status == 0 {
            findings.append(
                Finding(
                    rule: "live.picker-reopened-on-failure",
                    message:
                        "getAuthentication was called from setAuthenticationStatus(0, \"\(code)\") of the previous login: the provider picker reopens without a user action",
                    at: now))
        }
        automaticLogins.append(now)
        automaticLogins.removeAll { now.milliseconds - $0.milliseconds >= 60_000 }
        if automaticLogins.count > 3, !stormReported {
            stormReported = true
            findings.append(
                Finding(
                    rule: "live.login-storm",
                    message: "\(automaticLogins.count) logins started from callbacks within a minute", at: now))
        }
    }
}
